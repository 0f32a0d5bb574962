package retrieve

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

var cst = time.FixedZone("CST", 8*3600)

func dated(c, n, content string, date time.Time) store.Entry {
	return store.Entry{Category: c, Name: n, Content: content, Meta: store.Meta{Date: date}}
}

func names(items []Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Name)
	}
	return out
}

// After is inclusive, Before exclusive, exactly at the instant; a date
// without a time of day is that day in the request's zone; an entry
// without a date is placed at its created time, and one with neither is
// in no bounded range.
func TestRangeEdges(t *testing.T) {
	from := time.Date(2024, 5, 3, 0, 0, 0, 0, cst)
	to := from.AddDate(0, 0, 1)
	created := store.Entry{Category: "d", Name: "created in range", Content: "sea", Meta: store.Meta{Created: from.Add(time.Hour)}}
	createdOut := store.Entry{Category: "d", Name: "created before", Content: "sea", Meta: store.Meta{Created: from.Add(-time.Hour), Date: time.Time{}}}
	st := newMemStore(
		dated("d", "at from", "sea", from),
		dated("d", "just before from", "sea", from.Add(-time.Nanosecond)),
		dated("d", "just before to", "sea", to.Add(-time.Nanosecond)),
		dated("d", "at to", "sea", to),
		dated("d", "day", "sea", time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)),
		dated("d", "next day", "sea", time.Date(2024, 5, 4, 0, 0, 0, 0, time.UTC)),
		// A date wins over the created time.
		store.Entry{Category: "d", Name: "dated out, created in", Content: "sea", Meta: store.Meta{Date: from.AddDate(-1, 0, 0), Created: from.Add(time.Hour)}},
		created, createdOut,
		ent("d", "no date at all", "sea"),
	)
	e := New(st, Options{})
	res, err := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "sea", After: from, Before: to, Now: from, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	got := names(res.Items)
	slices.Sort(got)
	want := []string{"at from", "created in range", "day", "just before to"}
	if !slices.Equal(got, want) {
		t.Errorf("hits in [3 May, 4 May) = %q, want %q", got, want)
	}
	if tr := res.TimeRange; tr == nil || !tr.From.Equal(from) || !tr.To.Equal(to) || tr.Text != "" {
		t.Errorf("time_range = %+v, want the explicit range without text", tr)
	}
	for _, it := range res.Items {
		if it.Date == "" {
			t.Errorf("%s carries no date", it.Name)
		}
	}
	// The same calendar range read in New York: the day entry is still in
	// it, the instants are 12 hours off.
	ny := time.FixedZone("EDT", -4*3600)
	nyFrom := time.Date(2024, 5, 3, 0, 0, 0, 0, ny)
	res, err = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "sea", After: nyFrom, Before: nyFrom.AddDate(0, 0, 1), Now: nyFrom, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	got = names(res.Items)
	slices.Sort(got)
	if want := []string{"at to", "day", "just before to"}; !slices.Equal(got, want) {
		t.Errorf("hits on 3 May in New York = %q, want %q", got, want)
	}
	// Only After: open to the future.
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "sea", After: to, Now: from, Limit: 100})
	got = names(res.Items)
	slices.Sort(got)
	if want := []string{"at to", "next day"}; !slices.Equal(got, want) {
		t.Errorf("hits from 4 May on = %q, want %q", got, want)
	}
}

// The range filters before ranking: the 150 best entries for the words lie
// outside it, and the one inside still comes back, first, at any limit,
// with BM25 alone and fused with embeddings.
func TestRangeFiltersBeforeRanking(t *testing.T) {
	var es []store.Entry
	for i := range 150 {
		es = append(es, dated("old", fmt.Sprintf("n%03d", i), "seaside seaside seaside seaside", time.Date(2023, 1, 1+i%28, 9, 0, 0, 0, cst)))
	}
	es = append(es, dated("new", "the one", "a long note about the seaside among many other words of the day", time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)))
	st := newMemStore(es...)
	now := time.Date(2025, 6, 1, 9, 0, 0, 0, cst)
	h, c := synced(t, st)
	for _, eng := range []struct {
		name string
		e    *Engine
	}{{"bm25", New(st, Options{})}, {"fused", New(st, Options{Embedder: h, Vectors: c})}} {
		for _, limit := range []int{1, 10, 100} {
			res, err := eng.e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "seaside in May 2024", Now: now, Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(res.Items); !slices.Equal(got, []string{"the one"}) {
				t.Errorf("%s limit %d: hits %q, want only the entry in May 2024", eng.name, limit, got)
			}
			if res.TimeRange == nil || res.TimeRange.Text != "in May 2024" {
				t.Errorf("%s: time_range %+v, want text \"in May 2024\"", eng.name, res.TimeRange)
			}
			if eng.name == "fused" && !res.EmbeddingUsed {
				t.Errorf("fused: embedding not used")
			}
		}
		// Without the phrase the old entries win, as before.
		res, _ := eng.e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "seaside", Now: now, Limit: 10})
		if len(res.Items) != 10 || res.Items[0].Category != "old" || res.TimeRange != nil {
			t.Errorf("%s without a range: %q, time_range %+v", eng.name, names(res.Items), res.TimeRange)
		}
	}
}

