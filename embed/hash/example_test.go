package hash_test

import (
	"context"
	"fmt"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/hash"
)

func Example() {
	e, _ := hash.New(hash.Config{})
	vs, _ := e.Embed(context.Background(), []string{"running shoes", "runner shoe", "banana bread"})
	fmt.Println(e.Model())
	fmt.Printf("near %.2f, far %.2f\n", embed.Dot(vs[0], vs[1]), embed.Dot(vs[0], vs[2]))
	// Output:
	// hash:v2-n3-5:512
	// near 0.49, far -0.00
}
