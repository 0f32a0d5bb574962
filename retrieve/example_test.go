package retrieve_test

import (
	"context"
	"fmt"
	"os"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

func Example() {
	dir, _ := os.MkdirTemp("", "recall-example")
	defer os.RemoveAll(dir)
	st, err := fs.Open(dir, nil)
	if err != nil {
		panic(err)
	}
	defer st.Close()

	ctx := context.Background()
	eng := retrieve.New(st, retrieve.Options{})
	for _, e := range []store.Entry{
		{Category: "preferences", Name: "喜欢海边", Content: "想去海边玩的时候，首选 [[trips:三亚之行]]。"},
		{Category: "trips", Name: "三亚之行", Content: "2024 年春节和爸妈去了三亚。 [[daily_life:renamed-item]]"},
		{Category: "preferences", Name: "coffee", Content: "Flat white, no sugar."},
	} {
		if err := eng.Put(ctx, e); err != nil {
			panic(err)
		}
	}

	res, err := eng.Retrieve(ctx, retrieve.Request{Query: "想去海边玩"})
	if err != nil {
		panic(err)
	}
	for _, it := range res.Items {
		switch it.Source {
		case retrieve.SourceHit:
			fmt.Printf("hit  %s:%s bm25=%.3f matched=%v tokens=%d\n", it.Category, it.Name, *it.BM25Score, it.MatchedTerms, it.TokensEst)
		case retrieve.SourceLink:
			fmt.Printf("link %s:%s via %s:%s tokens=%d\n", it.Category, it.Name, it.Via.Category, it.Via.Name, it.TokensEst)
		}
	}
	fmt.Println("budget used:", res.BudgetUsed, "unresolved:", res.UnresolvedLinks)
	// Output:
	// hit  preferences:喜欢海边 bm25=3.942 matched=[去海 想去 海边 边玩] tokens=19
	// link trips:三亚之行 via preferences:喜欢海边 tokens=19
	// budget used: 38 unresolved: []
}

// A host answering queries in a loop keeps one Result and lets each
// retrieve reuse its items' room.
func ExampleEngine_RetrieveTo() {
	dir, _ := os.MkdirTemp("", "recall-example")
	defer os.RemoveAll(dir)
	st, err := fs.Open(dir, nil)
	if err != nil {
		panic(err)
	}
	defer st.Close()

	ctx := context.Background()
	eng := retrieve.New(st, retrieve.Options{})
	for _, e := range []store.Entry{
		{Category: "preferences", Name: "coffee", Content: "Flat white, no sugar."},
		{Category: "preferences", Name: "tea", Content: "Green tea after lunch, no sugar."},
	} {
		if err := eng.Put(ctx, e); err != nil {
			panic(err)
		}
	}

	var res retrieve.Result
	for _, q := range []string{"sugar", "green tea", "coffee"} {
		if err := eng.RetrieveTo(ctx, retrieve.Request{Query: q}, &res); err != nil {
			panic(err)
		}
		// res is overwritten by the next call: keep copies, not items.
		var names []string
		for _, it := range res.Items {
			names = append(names, it.Name)
		}
		fmt.Println(q, "->", names)
	}
	// Output:
	// sugar -> [coffee tea]
	// green tea -> [tea]
	// coffee -> [coffee]
}
