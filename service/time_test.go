package service_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// A time range combines with the category and tag filters: the hits are
// the best inside both, a timeline included; the range is reported; a
// timeline's hits survive min_score (they are not embedding guesses).
func TestRetrieveTimeWithFilters(t *testing.T) {
	ctx := t.Context()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	in := time.Date(2025, 5, 28, 0, 0, 0, 0, time.UTC)
	out := time.Date(2024, 5, 28, 0, 0, 0, 0, time.UTC)
	for _, e := range []store.Entry{
		{Category: "diary", Name: "in", Content: "beach", Meta: store.Meta{Date: in, Tags: []string{"sea"}}},
		{Category: "diary", Name: "in, untagged", Content: "beach beach", Meta: store.Meta{Date: in}},
		{Category: "diary", Name: "out", Content: "beach beach beach", Meta: store.Meta{Date: out, Tags: []string{"sea"}}},
		{Category: "work", Name: "in", Content: "beach beach beach", Meta: store.Meta{Date: in, Tags: []string{"sea"}}},
	} {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	m := service.New(st, service.Options{})
	now := "2025-06-04T09:00:00+08:00"
	for _, q := range []string{"beach last week", "last week"} {
		res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: q, Now: now, Categories: []string{"diary"}, Tags: []string{"sea"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) != 1 || res.Items[0].Name != "in" || res.Items[0].Category != "diary" || res.TimeRange == nil || res.TimeRange.Text != "last week" {
			t.Errorf("%q with category and tag: %+v, time_range %+v", q, res.Items, res.TimeRange)
		}
	}
	res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "", After: "2025-05-01", Before: "2025-06-01", Categories: []string{"diary"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 2 || res.Items[0].Name != "in" || res.Items[1].Name != "in, untagged" {
		t.Errorf("timeline of diary in May 2025: %+v", res.Items)
	}
	if _, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: " "}); err == nil {
		t.Error("an empty query without a range was accepted")
	}
}
