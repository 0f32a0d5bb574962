package index

import (
	"math"
	"slices"
	"sync"
	"time"
)

// Kinds of a document's date (dateRec.kind).
const (
	dateNone    uint8 = iota
	dateInstant       // an instant: at is its Unix nanoseconds
	dateDay           // a calendar day: at is its midnight UTC
	dateWritten       // an instant that is when the entry was written
)

// dateRec is a document's date as the index keeps it: a base segment in
// its dense dateAt and dateKind tables, an overlay document in its ovDoc.
type dateRec struct {
	at   int64
	kind uint8
}

// dateOf is the record of Input.Date, Day and Written. Dates beyond what
// Unix nanoseconds hold (before 1678 or after 2262) are clamped to its
// ends.
func dateOf(in Input) dateRec {
	t := in.Date
	switch {
	case t.IsZero():
		return dateRec{}
	case in.Day:
		y, m, dd := t.Date()
		return dateRec{unixNanos(time.Date(y, m, dd, 0, 0, 0, 0, time.UTC)), dateDay}
	case in.Written:
		return dateRec{unixNanos(t), dateWritten}
	}
	return dateRec{unixNanos(t), dateInstant}
}

// setDates installs the dates of the segment's documents, by ord.
func (seg *segment) setDates(ds []dateRec) {
	seg.dateAt = make([]int64, len(ds))
	seg.dateKind = make([]uint8, len(ds))
	for i, d := range ds {
		seg.dateAt[i], seg.dateKind[i] = d.at, d.kind
	}
}

func unixNanos(t time.Time) int64 {
	switch {
	case t.Before(minTime):
		return minNanos
	case t.After(maxTime):
		return maxNanos
	}
	return t.UnixNano()
}

const (
	minNanos = -1 << 63
	maxNanos = 1<<63 - 1
)

var (
	minTime = time.Unix(0, minNanos)
	maxTime = time.Unix(0, maxNanos)
)

// dateRec returns the date of d, a document of s (none for any other).
func (s *Snapshot) dateRec(d *Doc) dateRec {
	if s.isBaseDoc(d) {
		return dateRec{s.base.dateAt[d.ord], s.base.dateKind[d.ord]}
	}
	if o := s.ovDocOf(d); o != nil {
		return o.date
	}
	return dateRec{}
}

// DocDate returns the date d, a document of s, was indexed with
// (Input.Date, in UTC), whether it is a calendar day (Input.Day) and
// whether it is when the entry was written (Input.Written); zero when it
// has none.
func (s *Snapshot) DocDate(d *Doc) (t time.Time, day, written bool) {
	r := s.dateRec(d)
	if r.kind == dateNone {
		return time.Time{}, false, false
	}
	return time.Unix(0, r.at).UTC(), r.kind == dateDay, r.kind == dateWritten
}

// DateIn is d's date as an instant read in loc (nil: time.Local): an
// instant as it is, a calendar day as its midnight in loc. Zero when d
// has no date.
func (s *Snapshot) DateIn(d *Doc, loc *time.Location) time.Time { return s.dateRec(d).in(loc) }

func (r dateRec) in(loc *time.Location) time.Time {
	if loc == nil {
		loc = time.Local
	}
	switch r.kind {
	case dateInstant, dateWritten:
		return time.Unix(0, r.at).In(loc)
	case dateDay:
		y, m, dd := time.Unix(0, r.at).UTC().Date()
		return time.Date(y, m, dd, 0, 0, 0, 0, loc)
	}
	return time.Time{}
}

// Input returns what d, a document of s, was indexed from, its date
// included.
func (s *Snapshot) Input(d *Doc) Input {
	t, day, written := s.DocDate(d)
	return Input{Category: d.Category, Name: d.Name, Content: d.Content, Date: t, Day: day, Written: written, Extra: s.Extra(d), Aliases: aliasList(s.aliasesOf(d))}
}

// TimeRange is the half-open interval [From, To) of time, read in Loc
// (nil: time.Local); a zero From or To leaves that side open. A document
// is in it when its date is: an instant compares as it is, a calendar
// day as its midnight in Loc, so "3 May" in Shanghai and in New York both
// find an entry dated 2024-05-03. A document without a date is in no
// range that has a bound.
type TimeRange struct {
	From, To time.Time
	Loc      *time.Location
}

// IsZero reports whether r is open on both sides (every document).
func (r TimeRange) IsZero() bool { return r.From.IsZero() && r.To.IsZero() }

// bounds returns r as Unix nanoseconds for instants and for days
// ([lo, hi) each), computed once per query.
func (r TimeRange) bounds() (ilo, ihi, dlo, dhi int64) {
	loc := r.Loc
	if loc == nil {
		loc = time.Local
	}
	ilo, ihi, dlo, dhi = minNanos, maxNanos, minNanos, maxNanos
	if !r.From.IsZero() {
		ilo = unixNanos(r.From)
		dlo = wallNanos(r.From.In(loc))
	}
	if !r.To.IsZero() {
		ihi = unixNanos(r.To)
		dhi = wallNanos(r.To.In(loc))
	}
	return
}

