package retrieve

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// The persisted index of a store whose revision dies with the process
// (Options.Stamped: a folder). The copy is index.Encode of a snapshot
// tagged revision 0 whose meta lists, in the order of the walk that made
// it, one record per entry the store yielded: its key, its stamp and, for
// an entry that could not be read, the message (it is then not in the
// index). A start walks the store once (AllStamped): an indexed entry
// whose stamp equals its record's is taken from the copy without reading
// it, the others (and every entry that could not be read: the reason may
// lie outside the file) are read and analysed, and records the walk did not meet are
// dropped, so a copy that a few edits made stale is patched, not rebuilt.
// A build without a copy, and a start that read or dropped at least
// stampedSaveAfter entries, save the result as the new copy, off the
// publish path. Below that the copy stays as it is: it is still right
// about every entry whose stamp it holds, and the next start reads those
// few files again, which costs less than writing the copy (a patched
// snapshot must be compacted, a full analysis, before it is encoded).

// stampedSaveAfter is how many entries a start may read or drop before it
// saves a new copy.
const stampedSaveAfter = 64

// stampMetaVersion is the layout of the records in the copy's meta.
const stampMetaVersion = 1

type stampRec struct {
	cat, name, stamp, msg string // msg: why the entry was skipped; "" when indexed
}

// stampedCopy is a decoded copy and the cursor of a walk over its records.
type stampedCopy struct {
	snap  *index.Snapshot
	recs  []stampRec
	next  int // the record the walk is expected to meet next
	byKey map[store.Key]int
	seen  []bool
}

// find returns the record of k, or -1. A walk meets the records in their
// order, save for the entries added or removed since: those cost one map
// lookup each.
func (c *stampedCopy) find(k store.Key) int {
	if c.next < len(c.recs) && c.recs[c.next].cat == k.Category && c.recs[c.next].name == k.Name {
		c.next++
		return c.next - 1
	}
	if c.byKey == nil {
		c.byKey = make(map[store.Key]int, len(c.recs))
		for i, r := range c.recs {
			c.byKey[store.Key{Category: r.cat, Name: r.name}] = i
		}
	}
	j, ok := c.byKey[k]
	if !ok {
		return -1
	}
	c.next = j + 1
	return j
}

// loadStamped decodes the store's copy, or returns nil when there is none
// or it is unusable.
func (e *Engine) loadStamped(ctx context.Context) *stampedCopy {
	data, err := e.stamped.LoadStampedIndex(ctx)
	if err != nil || data == nil {
		return nil
	}
	s, meta, err := e.decode(data, 0)
	if err != nil {
		return nil
	}
	recs, err := decodeStampRecs(string(meta))
	if err != nil {
		return nil
	}
	// Every indexed record names a document of the copy, each a
	// different one, and there are no others.
	seen := make([]bool, s.Len())
	n := 0
	for _, r := range recs {
		if r.msg != "" {
			continue
		}
		d := s.Lookup(r.cat, r.name)
		if d == nil || seen[d.Ord()] {
			return nil
		}
		seen[d.Ord()] = true
		n++
	}
	if n != s.Count() {
		return nil
	}
	return &stampedCopy{snap: s, recs: recs, seen: make([]bool, len(recs))}
}

