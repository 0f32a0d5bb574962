package cache_test

import (
	"context"
	"fmt"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
)

func ExampleCache_Sync() {
	ctx := context.Background()
	emb, _ := hash.New(hash.Config{})
	c := cache.New(emb, nil, cache.Options{}) // nil: memory only; pass a store to persist

	texts := []string{"coffee flat white", "三亚之行 海边"}
	st, _ := c.Sync(ctx, texts, nil)
	fmt.Printf("embedded %d, cached %d\n", st.Embedded, st.Cached)

	// One entry edited, one unchanged: only the edit is embedded; the old
	// text's vector is pruned.
	st, _ = c.Sync(ctx, []string{"coffee oat flat white", "三亚之行 海边"}, nil)
	fmt.Printf("embedded %d, cached %d, pruned %d\n", st.Embedded, st.Cached, st.Pruned)
	// Output:
	// embedded 2, cached 0
	// embedded 1, cached 1, pruned 1
}
