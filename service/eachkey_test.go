package service_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// plainStore hides every optional capability of the store it wraps.
type plainStore struct{ store.Store }

// TestEachKey: the keys of a store.KeyLister and those EachKey finds
// through All (a store without the capability) agree, for the whole store
// and for one exact category.
func TestEachKey(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			if _, ok := st.(store.KeyLister); !ok {
				t.Fatalf("%T is not a store.KeyLister", st)
			}
			for i := range 12 {
				if err := st.Put(ctx, store.Entry{Category: []string{"a", "a/b", "b"}[i%3], Name: fmt.Sprintf("n%d", i), Content: "x"}); err != nil {
					t.Fatal(err)
				}
			}
			for _, cat := range []string{"", "a", "a/b", "none"} {
				var viaKeys, viaAll []store.Key
				fail := func(err error) { t.Errorf("%q: skipped %v", cat, err) }
				if err := service.EachKey(ctx, st, cat, func(k store.Key) { viaKeys = append(viaKeys, k) }, fail); err != nil {
					t.Fatal(err)
				}
				if err := service.EachKey(ctx, plainStore{st}, cat, func(k store.Key) { viaAll = append(viaAll, k) }, fail); err != nil {
					t.Fatal(err)
				}
				byKey := func(a, b store.Key) int { return strings.Compare(a.String(), b.String()) }
				slices.SortFunc(viaKeys, byKey)
				slices.SortFunc(viaAll, byKey)
				want := map[string]int{"": 12, "a": 4, "a/b": 4, "none": 0}[cat]
				if !slices.Equal(viaKeys, viaAll) || len(viaKeys) != want {
					t.Errorf("%q: Keys %v, All %v, want %d", cat, viaKeys, viaAll, want)
				}
			}
		})
	}
}
