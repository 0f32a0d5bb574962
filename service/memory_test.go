package service_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

func stores(t *testing.T) map[string]store.Store {
	fs, err := fsstore.Open(filepath.Join(t.TempDir(), "m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close(); bs.Close() })
	return map[string]store.Store{"fs": fs, "bolt": bs}
}

func TestAppendEdit(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			if _, err := m.Append(ctx, "p", "x", "more"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("append to a missing entry: %v", err)
			}
			c, err := m.Add(ctx, service.AddRequest{Category: "p", Name: "x", Content: "one two one", Tags: []string{"a"}})
			if err != nil || c.Status != service.StatusAdded {
				t.Fatal(c, err)
			}
			before, _ := m.Get(ctx, "p", "x")
			if _, err := m.Append(ctx, "p", "x", "three"); err != nil {
				t.Fatal(err)
			}
			if _, err := m.Edit(ctx, "p", "x", "one", "1"); !errors.Is(err, service.ErrAmbiguous) {
				t.Errorf("ambiguous edit: %v", err)
			}
			if _, err := m.Edit(ctx, "p", "x", "four", "4"); !errors.Is(err, service.ErrNoMatch) {
				t.Errorf("edit of absent text: %v", err)
			}
			if _, err := m.Edit(ctx, "p", "x", "two", "2"); err != nil {
				t.Fatal(err)
			}
			e, _ := m.Get(ctx, "p", "x")
			if e.Content != "one 2 one\nthree" || !slices.Equal(e.Meta.Tags, []string{"a"}) || !e.Meta.Created.Equal(before.Meta.Created) {
				t.Errorf("after append and edit: %q %+v", e.Content, e.Meta)
			}
			// The index follows: the edited text is found, the old is not.
			res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "three"})
			if err != nil || len(res.Items) != 1 {
				t.Errorf("retrieve appended text: %+v %v", res, err)
			}
		})
	}
}

// Concurrent appends through the Memory each land exactly once.
func TestConcurrentAppendsLoseNothing(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			m.Add(ctx, service.AddRequest{Category: "log", Name: "x", Content: "start\n"})
			if _, err := m.Engine().Snapshot(ctx); err != nil { // a server's index exists
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := range 10 {
						if _, err := m.Append(ctx, "log", "x", fmt.Sprintf("w%d-%d\n", w, i)); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			e, _ := m.Get(ctx, "log", "x")
			for w := range 4 {
				for i := range 10 {
					if n := countLines(e.Content, fmt.Sprintf("w%d-%d", w, i)); n != 1 {
						t.Errorf("line w%d-%d appears %d times", w, i, n)
					}
				}
			}
			res, _, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "w3"})
			if len(res.Items) != 1 || res.Items[0].Content != e.Content {
				t.Errorf("the index holds %+v, the store %q", res.Items, e.Content)
			}
		})
	}
}

func countLines(s, line string) (n int) {
	for l := range splitLines(s) {
		if l == line {
			n++
		}
	}
	return n
}

func splitLines(s string) func(func(string) bool) {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' {
				if !yield(s[start:i]) {
					return
				}
				start = i + 1
			}
		}
		if start < len(s) {
			yield(s[start:])
		}
	}
}

func TestListPagesAndCategories(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			var want []string
			for c := range 3 {
				for n := range 7 {
					cat, nm := fmt.Sprintf("c%d", c), fmt.Sprintf("n%02d", n)
					m.Add(ctx, service.AddRequest{Category: cat, Name: nm, Content: "x"})
					want = append(want, cat+":"+nm)
				}
			}
			for _, started := range []bool{false, true} {
				if started {
					if err := m.Start(ctx); err != nil {
						t.Fatal(err)
					}
					defer m.Close()
					waitIndexed(t, m)
				}
				var got []string
				cursor := ""
				for pages := 0; ; pages++ {
					p, err := m.List(ctx, service.ListRequest{Limit: 4, Cursor: cursor})
					if err != nil {
						t.Fatal(err)
					}
					if p.Total != 21 || len(p.Entries) > 4 {
						t.Fatalf("page: total %d, %d entries", p.Total, len(p.Entries))
					}
					for _, it := range p.Entries {
						got = append(got, it.Category+":"+it.Name)
					}
					if cursor = p.NextCursor; cursor == "" {
						break
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("indexed %v: pages %v, want %v", started, got, want)
				}
				p, _ := m.List(ctx, service.ListRequest{Category: "c1", Limit: 100})
				if p.Total != 7 || len(p.Entries) != 7 || p.NextCursor != "" {
					t.Errorf("category page: %+v", p)
				}
				cats, err := m.Categories(ctx)
				if err != nil || len(cats) != 3 || cats[2] != (service.CategoryCount{Category: "c2", Count: 7}) {
					t.Errorf("categories: %+v %v", cats, err)
				}
			}
		})
	}
}

