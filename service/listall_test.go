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

func TestListAll(t *testing.T) {
	ctx := context.Background()
	st, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, k := range []store.Key{{Category: "b", Name: "z"}, {Category: "a", Name: "y"}, {Category: "b", Name: "a"}, {Category: "b/c", Name: "x"}} {
		if err := st.Put(ctx, store.Entry{Category: k.Category, Name: k.Name, Content: "text of " + k.Name}); err != nil {
			t.Fatal(err)
		}
	}
	keys := func(es []store.Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Key().String())
		}
		return out
	}
	for _, read := range []bool{false, true} {
		all, err := service.ListAll(ctx, st, "", read, func(err error) { t.Errorf("skipped %v", err) })
		if err != nil {
			t.Fatal(err)
		}
		if got, want := keys(all), []string{"a:y", "b:a", "b:z", "b/c:x"}; !slices.Equal(got, want) {
			t.Errorf("read=%v: %v, want %v", read, got, want)
		}
		if read != (all[0].Content != "") {
			t.Errorf("read=%v: content %q", read, all[0].Content)
		}
		one, err := service.ListAll(ctx, st, "b", read, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := keys(one), []string{"b:a", "b:z"}; !slices.Equal(got, want) {
			t.Errorf("read=%v, category b: %v, want %v (exact category only)", read, got, want)
		}
	}
	e := store.Entry{Category: "a", Name: "y", Content: "hello", Meta: store.Meta{Tags: []string{"t"}}}
	if it := service.ListItemOf(e); it.Category != "a" || it.Name != "y" || it.TokensEst != service.TokensEst(e) || it.Meta[service.MetaTags] == nil {
		t.Errorf("ListItemOf = %+v", it)
	}
}

// ListDated keeps the entries whose effective date is in the range (the
// event date, else the created time; a date without a time of day is
// midnight in loc) and sorts them as ListAll does, whatever order the
// folder store's walk visits them in ("x-y.md" before "x.md", the folder
// a/b before the file a/z.md).
func TestListDated(t *testing.T) {
	ctx := context.Background()
	st, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	may := func(d int) time.Time { return time.Date(2024, 5, d, 0, 0, 0, 0, time.UTC) } // date-only
	for _, e := range []struct {
		k    store.Key
		date time.Time
	}{
		{store.Key{Category: "a", Name: "z"}, may(3)},
		{store.Key{Category: "a/b", Name: "x"}, may(3)},
		{store.Key{Category: "notes", Name: "x-y"}, may(4)},
		{store.Key{Category: "notes", Name: "x"}, may(2)},
		{store.Key{Category: "notes", Name: "undated"}, time.Time{}}, // created now
	} {
		if err := st.Put(ctx, store.Entry{Category: e.k.Category, Name: e.k.Name, Content: "c", Meta: store.Meta{Date: e.date}}); err != nil {
			t.Fatal(err)
		}
	}
	shanghai := time.FixedZone("UTC+8", 8*3600)
	for _, c := range []struct {
		category string
		r        timeexpr.Range
		loc      *time.Location
		want     []string
	}{
		{"", timeexpr.Range{From: may(2)}, time.UTC, []string{"a:z", "a/b:x", "notes:undated", "notes:x", "notes:x-y"}},
		{"", timeexpr.Range{From: may(3), To: may(4)}, time.UTC, []string{"a:z", "a/b:x"}},
		{"notes", timeexpr.Range{To: may(4)}, time.UTC, []string{"notes:x"}},
		// 2024-05-03 is midnight in loc: in UTC+8 it begins before the
		// UTC instant 2024-05-03T00:00Z, so the range leaves it out.
		{"", timeexpr.Range{From: may(3)}, shanghai, []string{"notes:undated", "notes:x-y"}},
	} {
		got, err := service.ListDated(ctx, st, c.category, c.r, c.loc, func(err error) { t.Errorf("skipped %v", err) })
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, e := range got {
			keys = append(keys, e.Key().String())
		}
		if !slices.Equal(keys, c.want) {
			t.Errorf("%q %v in %v: %v, want %v", c.category, c.r, c.loc, keys, c.want)
		}
	}
}
