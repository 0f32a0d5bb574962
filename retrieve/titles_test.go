package retrieve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// vaultNotes are notes as an Obsidian vault keeps them: a short note
// titled "Internal links", longer ones that use those words more, and a
// note known by aliases its text never uses. On the code before the
// title rule "internal links" ranked its note below the ones that repeat
// the words, and "woofer" found nothing.
var vaultNotes = map[string]string{
	"Internal links": "Link notes with double brackets.",
	"Linking guide":  "internal links internal links: use internal links to join notes; internal links everywhere.",
	"Graph view":     "The graph shows internal links between notes, and internal links to headings.",
	"Backlinks":      "Backlinks list the internal links that point at a note from other internal links.",
	"Dogs": "---\naliases:\n  - Doggo\n  - Woofer\n---\n" +
		"Our four-legged friends.",
	"Cats": "---\nalias: Kitty\ntags: [pets]\n---\nThey purr.",
}

// openVault returns the notes in a folder store (files with front matter,
// as written by hand) and in a bolt store (the same entries put).
func openVault(t *testing.T) map[string]store.Store {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "help"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range vaultNotes {
		if err := os.WriteFile(filepath.Join(dir, "help", name+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	folder, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for e, err := range folder.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { folder.Close(); db.Close() })
	return map[string]store.Store{"folder": folder, "bolt": db}
}

func names(items []retrieve.Item) string {
	var s []string
	for _, it := range items {
		s = append(s, fmt.Sprintf("%s:%s(%s)", it.Category, it.Name, it.Source))
	}
	return strings.Join(s, " ")
}

// TestTitleFirst: a query that is a note's title or one of its aliases
// ranks that note first, in folder and bolt stores, at any limit; a query
// that is no title keeps the BM25 order.
func TestTitleFirst(t *testing.T) {
	ctx := context.Background()
	for kind, st := range openVault(t) {
		t.Run(kind, func(t *testing.T) {
			eng := retrieve.New(st, retrieve.Options{})
			defer eng.Close()
			for _, c := range []struct {
				query string
				limit int
				first string
			}{
				{"internal links", 10, "Internal links"},
				{"Internal Links", 1, "Internal links"},
				{"woofer", 10, "Dogs"},
				{"Doggo", 1, "Dogs"},
				{"kitty", 10, "Cats"},
				{"dogs", 10, "Dogs"},
			} {
				res, err := eng.Retrieve(ctx, retrieve.Request{Query: c.query, Limit: c.limit, Budget: retrieve.Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Items) == 0 || res.Items[0].Name != c.first || res.Items[0].Source != retrieve.SourceHit {
					t.Fatalf("%q: items %s, want %s first", c.query, names(res.Items), c.first)
				}
				it := res.Items[0]
				if it.BM25Score == nil || *it.BM25Score != it.Score || it.Score <= 0 || len(it.MatchedTerms) == 0 {
					t.Errorf("%q: first item's evidence: score %v bm25 %v matched %q", c.query, it.Score, it.BM25Score, it.MatchedTerms)
				}
				if hits := countHits(res.Items); hits > c.limit {
					t.Errorf("%q: %d hits, limit %d", c.query, hits, c.limit)
				}
			}
			// "internal links" without the rule: the BM25 order, where the
			// note titled so is not first; with it, the others follow in
			// that order.
			res, err := eng.Retrieve(ctx, retrieve.Request{Query: "internal links", Budget: retrieve.Unlimited, NoLinks: true})
			if err != nil {
				t.Fatal(err)
			}
			bm, err := eng.Retrieve(ctx, retrieve.Request{Query: "internal links notes", Budget: retrieve.Unlimited, NoLinks: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(bm.Items) < 3 || bm.Items[0].Name == "Internal links" {
				t.Fatalf("a query with one word more is no title, yet %s", names(bm.Items))
			}
			for i := 1; i < len(bm.Items); i++ {
				if bm.Items[i].Score > bm.Items[i-1].Score {
					t.Fatalf("no title matched, yet the order is not by score: %s", names(bm.Items))
				}
			}
			for i := 2; i < len(res.Items); i++ {
				if res.Items[i].Score > res.Items[i-1].Score {
					t.Fatalf("after the titled note the order is not by score: %s", names(res.Items))
				}
			}
		})
	}
}

func countHits(items []retrieve.Item) int {
	n := 0
	for _, it := range items {
		if it.Source == retrieve.SourceHit {
			n++
		}
	}
	return n
}

// TestTitleFirstFollowsWrites: an alias added, changed or removed by a
// write is the engine's at once (its overlay), and a superseded or
// expired titled note stays out.
func TestTitleFirstFollowsWrites(t *testing.T) {
	ctx := context.Background()
	for kind, st := range openVault(t) {
		t.Run(kind, func(t *testing.T) {
			eng := retrieve.New(st, retrieve.Options{})
			defer eng.Close()
			first := func(q string) string {
				t.Helper()
				res, err := eng.Retrieve(ctx, retrieve.Request{Query: q, Budget: retrieve.Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Items) == 0 {
					return ""
				}
				return res.Items[0].Name
			}
			if got := first("puss"); got != "" {
				t.Fatalf("puss before the write: %q", got)
			}
			e, err := st.Get(ctx, "help", "Cats")
			if err != nil {
				t.Fatal(err)
			}
			e.Meta.Extra = map[string]any{"aliases": []any{"Puss"}}
			if err := eng.Put(ctx, e); err != nil {
				t.Fatal(err)
			}
			if got := first("puss"); got != "Cats" {
				t.Fatalf("puss after the write: %q", got)
			}
			if got := first("kitty"); got == "Cats" {
				t.Fatalf("kitty is no alias any more, yet Cats is first")
			}
			e.Meta.Extra["expires"] = "2001-01-01"
			if err := eng.Put(ctx, e); err != nil {
				t.Fatal(err)
			}
			if got := first("puss"); got != "" {
				t.Fatalf("expired: %q", got)
			}
		})
	}
}

// TestTitleFirstFused: the rule holds on the fused path too (BM25 with
// the hash embedder's cosine), where the title note was not first before.
func TestTitleFirstFused(t *testing.T) {
	ctx := context.Background()
	st := openVault(t)["bolt"]
	h, err := hash.New(hash.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := cache.New(h, nil, cache.Options{})
	var texts []string
	for e, err := range st.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, index.EntryText(e.Name, e.Content))
	}
	if _, err := c.Sync(ctx, texts, nil); err != nil {
		t.Fatal(err)
	}
	eng := retrieve.New(st, retrieve.Options{Embedder: h, Vectors: c})
	defer eng.Close()
	for q, want := range map[string]string{"internal links": "Internal links", "woofer": "Dogs"} {
		res, err := eng.Retrieve(ctx, retrieve.Request{Query: q, Budget: retrieve.Unlimited, NoLinks: true})
		if err != nil {
			t.Fatal(err)
		}
		if !res.EmbeddingUsed {
			t.Fatal("the embedding did not run")
		}
		if len(res.Items) == 0 || res.Items[0].Name != want || res.Items[0].BM25Score == nil || *res.Items[0].BM25Score <= 0 {
			t.Fatalf("%q: %s, want %s first with a BM25 score", q, names(res.Items), want)
		}
	}
}
