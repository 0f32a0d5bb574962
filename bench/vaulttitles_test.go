package bench

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

// TestVaultTitles measures how a vault's notes rank for queries that are
// their titles and their aliases (issue 24, "searchable the way users
// search"): for each readable note, its name as the query, and each of
// its front matter aliases, the note's rank among the top 100 hits. It
// runs only when RECALL_VAULT names a folder (the official Obsidian help
// vault's en or zh folder, docs/benchmarks.md):
//
//	RECALL_VAULT=/tmp/ohv/en go test -run VaultTitles -v ./bench
//
// The aliases are read here from the front matter keys (aliases, alias),
// not through the store package, so that the same file measures code
// from before the title rule.
func TestVaultTitles(t *testing.T) {
	dir := os.Getenv("RECALL_VAULT")
	if dir == "" {
		t.Skip("RECALL_VAULT is not set")
	}
	t.Setenv("RECALL_CACHE_DIR", t.TempDir()) // read the vault, write nothing into it
	ctx := context.Background()
	st, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var notes []store.Entry
	for e, err := range st.All(ctx) {
		if err == nil {
			notes = append(notes, e)
		}
	}
	eng := retrieve.New(st, retrieve.Options{})
	defer eng.Close()
	type tally struct {
		n, first, top3, top10, missing int
		rr                             float64
		ranks                          []int
	}
	rank := func(query string, want store.Key) int {
		res, err := eng.Retrieve(ctx, retrieve.Request{Query: query, Limit: 100, Budget: retrieve.Unlimited, NoLinks: true, NoTime: true})
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range res.Items {
			if it.Category == want.Category && it.Name == want.Name {
				return i + 1
			}
		}
		return 0
	}
	add := func(tl *tally, r int) {
		tl.n++
		tl.ranks = append(tl.ranks, r)
		switch {
		case r == 0:
			tl.missing++
			return
		case r == 1:
			tl.first++
		}
		if r <= 3 {
			tl.top3++
		}
		if r <= 10 {
			tl.top10++
		}
		tl.rr += 1 / float64(r)
	}
	var titles, aliases tally
	miss := func(q string, e store.Entry, r int) {
		if r != 1 && os.Getenv("RECALL_VAULT_MISSES") != "" {
			t.Logf("rank %d: %q for %s", r, q, e.Key())
		}
	}
	for _, e := range notes {
		r := rank(e.Name, e.Key())
		add(&titles, r)
		miss(e.Name, e, r)
		for _, a := range vaultAliases(e.Meta) {
			r := rank(a, e.Key())
			add(&aliases, r)
			miss(a, e, r)
		}
	}
	report := func(what string, tl tally) {
		ranked := slices.DeleteFunc(slices.Clone(tl.ranks), func(r int) bool { return r == 0 })
		slices.Sort(ranked)
		med := 0
		if len(ranked) > 0 {
			med = ranked[len(ranked)/2]
		}
		t.Logf("%s: %d queries; rank 1: %d (%.1f%%), top 3: %d, top 10: %d, not in top 100: %d; MRR %.4f; median rank of the found %d",
			what, tl.n, tl.first, 100*float64(tl.first)/float64(max(tl.n, 1)), tl.top3, tl.top10, tl.missing, tl.rr/float64(max(tl.n, 1)), med)
	}
	t.Logf("%s: %d notes read", dir, len(notes))
	report("title queries", titles)
	report("alias queries", aliases)
}

// vaultAliases reads the aliases and alias keys as Obsidian does.
func vaultAliases(m store.Meta) []string {
	var out []string
	for _, k := range []string{"aliases", "alias"} {
		switch v := m.Extra[k].(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return strings.TrimSpace(s) == "" })
}
