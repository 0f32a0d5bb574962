package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// refIndex is an independent reference: every live document tokenized
// from its text (name + " " + content), scored by the SPEC's formula with
// the terms summed in query term order from 0, sorted by Less.
type refIndex struct {
	docs []*Doc
	tf   []map[string]uint32
	dl   []uint32
	n    int
	tot  uint64
}

func newRef(s *Snapshot) *refIndex {
	r := &refIndex{}
	s.Docs(func(d *Doc) bool {
		toks := s.tok.Tokens(d.Name + " " + d.Content)
		m := make(map[string]uint32, len(toks))
		for _, t := range toks {
			m[t]++
		}
		r.docs = append(r.docs, d)
		r.tf = append(r.tf, m)
		r.dl = append(r.dl, uint32(len(toks)))
		r.tot += uint64(len(toks))
		return true
	})
	r.n = len(r.docs)
	return r
}

func (r *refIndex) top(terms []string, k int) []Scored {
	if r.n == 0 || r.tot == 0 || len(terms) == 0 {
		return nil
	}
	N := float64(r.n)
	avgdl := float64(r.tot) / N
	c0, c1 := K1*(1-B), K1*B/avgdl
	idf := make([]float64, len(terms))
	for ti, t := range terms {
		df := 0
		for _, m := range r.tf {
			if m[t] > 0 {
				df++
			}
		}
		idf[ti] = math.Log(1 + (N-float64(df)+0.5)/(float64(df)+0.5))
	}
	var all []Scored
	for i, d := range r.docs {
		score := 0.0
		var mask uint64
		for ti, t := range terms {
			if tf := r.tf[i][t]; tf > 0 {
				score += weight(idf[ti], float64(tf), c0, c1, r.dl[i])
				if ti < 64 {
					mask |= 1 << ti
				}
			}
		}
		if score > 0 {
			all = append(all, Scored{Doc: d, Score: score, Matched: mask})
		}
	}
	sortByLess(all)
	if k > 0 && len(all) > k {
		all = all[:k]
	}
	return all
}

var (
	r4Cats  = []string{"", "a", "a/b", "a\x00", "a b", "b", "é", "A", "ab", "\x01"}
	r4Bytes = []string{"a", "b", "\x00", "/", "-", " ", "é", "z", "0", "\x7f", "ÿ"}
)

func r4Identity(r *rand.Rand) (string, string) {
	for {
		cat := r4Cats[r.IntN(len(r4Cats))]
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(r4Bytes[r.IntN(len(r4Bytes))])
		}
		if cat != "" || b.Len() > 0 {
			return cat, b.String()
		}
	}
}

// r4Content: short texts of few lengths and tfs (many exact ties), "what"
// in about half of them, now and then a tf of 255 or more.
func r4Content(r *rand.Rand) string {
	var b strings.Builder
	switch r.IntN(200) {
	case 0:
		b.WriteString(strings.Repeat("what ", 255+r.IntN(3)))
	case 1:
		b.WriteString(strings.Repeat("r1 ", 256))
	}
	for range 1 + r.IntN(3) {
		switch x := r.IntN(100); {
		case x < 45:
			b.WriteString("what ")
		case x < 70:
			fmt.Fprintf(&b, "w%d ", r.IntN(6))
		default:
			fmt.Fprintf(&b, "r%d ", r.IntN(40))
		}
	}
	return b.String()
}

var r4Queries = []string{"what", "what r1", "what r2", "r3 what", "what r4 r5", "w1", "w1 w2",
	"what w3", "r6 r7 r8", "what w1 r9 r10", "nothere", "what nothere", "a", "b z", "é", "r11 what w4 w5"}

