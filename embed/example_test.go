package embed_test

import (
	"errors"
	"fmt"

	"github.com/recallhq/recall/embed"
)

func ExampleDot() {
	query := []float32{3, 4, 0}
	doc := []float32{4, 3, 0}
	for _, v := range [][]float32{query, doc} {
		if err := embed.Normalize(v); err != nil {
			fmt.Println(err)
			return
		}
	}
	// Unit vectors: the dot product is the cosine, (12+12)/25.
	fmt.Printf("cosine %.2f\n", embed.Dot(query, doc))

	fmt.Println(embed.Normalize([]float32{0, 0, 0}))
	// Output:
	// cosine 0.96
	// wrong vector dimension: zero vector
}

func ExampleHTTPError() {
	// What a provider returns after a 429 it could not wait out.
	err := fmt.Errorf("openai: gave up after 4 attempts: %w",
		embed.NewHTTPError("openai", 429, "Rate limit reached", 0))

	fmt.Println(err)
	fmt.Println(errors.Is(err, embed.ErrRateLimited), errors.Is(err, embed.ErrUnauthorized))
	var he *embed.HTTPError
	if errors.As(err, &he) {
		fmt.Println(he.Provider, he.StatusCode)
	}
	// Output:
	// openai: gave up after 4 attempts: http 429 Too Many Requests: Rate limit reached
	// true false
	// openai 429
}
