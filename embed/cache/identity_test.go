package cache

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/recallhq/recall/embed/openai"
)

// The identity vectors are stored under is the embedder's Model as it
// reads when the Cache is made: for a provider that learns its dimension
// from the first answer, that identity has none ("openai:m", where the
// embedder says "openai:m:3" afterwards). It must not change as the
// embedder learns: the next process, whose embedder has not answered yet,
// finds the vectors under the same identity without calling the service.
func TestIdentityFixedAtNew(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request body: %v", err)
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string         `json:"object"`
			Data   []item         `json:"data"`
			Model  string         `json:"model"`
			Usage  map[string]int `json:"usage"`
		}{Object: "list", Model: "m", Usage: map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
		for i := range req.Input {
			resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: []float32{1, 2, 2}})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	}))
	defer srv.Close()
	newEmbedder := func() *openai.Embedder {
		e, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	ctx := context.Background()
	be := newMemBackend()

	emb := newEmbedder()
	c := New(emb, be, Options{})
	if c.Model() != "openai:m" {
		t.Fatalf("Cache.Model before any Embed = %q, want openai:m", c.Model())
	}
	if _, err := c.Embed(ctx, []string{"hello"}); err != nil {
		t.Fatal(err)
	}
	if emb.Model() != "openai:m:3" {
		t.Fatalf("the embedder's Model after its first answer = %q, want openai:m:3", emb.Model())
	}
	if c.Model() != "openai:m" || be.size("openai:m") != 1 || be.size("openai:m:3") != 0 {
		t.Fatalf("after Embed: Cache.Model %q, stored under openai:m %d, under openai:m:3 %d; want openai:m, 1, 0",
			c.Model(), be.size("openai:m"), be.size("openai:m:3"))
	}

	// The next process: a fresh embedder, the same backend.
	c2 := New(newEmbedder(), be, Options{})
	before := calls.Load()
	vecs, err := c2.Embed(ctx, []string{"hello"})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != before || len(vecs) != 1 || len(vecs[0]) != 3 {
		t.Errorf("a new Cache called the service %d times for a stored text (vectors %v), want 0",
			calls.Load()-before, vecs)
	}
}