// checkAgainstRef compares every scorer's answer with the reference for
// the queries, at several k.
func checkAgainstRef(t *testing.T, s *Snapshot, label string) {
	t.Helper()
	ref := newRef(s)
	if ref.n != s.Count() {
		t.Fatalf("%s: %d live documents, Count %d", label, ref.n, s.Count())
	}
	for _, q := range r4Queries {
		terms := s.Terms(q)
		full := ref.top(terms, 0)
		// Score agrees with the reference on every document.
		got := map[*Doc]float64{}
		s.Score(terms, func(d *Doc, v float64) { got[d] = v })
		if len(got) != len(full) {
			t.Fatalf("%s %q: Score gives %d documents, want %d", label, q, len(got), len(full))
		}
		for _, w := range full {
			if got[w.Doc] != w.Score {
				t.Fatalf("%s %q: Score %s/%q = %v, want %v", label, q, w.Doc.Category, w.Doc.Name, got[w.Doc], w.Score)
			}
		}
		for _, k := range []int{0, 1, 2, 3, 7, 10, 50, 1000, 100000} {
			want := full
			if k > 0 && len(want) > k {
				want = want[:k]
			}
			for _, mode := range []Pruning{PruneNever, PruneAuto, PruneAlways} {
				got, err := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: mode})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%s %q k %d mode %d: %d results, want %d", label, q, k, mode, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						g, w := got[i], want[i]
						t.Fatalf("%s %q k %d mode %d: result %d is %q/%q %v %b, want %q/%q %v %b", label, q, k, mode, i,
							g.Doc.Category, g.Doc.Name, g.Score, g.Matched, w.Doc.Category, w.Doc.Name, w.Score, w.Matched)
					}
				}
			}
		}
	}
}

