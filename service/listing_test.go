package service_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
	"github.com/recallhq/recall/timeexpr"
)

// A Listing picks ListAll or ListDated, filters the expired entries, and
// works validity out over the whole store when it lists only part of it:
// notes:new (outside category places) supersedes places:old.
func TestListing(t *testing.T) {
	ctx := context.Background()
	st, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, e := range []store.Entry{
		{Category: "places", Name: "old", Content: "Paris flat", Meta: store.Meta{Date: day("2024-01-10")}},
		{Category: "notes", Name: "new", Content: "moved", Meta: store.Meta{Date: day("2024-03-10"), Extra: map[string]any{store.MetaSupersedes: []any{"[[places:old]]"}}}},
		{Category: "places", Name: "gone", Content: "a shop", Meta: store.Meta{Date: day("2024-02-10"), Extra: map[string]any{store.MetaExpires: "2020-01-01"}}},
	} {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	keys := func(es []store.Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Key().String())
		}
		return out
	}
	noSkip := func(err error) { t.Errorf("skipped %v", err) }
	for _, c := range []struct {
		name string
		l    service.Listing
		want []string
		read bool
	}{
		{"all, names only", service.Listing{}, []string{"notes:new", "places:gone", "places:old"}, false},
		{"one category, read", service.Listing{Category: "places", Read: true}, []string{"places:gone", "places:old"}, true},
		{"range", service.Listing{Range: timeexpr.Range{From: day("2024-02-01"), To: day("2024-04-01")}, Zone: time.UTC}, []string{"notes:new", "places:gone"}, true},
		{"expired", service.Listing{Expired: true}, []string{"places:gone"}, true},
	} {
		list, err := c.l.List(ctx, st, noSkip)
		if err != nil {
			t.Fatal(err)
		}
		if got := keys(list); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if c.read != (list[0].Content != "") {
			t.Errorf("%s: content %q, read %v", c.name, list[0].Content, c.read)
		}
		v, now, err := c.l.Validity(ctx, st, list)
		if err != nil {
			t.Fatal(err)
		}
		if by, ok := v.SupersededBy("places", "old"); !ok || by.String() != "notes:new" {
			t.Errorf("%s: places:old superseded by %v %v, want notes:new (seen outside the listing)", c.name, by, ok)
		}
		if !v.Expired("places", "gone", now) {
			t.Errorf("%s: places:gone not expired at %v", c.name, now)
		}
	}
}