func waitIndexed(t *testing.T, m *service.Memory) {
	t.Helper()
	for range 500 {
		if h, _ := m.Health(context.Background()); h.Indexed {
			return
		}
		sleep()
	}
	t.Fatal("never indexed")
}

// Filters are exact: the best entries that pass, not a filtered top list;
// links of kept hits may leave the filter.
func TestRetrieveFilters(t *testing.T) {
	ctx := context.Background()
	st := stores(t)["bolt"]
	m := service.New(st, service.Options{})
	// 30 strong matches in "a", then one weak one in "b" tagged "keep".
	for i := range 30 {
		m.Add(ctx, service.AddRequest{Category: "a", Name: fmt.Sprintf("n%02d", i), Content: "sea sea sea sea"})
	}
	m.Add(ctx, service.AddRequest{Category: "b", Name: "weak", Content: "the sea and a long text about other things entirely [[c:linked]]", Tags: []string{"keep"}})
	m.Add(ctx, service.AddRequest{Category: "c", Name: "linked", Content: "linked entry"})
	one := 1
	for _, p := range []service.RetrieveParams{
		{Query: "sea", Limit: &one, Categories: []string{"b"}},
		{Query: "sea", Limit: &one, Tags: []string{"keep", "other"}},
	} {
		res, _, err := m.Retrieve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) != 2 || res.Items[0].Name != "weak" || res.Items[1].Name != "linked" || res.Items[1].Via == nil {
			t.Errorf("filter %+v: %+v", p, res.Items)
		}
	}
	no := false
	res, _, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "sea", Categories: []string{"b"}, ExpandLinks: &no})
	if len(res.Items) != 1 {
		t.Errorf("no links: %+v", res.Items)
	}
	res, _, _ = m.Retrieve(ctx, service.RetrieveParams{Query: "sea", Categories: []string{"zzz"}})
	if len(res.Items) != 0 {
		t.Errorf("empty category: %+v", res.Items)
	}
	// Unfiltered requests are the engine's own answer.
	res, req, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "sea"})
	direct, _ := m.Engine().Retrieve(ctx, req)
	var a, b strings.Builder
	service.WriteResultJSON(&a, res)
	service.WriteResultJSON(&b, direct)
	if a.String() != b.String() {
		t.Error("an unfiltered retrieve differs from the engine's")
	}
}

// With fusion on, a query about nothing gets the nearest entries; the
// default min_score drops them, -1 keeps them, and hits that match a
// query word are untouched.
func TestMinScoreDropsEmbeddingOnlyHits(t *testing.T) {
	ctx := context.Background()
	st := stores(t)["bolt"]
	var texts []string
	for i, c := range []string{"flat white coffee, no sugar", "kayaking in Halong Bay", "peanut allergy, carry an epipen", "running shoes for the marathon", "the seaside in Sanya"} {
		e := store.Entry{Category: "n", Name: fmt.Sprintf("e%d", i), Content: c}
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, index.EntryText(e.Name, e.Content))
	}
	emb, _ := hash.New(hash.Config{})
	vec := cache.New(emb, any(st).(cache.Backend), cache.Options{})
	if _, err := vec.Sync(ctx, texts, nil); err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{Engine: retrieve.Options{Embedder: emb, Vectors: vec}})
	off := -1.0
	all, _, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "qwertyuiop", MinScore: &off})
	none, _, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "qwertyuiop"})
	if !all.EmbeddingUsed || len(all.Items) == 0 || len(none.Items) != 0 {
		t.Errorf("nonsense query: %d items with min_score -1, %d with the default", len(all.Items), len(none.Items))
	}
	res, _, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "coffee"})
	if len(res.Items) == 0 || res.Items[0].Name != "e0" {
		t.Errorf("a matching query: %+v", res.Items)
	}
	for _, it := range res.Items {
		if len(it.MatchedTerms) == 0 && *it.CosScore < service.DefaultMinScore {
			t.Errorf("weak hit kept: %+v", it)
		}
	}
}
