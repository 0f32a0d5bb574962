package retrieve

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// Validity (docs/validity.md): an entry may supersede others
// (store.MetaSupersedes) and may expire (store.MetaExpires). InputOf
// keeps what a retrieve needs of both in the document's index.Input.Extra
// (validityRec), so a persisted or stamped index carries it too; an
// entry with neither key has no extra, and a store without them answers
// exactly as before validity existed. Per snapshot the Engine works out,
// once, which entries are superseded (Validity); per retrieve the
// superseded and the expired entries are left out of the candidates
// before ranking (index.Snapshot.Except), unless IncludeSuperseded or
// IncludeExpired, and every item says what it supersedes, what
// supersedes it, and whether it expired.

// validityRec is an entry's validity as the index keeps it: encode and
// decodeValidity write and read it as lines "v1", then "u <updated>",
// "e <expires>", "b <why>" and one "s <link>" per link, each present only
// when set (a link, a date and a message hold no line break).
type validityRec struct {
	// Supersedes are the supersedes links, as store.Supersedes returns them.
	Supersedes []string
	// Expires is store.FormatDate of the expiry: "2026-07-01" for a
	// calendar day, else RFC 3339.
	Expires string
	// Updated is the entry's updated time (else its created time) in Unix
	// nanoseconds, which decides a cycle; kept only with Supersedes.
	Updated int64
	// Bad is why a key the entry carries could not be read (a file edited
	// by hand): the key is then ignored, and Validity reports it.
	Bad string
}

// validityExtra is the index.Input.Extra of an entry with meta m: "" when
// it carries neither validity key.
func validityExtra(m store.Meta) string {
	_, hasS := m.Extra[store.MetaSupersedes]
	_, hasE := m.Extra[store.MetaExpires]
	if !hasS && !hasE {
		return ""
	}
	var r validityRec
	var bad []string
	if links, err := store.Supersedes(m); err != nil {
		bad = append(bad, err.Error())
	} else if len(links) > 0 {
		r.Supersedes = links
		u := m.Updated
		if u.IsZero() {
			u = m.Created
		}
		if !u.IsZero() {
			r.Updated = u.UnixNano()
		}
	}
	if t, err := store.Expires(m); err != nil {
		bad = append(bad, err.Error())
	} else if !t.IsZero() {
		r.Expires = store.FormatDate(t)
	}
	if len(bad) > 0 {
		r.Bad = bad[0]
		if len(bad) > 1 {
			r.Bad += "; " + bad[1]
		}
	}
	if r.Supersedes == nil && r.Expires == "" && r.Bad == "" {
		return ""
	}
	return r.encode()
}

func (r validityRec) encode() string {
	var b strings.Builder
	b.WriteString("v1")
	if r.Updated != 0 {
		b.WriteString("\nu ")
		b.WriteString(strconv.FormatInt(r.Updated, 10))
	}
	if r.Expires != "" {
		b.WriteString("\ne " + r.Expires)
	}
	if r.Bad != "" {
		b.WriteString("\nb " + strings.ReplaceAll(r.Bad, "\n", " "))
	}
	for _, l := range r.Supersedes {
		b.WriteString("\ns " + l)
	}
	return b.String()
}

// decodeValidity reads what encode wrote; ok is false for anything else.
func decodeValidity(x string) (r validityRec, ok bool) {
	first, rest, _ := strings.Cut(extraPart(x, "v1"), "\n")
	if first != "v1" {
		return r, false
	}
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) < 2 || line[1] != ' ' {
			return r, false
		}
		v := line[2:]
		switch line[0] {
		case 'u':
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return r, false
			}
			r.Updated = n
		case 'e':
			r.Expires = v
		case 'b':
			r.Bad = v
		case 's':
			r.Supersedes = append(r.Supersedes, v)
		default:
			return r, false
		}
	}
	return r, true
}

