package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var (
	shanghai = time.FixedZone("CST", 8*3600)
	newYork  = time.FixedZone("EST", -5*3600)
)

// datedInput is a random document with, mostly, a date in May 2024: an
// instant (some exactly at midnight in Shanghai, an edge of day ranges)
// or a calendar day; a few have none.
func datedInput(r *rand.Rand) Input {
	c, nm := r4Identity(r)
	in := Input{Category: c, Name: nm, Content: r4Content(r)}
	day := 1 + r.IntN(10)
	switch x := r.IntN(10); {
	case x < 1: // no date
	case x < 4:
		in.Date, in.Day = time.Date(2024, 5, day, 0, 0, 0, 0, time.UTC), true
	case x < 6:
		in.Date = time.Date(2024, 5, day, 0, 0, 0, 0, shanghai)
	default:
		in.Date = time.Date(2024, 5, day, r.IntN(24), r.IntN(60), 0, 0, newYork)
		in.Written = x == 9
	}
	return in
}

// inRef is the reference membership: the date read in loc as an
// instant, compared with the half-open range.
func inRef(s *Snapshot, d *Doc, r TimeRange) bool {
	if r.IsZero() {
		return true
	}
	loc := r.Loc
	t := s.DateIn(d, loc)
	if t.IsZero() {
		return false
	}
	return (r.From.IsZero() || !t.Before(r.From)) && (r.To.IsZero() || t.Before(r.To))
}

func randomRange(r *rand.Rand) TimeRange {
	loc := []*time.Location{shanghai, newYork, time.UTC}[r.IntN(3)]
	from := time.Date(2024, 5, 1+r.IntN(10), 0, 0, 0, 0, loc)
	tr := TimeRange{From: from, To: from.AddDate(0, 0, 1+r.IntN(3)), Loc: loc}
	switch r.IntN(6) {
	case 0:
		tr.From = time.Time{}
	case 1:
		tr.To = time.Time{}
	case 2:
		tr.From, tr.To = time.Time{}, time.Time{}
	}
	return tr
}

// checkWithin: In agrees with the reference membership, and Top inside
// the set, by every scorer (scanning or probing its lists, pruned
// or not), is the reference's ranking of the set's documents alone.
//
// With hide, a random part of the documents is also left out of the set
// (Except), over a range or, for an open one, over no set at all.
func checkWithin(t *testing.T, s *Snapshot, r *rand.Rand, label string, hide bool) {
	t.Helper()
	ref := newRef(s)
	for trial := range 12 {
		tr := randomRange(r)
		w := s.In(tr)
		var hidden []uint64
		if hide {
			hidden = make([]uint64, (s.Len()+63)/64)
			for ord := range s.Len() {
				if r.IntN(3) == 0 {
					hidden[ord/64] |= 1 << (ord % 64)
				}
			}
			if tr.IsZero() && r.IntN(2) == 0 {
				w = nil
			}
			w = s.Except(w, hidden)
			if w == nil {
				w = s.In(tr) // nothing hidden: the set as it was
			}
		}
		isHidden := func(d *Doc) bool { o := d.Ord(); return hidden != nil && hidden[o/64]&(1<<(o%64)) != 0 }
		n := 0
		s.Docs(func(d *Doc) bool {
			if (inRef(s, d, tr) && !isHidden(d)) != w.Has(d) {
				t.Fatalf("%s: %s/%q dated %v: in %v, want %v (range %v..%v)", label, d.Category, d.Name, s.DateIn(d, tr.Loc), w.Has(d), inRef(s, d, tr), tr.From, tr.To)
			}
			if w.Has(d) {
				n++
			}
			return true
		})
		if w.Len() < n {
			t.Fatalf("%s: Len %d, below the %d live documents in it", label, w.Len(), n)
		}
		m := 0
		w.each(func(uint32) { m++ })
		if m != n {
			t.Fatalf("%s: each yields %d documents, want %d", label, m, n)
		}
		for _, q := range r4Queries {
			terms := s.Terms(q)
			var full []Scored
			for _, x := range ref.top(terms, 0) {
				if w.Has(x.Doc) {
					full = append(full, x)
				}
			}
			for _, k := range []int{1, 3, 10, 100, maxMatchedSearch + 1} {
				want := full
				if len(want) > k {
					want = want[:k]
				}
				for _, mode := range []Pruning{PruneNever, PruneAuto, PruneAlways} {
					got, err := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: mode, Within: w})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s trial %d %q k %d mode %d: %d results %v, want %d %v", label, trial, q, k, mode, len(got), names(got), len(want), names(want))
					}
				}
				// The exhaustive scorer inside the set, every list scanned,
				// and every list with a bitmap probed instead.
				for _, probe := range []int{probeNever, probeAlways} {
					p := planPool.Get().(*plan)
					var got []Scored
					if s.planIn(p, terms) != nil {
						p.h.k, p.h.within, p.probe = k, w, probe
						if w.all {
							p.h.within = nil
						}
						if err := p.exhaustive(nil); err != nil {
							t.Fatal(err)
						}
						got = p.h.appendSorted(nil)
					}
					p.release()
					if !slices.Equal(got, want) {
						t.Fatalf("%s %q k %d probe %d: %v, want %v", label, q, k, probe, names(got), names(want))
					}
				}
			}
		}
	}
}