// checkInvariants: base documents in strict identity order with ord =
// position, every overlay document's below right, ovIdx finding every
// posting of ovPost (and ovRecentRange of ovRecent), each live overlay
// document's terms held once by the two levels.
func checkInvariants(t *testing.T, s *Snapshot, label string) {
	t.Helper()
	docs := s.base.docs
	for i := range docs {
		if int(docs[i].ord) != i {
			t.Fatalf("%s: base doc %d has ord %d", label, i, docs[i].ord)
		}
		if i > 0 && compareIdentity(docs[i-1], docs[i]) >= 0 {
			t.Fatalf("%s: base docs %d, %d out of identity order", label, i-1, i)
		}
	}
	for i, o := range s.overlay {
		if o == nil {
			continue
		}
		below := 0
		for j := range docs {
			if compareIdentity(docs[j], o.Doc) < 0 {
				below++
			}
		}
		if int(o.below) != below {
			t.Fatalf("%s: overlay doc %d below %d, want %d", label, i, o.below, below)
		}
	}
	for _, lv := range []struct {
		name   string
		ps     []ovPosting
		range_ func(uint64) []ovPosting
	}{{"ovPost", s.ovPost, s.ovRange}, {"ovRecent", s.ovRecent, s.ovRecentRange}} {
		if !slices.IsSortedFunc(lv.ps, cmpOv) {
			t.Fatalf("%s: %s not sorted", label, lv.name)
		}
		for i, p := range lv.ps {
			rg := lv.range_(p.hash)
			found := false
			for j := range rg {
				if rg[j].hash != p.hash {
					t.Fatalf("%s: %s range(%x) holds hash %x", label, lv.name, p.hash, rg[j].hash)
				}
				if rg[j] == lv.ps[i] {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: %s range misses posting %d", label, lv.name, i)
			}
		}
	}
	bothLevels = bothLevels || len(s.ovPost) > 0 && len(s.ovRecent) > 0
	bothDead = bothDead || len(s.deadPost) > 0 && len(s.deadRecent) > 0
	if !slices.IsSortedFunc(s.deadPost, cmpDead) || !slices.IsSortedFunc(s.deadRecent, cmpDead) {
		t.Fatalf("%s: dead postings not sorted", label)
	}
	// The name maps hold exactly the live overlay documents, each under its
	// name and its folded name, and Lookup finds each.
	names, folds := map[string][]int{}, map[string][]int{}
	for i, o := range s.overlay {
		if o == nil {
			continue
		}
		names[o.Name] = append(names[o.Name], i)
		folds[FoldName(o.Name)] = append(folds[FoldName(o.Name)], i)
		if d := s.Lookup(o.Category, o.Name); d != &o.Doc {
			t.Fatalf("%s: Lookup(%q, %q) misses overlay doc %d", label, o.Category, o.Name, i)
		}
	}
	for _, m := range []struct {
		slots *nameSlots
		want  map[string][]int
	}{{&s.onames, names}, {&s.ofold, folds}} {
		if m.slots.n != len(m.want) {
			t.Fatalf("%s: name map counts %d names, want %d", label, m.slots.n, len(m.want))
		}
		for k, want := range m.want {
			if got := slices.Sorted(slices.Values(m.slots.get(k))); !slices.Equal(got, want) {
				t.Fatalf("%s: name map %q = %v, want %v", label, k, got, want)
			}
		}
	}
	// Every live overlay document's terms are in exactly one level, once.
	held := map[ovPosting]int{}
	for _, p := range slices.Concat(s.ovPost, s.ovRecent) {
		held[p]++
	}
	for i, o := range s.overlay {
		if o == nil {
			continue
		}
		for term, tf := range o.tf {
			if p := (ovPosting{hash: termHash(term), term: term, doc: uint32(i), tf: tf}); held[p] != 1 {
				t.Fatalf("%s: overlay doc %d's term %q held %d times", label, i, term, held[p])
			}
		}
	}
}

// TestRandomSnapshotsEqualReference: snapshots built from inputs in random
// order (identities with NUL, '/', spaces, non-ASCII, equal names in
// different categories, duplicates), then overlays of random writes and
// deletes (down to every base document dead), and their Encode/Decode
// round trips, answer every query as the reference does, in every
// pruning mode, at every k.
func TestRandomSnapshotsEqualReference(t *testing.T) { randomSnapshotsEqualReference(t) }

// TestRecentLevelsFoldEqualReference is TestRandomSnapshotsEqualReference
// with the overlay tables' recent levels folded into the main ones every
// few postings (overlay.go), so that writes meet both levels filled.
func TestRecentLevelsFoldEqualReference(t *testing.T) {
	defer func(m int) { recentMin = m }(recentMin)
	recentMin = 8
	bothLevels, bothDead = false, false
	randomSnapshotsEqualReference(t)
	if !bothLevels || !bothDead {
		t.Fatalf("no snapshot checked had both levels filled (overlay %v, dead %v)", bothLevels, bothDead)
	}
}

// bothLevels and bothDead record that checkInvariants met a snapshot with
// both levels of its overlay postings, or of its dead postings, filled.
var bothLevels, bothDead bool

func randomSnapshotsEqualReference(t *testing.T) {
	sizes := []int{0, 1, 2, 3, 17, 200, 2600}
	if testing.Short() {
		sizes = sizes[:6]
	}
	for trial, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(trial), 44))
		var in []Input
		for range n {
			c, nm := r4Identity(r)
			in = append(in, Input{Category: c, Name: nm, Content: r4Content(r)})
		}
		// Duplicate identities: the later one wins.
		for i := 0; i+1 < len(in) && i < 5; i++ {
			in = append(in, Input{Category: in[i].Category, Name: in[i].Name, Content: r4Content(r)})
		}
		r.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
		s := Build(1, nil, in)
		label := fmt.Sprintf("n %d", n)
		checkInvariants(t, s, label)
		checkAgainstRef(t, s, label)
		d, _, err := Decode(Encode(s, nil), nil, 1)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		checkInvariants(t, d, label+" decoded")
		checkAgainstRef(t, d, label+" decoded")

		// Writes and deletes, checked along the way.
		w := d
		var ids [][2]string
		w.Docs(func(x *Doc) bool { ids = append(ids, [2]string{x.Category, x.Name}); return true })
		ops := 40 + r.IntN(40)
		for i := range ops {
			switch x := r.IntN(10); {
			case x < 4 && len(ids) > 0: // replace
				id := ids[r.IntN(len(ids))]
				w = w.With(uint64(2+i), Input{Category: id[0], Name: id[1], Content: r4Content(r)})
			case x < 7: // new (or, by chance, an existing identity)
				c, nm := r4Identity(r)
				w = w.With(uint64(2+i), Input{Category: c, Name: nm, Content: r4Content(r)})
				ids = append(ids, [2]string{c, nm})
			case len(ids) > 0: // delete
				j := r.IntN(len(ids))
				w = w.Without(uint64(2+i), ids[j][0], ids[j][1])
			}
			if i%13 == 0 {
				checkInvariants(t, w, fmt.Sprintf("%s op %d", label, i))
				checkAgainstRef(t, w, fmt.Sprintf("%s op %d", label, i))
			}
		}
		checkInvariants(t, w, label+" overlay")
		checkAgainstRef(t, w, label+" overlay")
		checkAgainstRef(t, w.Compact(), label+" compacted")
		d2, _, err := Decode(Encode(w, nil), nil, w.Revision())
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		checkInvariants(t, d2, label+" overlay decoded")
		checkAgainstRef(t, d2, label+" overlay decoded")

		// Every base document dead, then a few overlay documents only.
		if n <= 200 {
			a := s
			for i := range s.base.docs {
				a = a.Without(100, s.base.docs[i].Category, s.base.docs[i].Name)
			}
			checkAgainstRef(t, a, label+" all dead")
			for i := range 3 {
				c, nm := r4Identity(r)
				a = a.With(uint64(200+i), Input{Category: c, Name: nm, Content: r4Content(r)})
				checkInvariants(t, a, label+" all dead + overlay")
				checkAgainstRef(t, a, fmt.Sprintf("%s all dead + %d", label, i+1))
			}
		}
	}
}