// Validity is what the supersedes and expires keys of a snapshot's
// entries decide: which entries are superseded and by what, which expire
// when, the supersedes links that name no entry, and the cycles. It is
// immutable and safe for concurrent use; Engine.Validity computes it once
// per snapshot.
type Validity struct {
	snap       *index.Snapshot
	superseded []uint64             // bitset by ord
	by         map[int]*index.Doc   // superseded ord → the entry that supersedes it
	replaces   map[int][]*index.Doc // ord → the entries it supersedes, in identity order
	expiries   []expiry             // the entries that carry an expiry, by ord
	// inst and days are the expiries that are instants, by time, and
	// calendar days, by date: the expired ones at any now are a prefix of
	// each, which viewOf caches.
	inst, days []expiry
	views      atomic.Pointer[expiredView]
	unresolved map[int][]string   // ord → its supersedes links to no entry
	bad        map[int]string     // ord → why its validity keys were ignored
	cycles     []Cycle            // in identity order of their kept entry
	docs       map[int]*index.Doc // every entry above, by ord
}

// expiry is one entry's expiry: an instant, or a calendar day (its
// midnight UTC) that each retrieve reads in its own zone.
type expiry struct {
	ord int
	at  time.Time
	day bool
}

// Cycle is a set of entries that supersede each other in a circle (a
// user who changed their mind back). The most recently updated one is
// kept (Kept), the others are superseded; equal times keep the first in
// identity order.
type Cycle struct {
	Entries []store.Key // in identity order
	Kept    store.Key
}

// Superseded is one superseded entry, with the entry that supersedes it.
type Superseded struct {
	Entry, By store.Key
}

// Problem is a supersedes link that names no entry, or a validity key
// that could not be read (Link empty, Reason set), of one entry.
type Problem struct {
	Entry  store.Key
	Link   string `json:",omitempty"`
	Reason string `json:",omitempty"`
}

// Cycles lists the supersession cycles and which entry each keeps.
func (v *Validity) Cycles() []Cycle {
	if v == nil {
		return nil
	}
	return v.cycles
}

// Problems lists the supersedes links that resolve to no entry and the
// validity keys that could not be read, in identity order.
func (v *Validity) Problems() []Problem {
	if v == nil {
		return nil
	}
	var out []Problem
	for ord, links := range v.unresolved {
		for _, l := range links {
			out = append(out, Problem{Entry: keyOf(v.docs[ord]), Link: l})
		}
	}
	for ord, why := range v.bad {
		out = append(out, Problem{Entry: keyOf(v.docs[ord]), Reason: why})
	}
	slices.SortFunc(out, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Entry.Category, b.Entry.Category), cmp.Compare(a.Entry.Name, b.Entry.Name),
			cmp.Compare(a.Link, b.Link), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}

// Superseded lists the superseded entries, in identity order.
func (v *Validity) Superseded() []Superseded {
	if v == nil {
		return nil
	}
	out := make([]Superseded, 0, len(v.by))
	for ord, by := range v.by {
		out = append(out, Superseded{Entry: keyOf(v.docs[ord]), By: keyOf(by)})
	}
	slices.SortFunc(out, func(a, b Superseded) int { return compareKey(a.Entry, b.Entry) })
	return out
}

// SupersededBy returns the entry that supersedes category:name, if any.
func (v *Validity) SupersededBy(category, name string) (store.Key, bool) {
	if v == nil {
		return store.Key{}, false
	}
	d := v.snap.Lookup(category, name)
	if d == nil {
		return store.Key{}, false
	}
	by, ok := v.by[d.Ord()]
	return keyOf(by), ok
}

// Supersedes returns the entries category:name supersedes (links that
// resolve, less those a cycle overrules), in identity order.
func (v *Validity) Supersedes(category, name string) []store.Key {
	if v == nil {
		return nil
	}
	d := v.snap.Lookup(category, name)
	if d == nil {
		return nil
	}
	var out []store.Key
	for _, x := range v.replaces[d.Ord()] {
		out = append(out, keyOf(x))
	}
	return out
}

