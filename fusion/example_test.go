package fusion_test

import (
	"fmt"

	"github.com/recallhq/recall/fusion"
)

func ExampleFuse() {
	// Four entries of a query. "notes" matched no query term and has no
	// vector: it is not a candidate. "draft" has no vector yet.
	names := []string{"beach", "draft", "swim", "notes"}
	bm25 := []float64{2.0, 3.0, 0, 0}
	cos := []float64{0.82, 0, 0.61, 0}
	hasVec := []bool{true, false, true, false}

	fused, err := fusion.Fuse(bm25, cos, hasVec, fusion.DefaultAlpha)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, f := range fused {
		fmt.Printf("%-5s %.3f hit=%v\n", names[i], f, f > 0)
	}
	// Output:
	// beach 0.833 hit=true
	// draft 0.500 hit=true
	// swim  0.000 hit=false
	// notes 0.000 hit=false
}

func ExampleMinMax() {
	fmt.Println(fusion.MinMax([]float64{1, 2, 3}))
	fmt.Println(fusion.MinMax([]float64{4.2}))  // max == min > 0
	fmt.Println(fusion.MinMax([]float64{0, 0})) // max == min == 0
	// Output:
	// [0 0.5 1]
	// [1]
	// [0 0]
}
