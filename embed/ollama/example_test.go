package ollama_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/ollama"
)

func Example() {
	// A stand-in for an Ollama server that has pulled one model.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.Model != "nomic-embed-text" {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{
				"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model),
			})
			return
		}
		vecs := make([][]float32, len(req.Input))
		for i, text := range req.Input {
			vecs[i] = []float32{float32(len(text)), 1}
		}
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
	}))
	defer srv.Close()

	e, err := ollama.New(ollama.Config{Host: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	vecs, err := e.Embed(context.Background(), []string{"sea"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Model())
	fmt.Printf("%.4f\n", vecs[0]) // (3, 1) / √10

	// A model the server does not have: not retried, and the server's
	// advice is kept.
	other, _ := ollama.New(ollama.Config{Host: srv.URL, Model: "all-minilm"})
	_, err = other.Embed(context.Background(), []string{"sea"})
	var he *embed.HTTPError
	fmt.Println(errors.As(err, &he) && he.StatusCode == http.StatusNotFound)
	fmt.Println(err)
	// Output:
	// ollama:nomic-embed-text:latest:2
	// [0.9487 0.3162]
	// true
	// ollama: http 404 Not Found: model "all-minilm" not found, try pulling it first
}
