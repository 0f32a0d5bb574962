package service_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
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

// TestListWithoutIndex: before an index exists, List pages through the
// store's keys and reads only the page's entries; its pages are those of
// List over a store read whole, and of List over the built index. A file
// whose front matter is broken counts in Total but is left out of its page
// and counted in Skipped, as is a file whose name cannot be an entry.
func TestListWithoutIndex(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			for i := range 25 {
				err := st.Put(ctx, store.Entry{Category: []string{"c0", "c1", "c1/d"}[i%3], Name: fmt.Sprintf("n%02d", i),
					Content: strings.Repeat("word ", i+1), Meta: store.Meta{Tags: []string{fmt.Sprint("t", i%4)}}})
				if err != nil {
					t.Fatal(err)
				}
			}
			pages := func(m *service.Memory, req service.ListRequest) []service.ListPage {
				var out []service.ListPage
				for {
					p, err := m.List(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, p)
					if req.Cursor = p.NextCursor; req.Cursor == "" {
						return out
					}
				}
			}
			indexed := service.New(st, service.Options{})
			if err := indexed.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer indexed.Close()
			waitIndexed(t, indexed)
			for _, req := range []service.ListRequest{{Limit: 7}, {Category: "c1", Limit: 3}, {Category: "none"}} {
				keys := pages(service.New(st, service.Options{}), req)
				whole := pages(service.New(plainStore{st}, service.Options{}), req)
				idx := pages(indexed, req)
				if !reflect.DeepEqual(keys, whole) || !reflect.DeepEqual(keys, idx) {
					t.Errorf("%+v:\nkeys  %+v\nwhole %+v\nindex %+v", req, keys, whole, idx)
				}
			}
			if name != "fs" {
				return
			}
			root := st.(*fsstore.Store)
			broken, _ := root.Path("c0", "broken")
			if err := os.WriteFile(broken, []byte("body \xff\n") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(filepath.Dir(broken), strings.Repeat("n", store.MaxNameBytes+1)+".md"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := service.New(st, service.Options{}).List(ctx, service.ListRequest{Category: "c0"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != 10 || len(p.Entries) != 9 || p.Skipped != 2 {
				t.Errorf("with a broken and an unmappable file: total %d, %d entries, skipped %d; want 10, 9, 2", p.Total, len(p.Entries), p.Skipped)
			}
		})
	}
}

// TestListCategoryNFC: a category is normalised to NFC on input (SPEC §1),
// so List of a category typed in another normal form lists its entries,
// on every path (the store's keys, a whole read, the index) alike.
func TestListCategoryNFC(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			if err := st.Put(ctx, store.Entry{Category: "caf\u00e9", Name: "menu", Content: "soup"}); err != nil {
				t.Fatal(err)
			}
			indexed := service.New(st, service.Options{})
			if err := indexed.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer indexed.Close()
			waitIndexed(t, indexed)
			for what, m := range map[string]*service.Memory{
				"keys":  service.New(st, service.Options{}),
				"whole": service.New(plainStore{st}, service.Options{}),
				"index": indexed,
			} {
				p, err := m.List(ctx, service.ListRequest{Category: "cafe\u0301"})
				if err != nil {
					t.Fatal(err)
				}
				if p.Total != 1 || len(p.Entries) != 1 || p.Entries[0].Category != "caf\u00e9" {
					t.Errorf("%s: List of the category in NFD: %+v, want its one entry", what, p)
				}
			}
		})
	}
}