// Successors returns every entry that supersedes category:name (links a
// cycle overrules left out), in identity order; SupersededBy names the
// most recently updated of them.
func (v *Validity) Successors(category, name string) []store.Key {
	if v == nil {
		return nil
	}
	d := v.snap.Lookup(category, name)
	if d == nil {
		return nil
	}
	var out []store.Key
	for y, xs := range v.replaces {
		if slices.Contains(xs, d) {
			out = append(out, keyOf(v.docs[y]))
		}
	}
	slices.SortFunc(out, compareKey)
	return out
}

// Expired reports whether category:name has expired at now (a calendar
// day is read in now's zone): now is at or after its expiry.
func (v *Validity) Expired(category, name string, now time.Time) bool {
	if v == nil {
		return false
	}
	d := v.snap.Lookup(category, name)
	if d == nil {
		return false
	}
	i, found := slices.BinarySearchFunc(v.expiries, d.Ord(), func(x expiry, ord int) int { return cmp.Compare(x.ord, ord) })
	return found && v.expiries[i].expired(now)
}

// expired reports whether now is at or after the expiry
// (store.ExpiredAt, the one rule).
func (x expiry) expired(now time.Time) bool { return store.ExpiredAt(x.at, now) }

func keyOf(d *index.Doc) store.Key {
	if d == nil {
		return store.Key{}
	}
	return store.Key{Category: d.Category, Name: d.Name}
}

func compareKey(a, b store.Key) int {
	return cmp.Or(cmp.Compare(a.Category, b.Category), cmp.Compare(a.Name, b.Name))
}

func compareDocs(a, b *index.Doc) int { return compareKey(keyOf(a), keyOf(b)) }