func names(ss []Scored) []string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%s/%q=%.4f", s.Doc.Category, s.Doc.Name, s.Score))
	}
	return out
}

func TestWithinEqualsReference(t *testing.T) {
	for trial, n := range []int{0, 1, 40, 600, 3000} {
		r := rand.New(rand.NewPCG(uint64(trial), 22))
		var in []Input
		for range n {
			in = append(in, datedInput(r))
		}
		s := Build(1, nil, in)
		label := fmt.Sprintf("n %d", n)
		for _, hide := range []bool{false, true} {
			checkWithin(t, s, r, fmt.Sprint(label, " hide ", hide), hide)
		}
		d, _, err := Decode(Encode(s, nil), nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		checkWithin(t, d, r, label+" decoded", false)
		// Overlay writes (dates change with them) and deletes.
		w := d
		var ids [][2]string
		w.Docs(func(x *Doc) bool { ids = append(ids, [2]string{x.Category, x.Name}); return true })
		for i := range 30 {
			switch x := r.IntN(10); {
			case x < 4 && len(ids) > 0:
				id := ids[r.IntN(len(ids))]
				in := datedInput(r)
				in.Category, in.Name = id[0], id[1]
				w = w.With(uint64(2+i), in)
			case x < 7:
				in := datedInput(r)
				w = w.With(uint64(2+i), in)
				ids = append(ids, [2]string{in.Category, in.Name})
			case len(ids) > 0:
				j := r.IntN(len(ids))
				w = w.Without(uint64(2+i), ids[j][0], ids[j][1])
			}
		}
		checkWithin(t, w, r, label+" overlay", false)
		checkWithin(t, w, r, label+" overlay, hidden", true)
		checkWithin(t, w.Compact(), r, label+" compacted", false)
	}
}

// The edges of a range: From is in it, To is not; a calendar day is read
// in the range's zone; a document without a date is only in open ranges.
func TestInEdges(t *testing.T) {
	from := time.Date(2024, 5, 3, 0, 0, 0, 0, shanghai)
	to := from.AddDate(0, 0, 1)
	s := Build(1, nil, []Input{
		{Category: "d", Name: "at from", Content: "x", Date: from},
		{Category: "d", Name: "just before from", Content: "x", Date: from.Add(-time.Nanosecond)},
		{Category: "d", Name: "just before to", Content: "x", Date: to.Add(-time.Nanosecond)},
		{Category: "d", Name: "at to", Content: "x", Date: to},
		{Category: "d", Name: "day", Content: "x", Date: time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC), Day: true},
		{Category: "d", Name: "next day", Content: "x", Date: time.Date(2024, 5, 4, 0, 0, 0, 0, time.UTC), Day: true},
		{Category: "d", Name: "undated", Content: "x"},
	})
	got := func(r TimeRange) []string {
		var out []string
		for _, d := range s.Newest(s.In(r), r.Loc, 0) {
			out = append(out, d.Name)
		}
		return out
	}
	if g, want := got(TimeRange{From: from, To: to, Loc: shanghai}), []string{"just before to", "at from", "day"}; !slices.Equal(g, want) {
		t.Errorf("3 May in Shanghai = %q, want %q (newest first, equal dates by name)", g, want)
	}
	// The same day in New York: the instants are 13 hours off, the
	// calendar day is the same day.
	ny := TimeRange{From: time.Date(2024, 5, 3, 0, 0, 0, 0, newYork), To: time.Date(2024, 5, 4, 0, 0, 0, 0, newYork), Loc: newYork}
	if g, want := got(ny), []string{"at to", "just before to", "day"}; !slices.Equal(g, want) {
		t.Errorf("3 May in New York = %q, want %q", g, want)
	}
	if g := got(TimeRange{To: from, Loc: shanghai}); !slices.Equal(g, []string{"just before from"}) {
		t.Errorf("before 3 May = %q", g)
	}
	if g := got(TimeRange{Loc: shanghai}); len(g) != 7 || g[6] != "undated" {
		t.Errorf("open range = %q, want all 7, the undated last", g)
	}
	if g := s.Newest(s.In(TimeRange{From: from, To: to, Loc: shanghai}), shanghai, 2); len(g) != 2 || g[0].Name != "just before to" {
		t.Errorf("newest 2 = %v", g)
	}
}