// wallNanos is t's wall clock read as if it were UTC: the scale on which
// a calendar day's midnight UTC compares with t in t's zone.
func wallNanos(t time.Time) int64 {
	y, m, d := t.Date()
	h, mi, s := t.Clock()
	return unixNanos(time.Date(y, m, d, h, mi, s, t.Nanosecond(), time.UTC))
}

// within reports whether r is in the range with these bounds.
func (r dateRec) within(ilo, ihi, dlo, dhi int64) bool {
	switch r.kind {
	case dateInstant, dateWritten:
		return ilo <= r.at && r.at < ihi
	case dateDay:
		return dlo <= r.at && r.at < dhi
	}
	return ilo == minNanos && ihi == maxNanos // no date: only in an open range
}

// Set is the set of the documents of one snapshot whose date is in a
// TimeRange, as Snapshot.In builds it for TopQuery.Within. It costs no
// work per document to build: the base's members are two runs of its
// documents sorted by date (instants, calendar days), so a base
// document is in the set when its place in that order (byDate.rank, one
// 4-byte read) falls in one of the two runs; the overlay's members are
// listed. It is immutable, safe for concurrent use, and meaningful only
// with its snapshot.
type Set struct {
	s                  *Snapshot
	ilo, ihi, dlo, dhi int64
	open               bool     // the range is open on both sides: every document
	inst, day          []uint32 // the base documents in the range (dead ones too)
	ov                 []uint32 // the overlay documents in the range, by ord
	all                bool     // every live document of s is in it
	hide               []uint64 // documents left out by ord (Except); nil: none
	// The base's members by rank (byDate.rank): r is in the set when
	// r-ia < iw (an instant) or r-da < dw (a day), in uint32 arithmetic.
	rank           []uint32
	ia, iw, da, dw uint32
}

// Len is the number of documents in the set (base documents replaced or
// deleted since the base was built count too: an upper bound).
func (w *Set) Len() int {
	if w.open {
		return w.s.Count()
	}
	return len(w.inst) + len(w.day) + len(w.ov)
}

// Has reports whether d, a document of the set's snapshot, is in it.
func (w *Set) Has(d *Doc) bool {
	if d == nil || w.hidden(uint32(d.ord)) {
		return false
	}
	return w.open || w.s.dateRec(d).within(w.ilo, w.ihi, w.dlo, w.dhi)
}

// has is Has by ord.
func (w *Set) has(ord uint32) bool {
	if w.hide != nil && w.hidden(ord) {
		return false
	}
	if w.open {
		return true
	}
	if ord < uint32(len(w.rank)) {
		return w.hasBase(ord)
	} else if o := w.s.overlay[ord-uint32(len(w.rank))]; o != nil {
		return o.date.within(w.ilo, w.ihi, w.dlo, w.dhi)
	}
	return false
}

// hasBase is has for a base document. An open set reaches it only when
// Except left documents out (an open set without hidden ones is no
// filter at all: TopQuery.Within's all).
func (w *Set) hasBase(ord uint32) bool {
	if w.hide != nil && w.hidden(ord) {
		return false
	}
	if w.open {
		return true
	}
	r := w.rank[ord]
	return r-w.ia < w.iw || r-w.da < w.dw
}

// each calls fn with every live document of the set, in no order.
func (w *Set) each(fn func(ord uint32)) {
	if w.hide != nil {
		inner := fn
		fn = func(ord uint32) {
			if !w.hidden(ord) {
				inner(ord)
			}
		}
	}
	if w.open {
		w.s.Docs(func(d *Doc) bool { fn(uint32(d.ord)); return true })
		return
	}
	for _, list := range [2][]uint32{w.inst, w.day} {
		for _, o := range list {
			if !w.s.isDead(o) {
				fn(o)
			}
		}
	}
	for _, o := range w.ov {
		fn(o)
	}
}

// byDate is a base segment's documents sorted by date, built on first
// use and shared by every snapshot of the segment: instants and days in
// two lists (a day's place among instants depends on the query's zone),
// each ascending by date, then ord; and rank, each document's place in
// them (an instant's in the first, len(instant) plus a day's in the
// second; none: MaxUint32), so that the members of a range, two runs of
// the lists, are the documents whose rank falls in two intervals; and
// every keyEvery-th date of each list, so that finding a run's ends
// reads a small array and then one stretch of a list. 8 bytes a
// document.
type byDate struct {
	once              sync.Once
	instant, day      []uint32
	rank              []uint32
	instKeys, dayKeys []int64
}

// keyEvery is the stride of byDate's keys.
const keyEvery = 64

// search returns the first position in list (a byDate list, with keys
// its keys) whose document's date is at least t.
func search(list []uint32, keys []int64, at []int64, t int64) int {
	j, _ := slices.BinarySearch(keys, t) // keys[j-1] < t <= keys[j]
	if j == 0 {
		return 0
	}
	lo, hi := (j-1)*keyEvery+1, min(j*keyEvery, len(list))
	i, _ := slices.BinarySearchFunc(list[lo:hi], t, func(o uint32, t int64) int { return cmpInt64(at[o], t) })
	return lo + i
}

