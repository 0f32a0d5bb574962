package retrieve_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/recallhq/recall/retrieve"
)

// BenchmarkRetrieveTitle: BenchmarkRetrieve's retrieve (limit 10, budget
// 800, links on, warm index) with queries that are entries' names, so
// that the title rule (titles.go) fires on every one. Compare with
// BenchmarkRetrieve, whose queries match no title, in the same run.
func BenchmarkRetrieveTitle(b *testing.B) {
	ctx := context.Background()
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("bolt/entries=%d", n), func(b *testing.B) {
			st := openBench(b, "bolt", n)
			defer st.Close()
			es := corpus(n)
			qs := make([]string, 256)
			for i := range qs {
				qs[i] = es[(i*7919)%len(es)].Name
			}
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