// validityOf works out the validity of snap's entries; nil when none
// carries a validity key. It costs the entries that do (their links are
// resolved as SPEC §7 resolves links, by lookups), not the store.
func validityOf(snap *index.Snapshot) *Validity {
	if !snap.HasExtra() {
		return nil
	}
	n := 0
	snap.EachExtra(func(*index.Doc, string) bool { n++; return true })
	v := &Validity{
		snap:       snap,
		by:         make(map[int]*index.Doc, n),
		replaces:   make(map[int][]*index.Doc, n),
		unresolved: map[int][]string{},
		bad:        map[int]string{},
		docs:       make(map[int]*index.Doc, 2*n),
	}
	updated := make(map[int]int64, n)
	edges := make(map[int][]int, n) // ord → the ords it supersedes
	lk := NewLinks(snap)
	snap.EachExtra(func(d *index.Doc, extra string) bool {
		r, ok := decodeValidity(extra)
		if !ok {
			return true // not ours
		}
		ord := d.Ord()
		v.docs[ord] = d
		if r.Bad != "" {
			v.bad[ord] = r.Bad
		}
		if r.Expires != "" {
			if t, err := store.ParseExpires(r.Expires); err == nil {
				v.expiries = append(v.expiries, expiry{ord: ord, at: t, day: store.IsDateOnly(t)})
			}
		}
		updated[ord] = r.Updated
		for _, raw := range r.Supersedes {
			links := ParseLinks(d.Category, raw)
			if len(links) != 1 {
				v.unresolved[ord] = append(v.unresolved[ord], raw)
				continue
			}
			t, outcome := lk.resolve(d, links[0])
			switch {
			case outcome == linkInside || outcome == linkResolved && t == d:
				// Itself: nothing to supersede.
			case outcome == linkResolved:
				if !slices.Contains(edges[ord], t.Ord()) {
					edges[ord] = append(edges[ord], t.Ord())
					v.docs[t.Ord()] = t
				}
			default:
				if !slices.Contains(v.unresolved[ord], links[0].Raw) {
					v.unresolved[ord] = append(v.unresolved[ord], links[0].Raw)
				}
			}
		}
		return true
	})
	if len(updated) == 0 {
		return nil // extras, but none of validity (links only: linkextra.go)
	}
	slices.SortFunc(v.expiries, func(a, b expiry) int { return cmp.Compare(a.ord, b.ord) })
	for _, x := range v.expiries {
		if x.day {
			v.days = append(v.days, x)
		} else {
			v.inst = append(v.inst, x)
		}
	}
	byAt := func(a, b expiry) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.ord, b.ord)) }
	slices.SortFunc(v.inst, byAt)
	slices.SortFunc(v.days, byAt)
	// Cycles: the strongly connected components of more than one entry;
	// each keeps its most recently updated entry.
	comp, members := components(edges)
	kept := map[int]int{} // component → the ord it keeps
	for c, ms := range members {
		if len(ms) < 2 {
			continue
		}
		best := ms[0]
		for _, o := range ms[1:] {
			if u, bu := updated[o], updated[best]; u > bu || u == bu && compareDocs(v.docs[o], v.docs[best]) < 0 {
				best = o
			}
		}
		kept[c] = best
		cy := Cycle{Kept: keyOf(v.docs[best])}
		for _, o := range ms {
			cy.Entries = append(cy.Entries, keyOf(v.docs[o]))
		}
		slices.SortFunc(cy.Entries, compareKey)
		v.cycles = append(v.cycles, cy)
	}
	slices.SortFunc(v.cycles, func(a, b Cycle) int { return compareKey(a.Kept, b.Kept) })
	v.superseded = make([]uint64, (snap.Len()+63)/64)
	for y, xs := range edges {
		for _, x := range xs {
			if k, ok := kept[comp[x]]; ok && k == x && comp[y] == comp[x] {
				continue // the cycle keeps x: its own members do not hide it
			}
			v.superseded[x/64] |= 1 << (x % 64)
			v.replaces[y] = append(v.replaces[y], v.docs[x])
			// Of several successors the most recently updated names it.
			if b, ok := v.by[x]; !ok || updated[y] > updated[b.Ord()] || updated[y] == updated[b.Ord()] && compareDocs(v.docs[y], b) < 0 {
				v.by[x] = v.docs[y]
			}
		}
	}
	for y := range v.replaces {
		slices.SortFunc(v.replaces[y], compareDocs)
	}
	return v
}

// components returns the strongly connected component of every node of
// the graph (Tarjan's algorithm, without recursion) and each component's
// members.
func components(edges map[int][]int) (comp map[int]int, members [][]int) {
	n := 2 * len(edges)
	index := make(map[int]int, n)
	low := make(map[int]int, n)
	onStack := make(map[int]bool, n)
	comp = make(map[int]int, n)
	var stack []int
	next := 0
	type frame struct{ v, i int }
	nodes := make([]int, 0, len(edges))
	for n := range edges {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes) // a deterministic walk
	for _, root := range nodes {
		if _, seen := index[root]; seen {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if out := edges[f.v]; f.i < len(out) {
				w := out[f.i]
				f.i++
				if _, seen := index[w]; !seen {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				c := len(members)
				var ms []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = c
					ms = append(ms, w)
					if w == v {
						break
					}
				}
				members = append(members, ms)
			}
		}
	}
	return comp, members
}

// ValidityOf works out the validity of entries (all of a store's, read
// by a listing) without an Engine: their names and validity keys are
// indexed, not their content, so it costs little beyond the reading.
func ValidityOf(entries []store.Entry) *Validity {
	in := make([]index.Input, 0, len(entries))
	for _, e := range entries {
		in = append(in, index.Input{Category: e.Category, Name: e.Name, Extra: entryExtra(e.Meta)})
	}
	return validityOf(index.Build(0, nil, in))
}

// Validity returns the validity of the entries of snap (from Snapshot),
// worked out once per snapshot; nil when no entry carries a validity key.
func (e *Engine) Validity(snap *index.Snapshot) *Validity { return e.valid.get(snap, validityOf) }

