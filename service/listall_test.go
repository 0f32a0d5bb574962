package service_test

import (
	"context"
	"slices"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
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