// buildStamped is buildAt for Options.Stamped: a walk of the store with
// stamps that, with cached, takes unchanged entries from the copy; it
// returns the snapshot at rev, the records of its copy, and whether that
// copy should be saved.
func (e *Engine) buildStamped(ctx context.Context, rev uint64, cached bool) (*index.Snapshot, BuildStats, []stampRec, bool, error) {
	var (
		stats   BuildStats
		recs    []stampRec
		docs    []index.Input // every indexed entry, in walk order
		changed []index.Input // read and indexed
		failed  []store.Key   // read and skipped
		askedK  store.Key     // the key fresh was last asked about
		askedJ  = -1          // and its record
	)
	// The copy is decoded while the store walks its tree (AllStamped
	// stats every file before it calls fresh); getOld waits for it.
	var old *stampedCopy
	loaded := make(chan *stampedCopy, 1)
	if cached {
		go func() { loaded <- e.loadStamped(ctx) }()
	} else {
		loaded <- nil
	}
	waited := false
	getOld := func() *stampedCopy {
		if !waited {
			old, waited = <-loaded, true
			if old != nil {
				recs = slices.Grow(recs, len(old.recs))
				docs = slices.Grow(docs, len(old.recs))
			}
		}
		return old
	}
	defer getOld() // the decoding goroutine ends before this returns
	fresh := func(k store.Key, stamp string) bool {
		askedK, askedJ = k, -1
		if getOld() == nil {
			return false
		}
		askedJ = old.find(k)
		// A record of a file that could not be read is never trusted:
		// why a read failed is not the file's alone (the folder moved,
		// so its message names another path; a transient error; another
		// user), so it is read, and reported, again.
		return askedJ >= 0 && old.recs[askedJ].stamp == stamp && old.recs[askedJ].msg == ""
	}
	for it, err := range e.stamped.AllStamped(ctx, fresh) {
		k := it.Entry.Key()
		// A record is met only by an item yielded for its key: a file
		// removed between its stat and its read yields nothing, and its
		// record is then dropped with it.
		j := -1
		switch {
		case k == askedK:
			j = askedJ
		case k.Name != "" && getOld() != nil:
			j = old.find(k) // fresh was not asked (no stamp)
		}
		if j >= 0 {
			old.seen[j] = true
		}
		switch {
		case it.Cached:
			r := old.recs[j]
			recs = append(recs, r)
			d := old.snap.Lookup(r.cat, r.name)
			docs = append(docs, old.snap.Input(d))
		case err != nil:
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) {
				return nil, stats, nil, false, fmt.Errorf("read store: %w", err)
			}
			stats.Skipped = append(stats.Skipped, err)
			if k.Category != "" && k.Name != "" {
				// An entry that cannot be read: its stamp says when to
				// try again.
				recs = append(recs, stampRec{cat: k.Category, name: k.Name, stamp: it.Stamp, msg: err.Error()})
				if j < 0 || old.recs[j].msg == "" {
					failed = append(failed, k) // it leaves the index
				}
			}
		default:
			if e.onRead != nil {
				e.onRead(it.Entry)
			}
			in := InputOf(it.Entry)
			in.Category, in.Name = k.Category, k.Name
			recs = append(recs, stampRec{cat: k.Category, name: k.Name, stamp: it.Stamp})
			docs = append(docs, in)
			changed = append(changed, in)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, stats, nil, false, err
	}
	if getOld() == nil {
		s := e.buildOf(rev, docs)
		stats.Entries = s.Count()
		return s, stats, recs, true, nil
	}
	var gone []store.Key
	for j, r := range old.recs {
		if !old.seen[j] {
			gone = append(gone, store.Key{Category: r.cat, Name: r.name})
		}
	}
	dirty := len(changed) + len(failed) + len(gone)
	var s *index.Snapshot
	switch {
	case dirty == 0:
		s = retag(old.snap, rev)
	case dirty > bulkApply:
		s = e.buildOf(rev, docs)
	default:
		cs := make([]index.Change, 0, dirty)
		for _, k := range slices.Concat(gone, failed) {
			cs = append(cs, index.Change{In: index.Input{Category: k.Category, Name: k.Name}, Delete: true})
		}
		for _, in := range changed {
			cs = append(cs, index.Change{In: in})
		}
		s = old.snap.Apply(rev, cs)
	}
	stats.Entries = s.Count()
	return s, stats, recs, dirty >= stampedSaveAfter, nil
}

// saveStamped persists s, the snapshot of a walk, with the walk's records.
func (e *Engine) saveStamped(s *index.Snapshot, recs []stampRec) {
	e.goSave(func() {
		// Best effort, as for save.
		_ = e.stamped.SaveStampedIndex(context.Background(), index.Encode(retag(s, 0), encodeStampRecs(recs)))
	})
}

func encodeStampRecs(recs []stampRec) []byte {
	size := 16
	for _, r := range recs {
		size += len(r.cat) + len(r.name) + len(r.stamp) + len(r.msg) + 8
	}
	b := make([]byte, 0, size)
	b = binary.AppendUvarint(b, stampMetaVersion)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		for _, f := range [...]string{r.cat, r.name, r.stamp, r.msg} {
			b = binary.AppendUvarint(b, uint64(len(f)))
			b = append(b, f...)
		}
	}
	return b
}

// decodeStampRecs parses the records; their strings share meta's memory.
func decodeStampRecs(meta string) ([]stampRec, error) {
	errBad := errors.New("bad stamp records")
	p := 0
	uv := func() (uint64, bool) {
		if p >= len(meta) {
			return 0, false
		}
		var v uint64
		for shift := 0; shift < 64 && p < len(meta); shift += 7 {
			c := meta[p]
			p++
			v |= uint64(c&0x7f) << shift
			if c < 0x80 {
				return v, true
			}
		}
		return 0, false
	}
	str := func() (string, bool) {
		n, ok := uv()
		if !ok || n > uint64(len(meta)-p) {
			return "", false
		}
		s := meta[p : p+int(n)]
		p += int(n)
		return s, true
	}
	if v, ok := uv(); !ok || v != stampMetaVersion {
		return nil, errBad
	}
	n, ok := uv()
	if !ok || n > uint64(len(meta)-p)/4 {
		return nil, errBad
	}
	recs := make([]stampRec, n)
	for i := range recs {
		r := &recs[i]
		var ok1, ok2, ok3, ok4 bool
		r.cat, ok1 = str()
		r.name, ok2 = str()
		r.stamp, ok3 = str()
		r.msg, ok4 = str()
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, errBad
		}
	}
	if p != len(meta) {
		return nil, errBad
	}
	return recs, nil
}
