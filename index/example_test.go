package index_test

import (
	"fmt"

	"github.com/recallhq/recall/index"
)

func ExampleAnalyzer_Tokens() {
	tok := index.Spec()
	fmt.Printf("%q\n", tok.Tokens("Sanya 三亚之行! likes-the-sea ＡＢＣ"))
	// Output: ["sanya" "三亚" "亚之" "之行" "likes" "the" "sea" "abc"]
}

func ExampleBuild() {
	snap := index.Build(1, nil, []index.Input{
		{Category: "prefs", Name: "sea", Content: "想去海边玩, loves the beach"},
		{Category: "prefs", Name: "coffee", Content: "flat white, no sugar"},
		{Category: "trips", Name: "三亚之行", Content: "海边的酒店很好"},
	})
	for _, h := range snap.Search(snap.Terms("海边 beach"), 10) {
		fmt.Printf("%s:%s %.3f\n", h.Doc.Category, h.Doc.Name, h.Score)
	}
	// Output:
	// prefs:sea 1.394
	// trips:三亚之行 0.426
}

func ExampleEnglishStop() {
	a := index.EnglishStop()
	fmt.Printf("%s %q\n", a.Name(), a.Tokens("The runner was running to 海边, twice in 2024"))
	q := a.Query("running shoes")
	fmt.Printf("terms %q, shown as %q\n", q.Terms, q.Words(q.Terms))
	// Output:
	// english-stop ["runner" "run" "海边" "twice" "2024"]
	// terms ["run" "shoe"], shown as ["running" "shoes"]
}
