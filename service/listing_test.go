package service_test

import (
	"context"
	"reflect"
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
		{"expired at its now", service.Listing{Expired: true, Now: day("2019-12-31")}, nil, true},
	} {
		list, err := c.l.List(ctx, st, noSkip)
		if err != nil {
			t.Fatal(err)
		}
		if got := keys(list); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if len(list) > 0 && c.read != (list[0].Content != "") {
			t.Errorf("%s: content %q, read %v", c.name, list[0].Content, c.read)
		}
		v, now, err := c.l.Validity(ctx, st, list)
		if err != nil {
			t.Fatal(err)
		}
		if by, ok := v.SupersededBy("places", "old"); !ok || by.String() != "notes:new" {
			t.Errorf("%s: places:old superseded by %v %v, want notes:new (seen outside the listing)", c.name, by, ok)
		}
		if !now.Equal(c.l.Now) && !c.l.Now.IsZero() || v.Expired("places", "gone", now) != c.l.Now.IsZero() {
			t.Errorf("%s: places:gone expired %v at %v", c.name, v.Expired("places", "gone", now), now)
		}
	}
}

// Listing.Page is a page of Memory.List and, with Long, the validity the
// whole listing works out (Listing.Validity), from the index, whether or
// not the Memory has started: the page of places sees notes:new
// supersede places:old.
func TestListingPage(t *testing.T) {
	ctx := context.Background()
	st, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, e := range []store.Entry{
		{Category: "places", Name: "old", Content: "Paris flat"},
		{Category: "notes", Name: "new", Content: "moved", Meta: store.Meta{Extra: map[string]any{store.MetaSupersedes: []any{"[[places:old]]", "[[places:nowhere]]"}}}},
		{Category: "places", Name: "gone", Content: "a shop", Meta: store.Meta{Extra: map[string]any{store.MetaExpires: "2020-01-01"}}},
	} {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	whole, _, err := service.Listing{Category: "places"}.Validity(ctx, st, nil) // partial: over the whole store
	if err != nil {
		t.Fatal(err)
	}
	for _, started := range []bool{false, true} {
		m := service.New(st, service.Options{})
		if started {
			if err := m.Start(ctx); err != nil {
				t.Fatal(err)
			}
		}
		l := service.Listing{Category: "places", Long: true}
		p, v, err := l.Page(ctx, m, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Entries) != 1 || p.Entries[0].Name != "gone" || p.NextCursor == "" || p.Total != 2 {
			t.Errorf("started %v: page %+v", started, p)
		}
		if by, ok := v.SupersededBy("places", "old"); !ok || by.String() != "notes:new" {
			t.Errorf("started %v: places:old superseded by %v %v, want notes:new", started, by, ok)
		}
		if !reflect.DeepEqual(v.Problems(), whole.Problems()) || len(v.Problems()) != 1 {
			t.Errorf("started %v: problems %+v, the whole listing's %+v", started, v.Problems(), whole.Problems())
		}
		if _, v, _ := (service.Listing{Category: "places"}).Page(ctx, m, 1, ""); v != nil {
			t.Errorf("started %v: a page without Long worked validity out", started)
		}
		m.Close()
	}
}