// keysOf returns the date of every keyEvery-th document of list.
func keysOf(list []uint32, at []int64) []int64 {
	keys := make([]int64, 0, (len(list)+keyEvery-1)/keyEvery)
	for i := 0; i < len(list); i += keyEvery {
		keys = append(keys, at[list[i]])
	}
	return keys
}

func (seg *segment) sortedByDate() *byDate {
	bd := &seg.dated
	bd.once.Do(func() {
		ni, nd := 0, 0
		for _, k := range seg.dateKind {
			switch k {
			case dateInstant, dateWritten:
				ni++
			case dateDay:
				nd++
			}
		}
		bd.instant, bd.day = make([]uint32, 0, ni), make([]uint32, 0, nd)
		for i := range seg.docs {
			switch seg.dateKind[i] {
			case dateInstant, dateWritten:
				bd.instant = append(bd.instant, uint32(i))
			case dateDay:
				bd.day = append(bd.day, uint32(i))
			}
		}
		byDateOrd := func(a, b uint32) int {
			da, db := seg.dateAt[a], seg.dateAt[b]
			switch {
			case da < db:
				return -1
			case da > db:
				return 1
			}
			return int(a) - int(b)
		}
		slices.SortFunc(bd.instant, byDateOrd)
		slices.SortFunc(bd.day, byDateOrd)
		bd.instKeys, bd.dayKeys = keysOf(bd.instant, seg.dateAt), keysOf(bd.day, seg.dateAt)
		bd.rank = make([]uint32, len(seg.docs))
		for i := range bd.rank {
			bd.rank[i] = math.MaxUint32
		}
		for r, o := range bd.instant {
			bd.rank[o] = uint32(r)
		}
		for r, o := range bd.day {
			bd.rank[o] = uint32(len(bd.instant) + r)
		}
	})
	return bd
}

// In returns the live documents of s whose date is in r. The base's
// documents in it are found by binary search in lists sorted by date
// (built once per base), the overlay's by a look at each, so a set costs
// about nothing to make whatever the range's width.
func (s *Snapshot) In(r TimeRange) *Set {
	w := &Set{s: s}
	w.ilo, w.ihi, w.dlo, w.dhi = r.bounds()
	if r.IsZero() {
		w.open, w.all = true, true
		return w
	}
	bd := s.base.sortedByDate()
	at := s.base.dateAt
	span := func(list []uint32, keys []int64, lo, hi int64) (from, to int) {
		from, to = search(list, keys, at, lo), search(list, keys, at, hi)
		return from, max(from, to)
	}
	from, to := span(bd.instant, bd.instKeys, w.ilo, w.ihi)
	w.inst = bd.instant[from:to]
	w.ia, w.iw = uint32(from), uint32(to-from)
	from, to = span(bd.day, bd.dayKeys, w.dlo, w.dhi)
	w.day = bd.day[from:to]
	w.da, w.dw = uint32(len(bd.instant)+from), uint32(to-from)
	w.rank = bd.rank
	live := 0
	for i, d := range s.overlay {
		if d == nil {
			continue
		}
		live++
		if d.date.within(w.ilo, w.ihi, w.dlo, w.dhi) {
			w.ov = append(w.ov, uint32(len(s.base.docs)+i))
		}
	}
	// Every document in the range: the set filters nothing, and the
	// scorers may run as without it.
	w.all = len(w.inst)+len(w.day) == len(s.base.docs) && len(w.ov) == live
	return w
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Newest returns at most limit documents of w (all when limit <= 0),
// newest first by their date read in loc (DateIn), equal dates in
// identity order (category, then name): a timeline.
func (s *Snapshot) Newest(w *Set, loc *time.Location, limit int) []*Doc {
	type dated struct {
		d *Doc
		t int64
	}
	at := func(d *Doc) int64 {
		r := s.dateRec(d)
		if r.kind == dateNone {
			return minNanos
		}
		return unixNanos(r.in(loc))
	}
	newer := func(a, b dated) int {
		if a.t != b.t {
			return cmpInt64(b.t, a.t)
		}
		return compareIdentity(*a.d, *b.d)
	}
	all := make([]dated, 0, w.Len())
	w.each(func(ord uint32) {
		if d := s.Doc(int(ord)); d != nil {
			all = append(all, dated{d, at(d)})
		}
	})
	if limit > 0 && len(all) > 4*limit {
		// Keep the newest limit by a partial selection before sorting.
		all = selectNewest(all, limit, func(a, b dated) bool { return newer(a, b) < 0 })
	}
	slices.SortFunc(all, newer)
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	out := make([]*Doc, len(all))
	for i, x := range all {
		out[i] = x.d
	}
	return out
}

// selectNewest returns the k first elements of a under before, in no
// order (quickselect).
func selectNewest[T any](a []T, k int, before func(x, y T) bool) []T {
	lo, hi := 0, len(a)-1
	for lo < hi {
		p := a[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for before(a[i], p) {
				i++
			}
			for before(p, a[j]) {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return a[:k]
		}
	}
	return a[:k]
}
