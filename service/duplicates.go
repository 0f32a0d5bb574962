package service

import (
	"context"
	"slices"

	"github.com/recallhq/recall/store"
)

// duplicatesOf names the entries whose content duplicates the entry's
// (docs/duplicates.md), read from the index: the engine's snapshot, caught
// up with the write (a one-shot command loads its index here, from the
// persisted copy when there is one). nil when there are none, when the
// entry is not indexed, or when the index cannot be had: the write has
// landed either way.
func (m *Memory) duplicatesOf(ctx context.Context, category, name string) []string {
	snap, err := m.eng.Snapshot(ctx)
	if err != nil || !snap.DetectsDuplicates() {
		return nil
	}
	d := snap.Lookup(category, name)
	if d == nil {
		return nil
	}
	var out []string
	for _, y := range snap.Duplicates(d) {
		out = append(out, store.Key{Category: y.Category, Name: y.Name}.String())
	}
	return out
}

// Duplicates is what an import reports of the entries it wrote: how many
// of them duplicate another entry (docs/duplicates.md), and the first few
// such pairs, in the order keys lists them.
type Duplicates struct {
	Count int
	// First holds up to MaxReportedDuplicates of them: an entry written
	// and one it duplicates ("category:name" each), each pair once.
	First [][2]string
}

// MaxReportedDuplicates bounds Duplicates.First.
const MaxReportedDuplicates = 5

// DuplicatesOf finds, in one look at the index after a bulk write (the
// index built or caught up once, not a comparison per entry), the entries
// of keys whose content duplicates another entry's.
func (m *Memory) DuplicatesOf(ctx context.Context, keys []store.Key) (Duplicates, error) {
	var out Duplicates
	snap, err := m.eng.Snapshot(ctx)
	if err != nil || !snap.DetectsDuplicates() || !snap.HasDuplicates() {
		return out, err
	}
	for _, k := range keys {
		d := snap.Lookup(k.Category, k.Name)
		if d == nil {
			continue
		}
		dups := snap.Duplicates(d)
		if len(dups) == 0 {
			continue
		}
		out.Count++
		pair := [2]string{k.String(), store.Key{Category: dups[0].Category, Name: dups[0].Name}.String()}
		if len(out.First) < MaxReportedDuplicates && !slices.Contains(out.First, [2]string{pair[1], pair[0]}) {
			out.First = append(out.First, pair)
		}
	}
	return out, nil
}
