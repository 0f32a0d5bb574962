package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/openai"
)

func Example() {
	// A stand-in for https://api.openai.com/v1 that knows two directions.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var data []map[string]any
		for i, text := range req.Input {
			v := []float32{3, 4, 0}
			if strings.Contains(text, "sea") {
				v = []float32{4, 3, 0}
			}
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
		}
		json.NewEncoder(w).Encode(map[string]any{
			"object": "list", "data": data, "model": "text-embedding-3-small",
			"usage": map[string]int{"prompt_tokens": 6, "total_tokens": 6},
		})
	}))
	defer srv.Close()

	e, err := openai.New(openai.Config{APIKey: "sk-example", BaseURL: srv.URL + "/v1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	vecs, err := e.Embed(context.Background(), []string{"likes the sea", "beach holiday"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Model())
	fmt.Printf("%.1f\n", vecs[0]) // normalised: (4, 3, 0) / 5
	fmt.Printf("cosine %.2f\n", embed.Dot(vecs[0], vecs[1]))
	// Output:
	// openai:text-embedding-3-small:3
	// [0.8 0.6 0.0]
	// cosine 0.96
}