// validView is what validity changes in one retrieve.
type validView struct {
	v       *Validity
	expired []uint64 // bitset by ord of the entries expired at the request's now
	hide    []uint64 // what is left out of the candidates; nil: nothing
}

// expiredView is what viewOf worked out for one prefix of inst and of
// days and one pair of include flags: most retrieves share it.
type expiredView struct {
	ni, nd                 int
	inclSuper, inclExpired bool
	expired, hide          []uint64
}

// viewOf works out req's view of v: the expired entries at req.Now (else
// the clock), and the entries left out of the candidates. The expired
// entries are a prefix of the instants (those at or before now) and of the
// calendar days (those on or before now's date in its zone, whose
// midnight has come), found by two binary searches; the bitsets of the
// last prefixes asked for are kept.
func (v *Validity) viewOf(req Request) validView {
	vv := validView{v: v}
	if v == nil {
		return vv
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	ni, _ := slices.BinarySearchFunc(v.inst, now, func(x expiry, t time.Time) int {
		if x.at.After(t) {
			return 1
		}
		return -1 // at or before now: expired
	})
	y, m, d := now.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC) // as days are kept
	nd, _ := slices.BinarySearchFunc(v.days, today, func(x expiry, t time.Time) int {
		if x.at.After(t) {
			return 1
		}
		return -1
	})
	if c := v.views.Load(); c != nil && c.ni == ni && c.nd == nd && c.inclSuper == req.IncludeSuperseded && c.inclExpired == req.IncludeExpired {
		vv.expired, vv.hide = c.expired, c.hide
		return vv
	}
	if ni+nd > 0 {
		vv.expired = make([]uint64, len(v.superseded))
		for _, x := range v.inst[:ni] {
			vv.expired[x.ord/64] |= 1 << (x.ord % 64)
		}
		for _, x := range v.days[:nd] {
			vv.expired[x.ord/64] |= 1 << (x.ord % 64)
		}
	}
	switch {
	case !req.IncludeSuperseded && (req.IncludeExpired || vv.expired == nil):
		vv.hide = v.superseded
	case !req.IncludeExpired && req.IncludeSuperseded:
		vv.hide = vv.expired
	case !req.IncludeExpired && !req.IncludeSuperseded:
		vv.hide = make([]uint64, len(v.superseded))
		for i := range vv.hide {
			vv.hide[i] = v.superseded[i] | vv.expired[i]
		}
	}
	v.views.Store(&expiredView{ni: ni, nd: nd, inclSuper: req.IncludeSuperseded, inclExpired: req.IncludeExpired, expired: vv.expired, hide: vv.hide})
	return vv
}

// mark sets the validity evidence of it, the item of d.
func (vv *validView) mark(it *Item, d *index.Doc) {
	if vv.v == nil || d == nil {
		return
	}
	o := d.Ord()
	if by, ok := vv.v.by[o]; ok {
		it.SupersededBy = keyOf(by).String()
	}
	if xs := vv.v.replaces[o]; len(xs) > 0 {
		it.Supersedes = make([]string, len(xs))
		for i, x := range xs {
			it.Supersedes[i] = keyOf(x).String()
		}
	}
	it.Expired = vv.expired != nil && vv.expired[o/64]&(1<<(o%64)) != 0
}

// markAll marks every item of res, looking each up in snap.
func (vv *validView) markAll(res *Result, snap *index.Snapshot) {
	if vv.v == nil {
		return
	}
	for _, items := range [][]Item{res.Items, res.Dropped} {
		for i := range items {
			vv.mark(&items[i], snap.Lookup(items[i].Category, items[i].Name))
		}
	}
}

// unresolvedOf returns the supersedes links of d that name no entry.
func (vv *validView) unresolvedOf(d *index.Doc) []string {
	if vv.v == nil || d == nil {
		return nil
	}
	return vv.v.unresolved[d.Ord()]
}
