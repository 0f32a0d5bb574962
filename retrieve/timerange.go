package retrieve

import (
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/timeexpr"
)

// TimeRange is the range of time a retrieve was restricted to, as it was
// understood: From and To bound the half-open interval [From, To) of
// effective dates (a zero one is open, and left out of the JSON), in the
// request's zone; Text is the time phrase of the query it was read from
// ("last week", "上周"), empty when After or Before gave it.
type TimeRange struct {
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
	Text string    `json:"text,omitempty"`
}

// timeView is what a time range changes in a retrieve: the words left to
// score, the documents admitted, and how item dates are written.
type timeView struct {
	query string     // the query without its time phrase
	rng   *TimeRange // nil: no range
	loc   *time.Location
	in    *index.Set // the documents in the range; nil: no range
	// cand are the candidates: in, less the entries validity leaves out
	// (superseded, expired; index.Snapshot.Except); nil: every entry.
	cand *index.Set
}

// timeOf works out req's range on snap: After/Before when either is set
// (the query is then all words), else the query's time phrase unless
// NoTime. Without either it returns the view of a retrieve without time.
func timeOf(snap *index.Snapshot, req Request) timeView {
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	tv := timeView{query: req.Query, loc: now.Location()}
	var r TimeRange
	switch {
	case !req.After.IsZero() || !req.Before.IsZero():
		r = TimeRange{From: req.After, To: req.Before}
	case req.NoTime:
		return tv
	default:
		m, ok := timeexpr.Find(req.Query, now)
		if !ok {
			return tv
		}
		tv.query = timeexpr.Without(req.Query, m)
		r = TimeRange{From: m.Range.From, To: m.Range.To, Text: m.Text}
	}
	if !r.From.IsZero() {
		r.From = r.From.In(tv.loc)
	}
	if !r.To.IsZero() {
		r.To = r.To.In(tv.loc)
	}
	tv.rng = &r
	tv.in = snap.In(index.TimeRange{From: r.From, To: r.To, Loc: tv.loc})
	return tv
}

// dateOf is the effective date of d as an item carries it: "2024-05-03"
// for a calendar day, else the RFC 3339 instant in the request's zone.
// An entry without an event date (its created time stands in) carries it
// only when the retrieve has a range, so that answers without time are
// what they were before dates existed.
func (tv *timeView) dateOf(snap *index.Snapshot, d *index.Doc) string {
	t, day, written := snap.DocDate(d)
	switch {
	case t.IsZero() || written && tv.rng == nil:
		return ""
	case day:
		return t.Format(time.DateOnly)
	}
	loc := tv.loc
	if loc == nil {
		loc = time.Local
	}
	return t.In(loc).Format(time.RFC3339Nano)
}

// outside reports whether a linked document lies outside the range.
func (tv *timeView) outside(d *index.Doc) bool { return tv.in != nil && !tv.in.Has(d) }

// timeline is the answer of a retrieve with a range and no words: the
// entries in the range, newest first (effective date, then identity), at
// most limit, as hits with no score, written into room's array when it
// has the room; and their documents, for their links (nil when links are
// off).
func timeline(room []Item, snap *index.Snapshot, tv *timeView, limit int, noLinks bool) ([]Item, []*index.Doc) {
	docs := snap.Newest(tv.cand, tv.loc, limit)
	items := roomFor(room, len(docs))
	for i, d := range docs {
		it := &items[i]
		setHit(it, d, 0, nil, nil, []string{})
		it.Date = tv.dateOf(snap, d)
	}
	if noLinks {
		return items, nil
	}
	return items, docs
}