// The phrase is taken out of the words: its words are not scored (an
// entry holding only "may" is not a hit), matched_terms lack them; NoTime
// keeps them as words; an explicit range overrides the phrase.
func TestTimePhraseInQuery(t *testing.T) {
	may := time.Date(2024, 5, 10, 12, 0, 0, 0, cst)
	st := newMemStore(
		dated("d", "beach", "beach day", may),
		dated("d", "may", "may", may),
		dated("d", "june beach", "beach again", may.AddDate(0, 1, 0)),
	)
	e := New(st, Options{})
	now := time.Date(2025, 1, 15, 9, 0, 0, 0, cst)
	res, err := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "beach in May 2024", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res.Items); !slices.Equal(got, []string{"beach"}) {
		t.Errorf("hits %q, want beach", got)
	}
	tr := res.TimeRange
	if tr == nil || tr.Text != "in May 2024" || !tr.From.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, cst)) || !tr.To.Equal(time.Date(2024, 6, 1, 0, 0, 0, 0, cst)) {
		t.Errorf("time_range %+v, want May 2024 in CST", tr)
	}
	if len(res.Items) > 0 && !slices.Equal(res.Items[0].MatchedTerms, []string{"beach"}) {
		t.Errorf("matched %q, want only beach", res.Items[0].MatchedTerms)
	}
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "beach in May 2024", Now: now, NoTime: true})
	if res.TimeRange != nil || !slices.Contains(names(res.Items), "may") {
		t.Errorf("NoTime: %q, time_range %+v; want every word scored, no range", names(res.Items), res.TimeRange)
	}
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "beach", After: time.Date(2024, 6, 1, 0, 0, 0, 0, cst), Now: now})
	if got := names(res.Items); !slices.Equal(got, []string{"june beach"}) || res.TimeRange.Text != "" {
		t.Errorf("explicit range: %q %+v", got, res.TimeRange)
	}
	// A query without a time phrase: no range, the answer of before.
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "beach", Now: now})
	if res.TimeRange != nil || len(res.Items) != 2 {
		t.Errorf("no phrase: %q %+v", names(res.Items), res.TimeRange)
	}
}

// A query that is only a time phrase lists the range newest first
// (effective date, then identity), within the limit and the budget, with
// dates; links leaving the range are marked.
func TestTimeline(t *testing.T) {
	now := time.Date(2025, 6, 4, 9, 0, 0, 0, cst) // a Wednesday
	st := newMemStore(
		dated("d", "mon", "Monday.", time.Date(2025, 5, 26, 8, 0, 0, 0, cst)),
		dated("d", "fri b", "Friday, second by name. [[d:old]]", time.Date(2025, 5, 30, 0, 0, 0, 0, time.UTC)),
		dated("d", "fri a", "Friday, first by name.", time.Date(2025, 5, 30, 0, 0, 0, 0, time.UTC)),
		dated("d", "sun late", "Sunday night.", time.Date(2025, 6, 1, 23, 59, 0, 0, cst)),
		dated("d", "this week", "Not last week.", time.Date(2025, 6, 2, 0, 0, 0, 0, cst)),
		dated("d", "old", "Long ago.", time.Date(2020, 1, 1, 0, 0, 0, 0, cst)),
	)
	e := New(st, Options{})
	for _, q := range []string{"last week", "上周", "last week?"} {
		res, err := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: q, Now: now, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"hit d:sun late", "hit d:fri a", "hit d:fri b", "link d:old via d:fri b", "hit d:mon"}
		if got := keys(res.Items); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", q, got, want)
		}
		for _, it := range res.Items {
			if it.Date == "" || it.OutsideRange != (it.Name == "old") {
				t.Errorf("%q: %s date %q outside %v", q, it.Name, it.Date, it.OutsideRange)
			}
		}
		if res.Items[1].Date != "2025-05-30" || res.Items[0].Date != "2025-06-01T23:59:00+08:00" {
			t.Errorf("dates %q %q", res.Items[0].Date, res.Items[1].Date)
		}
	}
	res, _ := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "last week", Now: now, Limit: 2, NoLinks: true})
	if got := names(res.Items); !slices.Equal(got, []string{"sun late", "fri a"}) {
		t.Errorf("limit 2: %q", got)
	}
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "last week", Now: now, Budget: 5, NoLinks: true, Explain: true})
	if len(res.Items) != 1 || len(res.Dropped) != 3 {
		t.Errorf("budget 5: %q, dropped %q", names(res.Items), names(res.Dropped))
	}
	// An empty query with a range is a timeline; without one, nothing.
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, After: time.Date(2025, 6, 2, 0, 0, 0, 0, cst), Now: now})
	if got := names(res.Items); !slices.Equal(got, []string{"this week"}) {
		t.Errorf("empty query after 2 June: %q", got)
	}
	res, _ = e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "", Now: now})
	if len(res.Items) != 0 || res.TimeRange != nil {
		t.Errorf("empty query without a range: %q", names(res.Items))
	}
}