// TestImpactTiesAgainstReference: a corpus shaped for the impact path
// (one dense list, "what", and rare words) whose documents tie in blocks
// (equal tf and |D|) and whose identities interleave with the overlay's,
// answered by its one-dense fast path, by the probe with and without a
// bitmap (a budget that refuses it) and, concurrently, from cold caches.
func TestImpactTiesAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var in []Input
	for i := range 3000 {
		c := "what"
		if r.IntN(3) == 0 {
			c = "what what"
		}
		if r.IntN(30) == 0 {
			c += fmt.Sprintf(" r%d", r.IntN(20))
		}
		if i%500 == 0 {
			c += strings.Repeat(" what", 300) // tf >= 255: escaped
		}
		if i%700 == 1 {
			c = "x" // not in the dense list
		}
		in = append(in, Input{Category: fmt.Sprint("c", r.IntN(3)), Name: fmt.Sprintf("%x", r.Uint32()), Content: c})
	}
	// A few rare-word documents with huge tf of "what", so that the one
	// dense path reads an escaped tf for a candidate.
	for i := range 4 {
		in = append(in, Input{Category: "c1", Name: fmt.Sprint("big", i), Content: strings.Repeat("what ", 260+i) + "r1 r2"})
	}
	r.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
	base := Build(1, nil, in)
	queries := []string{"what r1", "what r2", "r3 what", "what r4 r5", "what"}
	for qi := range queries {
		terms := base.Terms(queries[qi])
		if _, _, ok := base.useImpact(base.plan(terms), TopQuery{Terms: terms, Limit: 10}); !ok {
			t.Fatalf("%q: not the impact path", queries[qi])
		}
	}
	w := base
	for i := range 60 {
		c := "what"
		if i%2 == 0 {
			c = "what what"
		}
		if i%5 == 0 {
			c += " r1"
		}
		w = w.With(uint64(2+i), Input{Category: fmt.Sprint("c", r.IntN(3)), Name: fmt.Sprintf("%x", r.Uint32()), Content: c})
		if i%4 == 0 {
			w = w.Without(uint64(2+i), base.base.docs[r.IntN(len(base.base.docs))].Category, base.base.docs[r.IntN(len(base.base.docs))].Name)
		}
	}
	check := func(s *Snapshot, label string) {
		t.Helper()
		ref := newRef(s)
		for _, q := range queries {
			terms := s.Terms(q)
			for _, k := range []int{1, 2, 5, 10, 40, 300} {
				want := ref.top(terms, k)
				for _, mode := range []Pruning{PruneAuto, PruneAlways} {
					got, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: mode})
					if !slices.Equal(got, want) {
						t.Fatalf("%s %q k %d mode %d: differs from the reference", label, q, k, mode)
					}
				}
			}
		}
	}
	// Cold caches (impact orders, bitmaps), made by concurrent queries.
	refW := newRef(w)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queries {
				q := queries[(i+g)%len(queries)]
				terms := w.Terms(q)
				if got, _ := w.Top(TopQuery{Terms: terms, Limit: 10}); !slices.Equal(got, refW.top(terms, 10)) {
					errs <- q
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for q := range errs {
		t.Fatalf("concurrent %q: differs from the reference", q)
	}
	check(base, "base")
	check(w, "overlay")

	// A budget that takes the impact order of "what" but not its bitmap.
	defer func(b int) { cacheBudgetPerDoc = b }(cacheBudgetPerDoc)
	id, _ := base.base.terms.id("what")
	nd := len(base.base.docs)
	cacheBudgetPerDoc = (impactSize(base.base.listLen(id)) + nd - 1) / nd
	if nd*cacheBudgetPerDoc >= impactSize(base.base.listLen(id))+denseSize(nd) {
		t.Fatalf("budget %d leaves room for the bitmap", cacheBudgetPerDoc)
	}
	fresh := Build(1, nil, in)
	check(fresh, "no bitmap")
	if fresh.base.denseOf(id) != nil {
		t.Fatal("the bitmap was made")
	}
}

// TestOvIndexAndDeadFrom: ovRange finds exactly a hash's postings in
// tables of every size from 1, hashes colliding in their top bits; and
// deadFrom is the first position at or past an id in any sorted table.
func TestOvIndexAndDeadFrom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 1; n < 300; n++ {
		ps := make([]ovPosting, n)
		for i := range ps {
			h := r.Uint64()
			switch r.IntN(4) {
			case 0:
				h = h >> 60 << 60 // many share the top bits
			case 1:
				h = math.MaxUint64 - uint64(r.IntN(3))
			case 2:
				h = uint64(r.IntN(3))
			}
			ps[i] = ovPosting{hash: h, doc: uint32(i)}
		}
		slices.SortFunc(ps, cmpOv)
		s := &Snapshot{ovPost: ps, ovIdx: newOvIndex(ps)}
		probe := func(h uint64) {
			var want []ovPosting
			for _, p := range ps {
				if p.hash == h {
					want = append(want, p)
				}
			}
			if got := s.ovRange(h); !slices.Equal(got, want) {
				t.Fatalf("n %d: ovRange(%x) = %d postings, want %d", n, h, len(got), len(want))
			}
		}
		for _, p := range ps {
			probe(p.hash)
			probe(p.hash + 1)
			probe(p.hash - 1)
		}
		probe(0)
		probe(math.MaxUint64)

		ds := make([]deadPosting, r.IntN(n+1))
		for i := range ds {
			ds[i] = deadPosting{id: uint32(r.IntN(20)), ord: uint32(i)}
		}
		slices.SortFunc(ds, cmpDead)
		for id := uint32(0); id < 22; id++ {
			want := 0
			for want < len(ds) && ds[want].id < id {
				want++
			}
			if got := deadFrom(ds, id); got != want {
				t.Fatalf("deadFrom(%d postings, %d) = %d, want %d", len(ds), id, got, want)
			}
		}
	}
}
