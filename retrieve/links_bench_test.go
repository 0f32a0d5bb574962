package retrieve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// BenchmarkRetrieveLinks: BenchmarkRetrieve's retrieve (limit 10, budget
// 800, warm index) on bolt, where every entry links three others: a bare
// name, a name in the wrong case and a path; every tenth also has a
// property link and an alias (issue 24). The link resolution of the hits
// is what it adds to BenchmarkRetrieve. links=exact writes only links
// both revisions resolve (a bare name as written, a path), so the
// difference is the cost of resolving, not of injecting more. It uses
// only APIs older than issue 24, so it runs on the revision before it
// too:
//
//	go test -run XXX -bench RetrieveLinks -benchtime 2000x ./retrieve/
func BenchmarkRetrieveLinks(b *testing.B) {
	ctx := context.Background()
	qs := queries()
	for _, c := range []struct {
		links string
		n     int
	}{{"obsidian", 10_000}, {"exact", 10_000}, {"obsidian", 100_000}, {"exact", 100_000}} {
		n := c.n
		b.Run(fmt.Sprintf("links=%s/entries=%d", c.links, n), func(b *testing.B) {
			es := corpus(n)
			st, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), &bolt.Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			for i, e := range es {
				a, lc, p := es[(i+1)%n], es[(i+7)%n], es[(i+13)%n]
				if c.links == "exact" {
					e.Content += fmt.Sprintf(" [[%s]] [[%s/%s]]", a.Name, p.Category, p.Name)
				} else {
					e.Content += fmt.Sprintf(" [[%s]] [[%s]] [[%s/%s]]", a.Name, strings.ToLower(lc.Name), p.Category, p.Name)
				}
				if i%10 == 0 && c.links != "exact" {
					e.Meta.Extra = map[string]any{"up": "[[" + es[(i+3)%n].Name + "]]", "aliases": []any{fmt.Sprintf("alias %d", i)}}
				}
				if err := st.Put(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
			var _ store.Store = st
			eng := retrieve.New(st, retrieve.Options{})
			if _, err := eng.Retrieve(ctx, retrieve.Request{Query: "warm"}); err != nil {
				b.Fatal(err)
			}
			timed(b, func(i int) {
				if _, err := eng.Retrieve(ctx, retrieve.Request{Query: qs[i%len(qs)]}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
