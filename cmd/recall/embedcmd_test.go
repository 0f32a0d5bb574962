package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recallhq/recall/retrieve"
)

// embedCounts parses the summary line of `recall embed`.
func embedCounts(t *testing.T, stderr string) (entries, cached, embedded, dropped int) {
	t.Helper()
	m := regexp.MustCompile(`(\d+) entries, (\d+) already cached, (\d+) embedded, (\d+) stale vectors dropped`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary in %q", stderr)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return n(m[1]), n(m[2]), n(m[3]), n(m[4])
}

// The vector cache across processes (each CLI run opens the store anew):
// unchanged entries are never embedded again, an edited one is, a deleted
// one loses its vector; retrieve uses the vectors only with the embedder.
func TestEmbedAndFusedRetrieve(t *testing.T) {
	for backend, path := range sampleStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			o := c.run("--store", path, "embed", "--embedder", "hash")
			if o.code != 0 {
				t.Fatalf("embed: %s", o.stderr)
			}
			n, cached, embedded, _ := embedCounts(t, o.stderr)
			if n < 40 || cached != 0 || embedded != n {
				t.Fatalf("first embed: %d entries, %d cached, %d embedded", n, cached, embedded)
			}
			o = c.run("--store", path, "embed", "--embedder", "hash")
			if _, cached, embedded, _ := embedCounts(t, o.stderr); cached != n || embedded != 0 {
				t.Fatalf("second embed re-embedded: %d cached, %d embedded", cached, embedded)
			}
			c.ok("--store", path, "add", "preferences", "coffee", "--content", "Now drinks oat flat whites.")
			c.ok("--store", path, "rm", "notes", "packing-list")
			o = c.run("--store", path, "embed", "--embedder", "hash")
			if m, cached, embedded, dropped := embedCounts(t, o.stderr); m != n-1 || cached != n-2 || embedded != 1 || dropped != 2 {
				t.Fatalf("after edit+delete: %d entries, %d cached, %d embedded, %d dropped", m, cached, embedded, dropped)
			}

			var fused, pure retrieve.Result
			if err := json.Unmarshal([]byte(c.ok("--store", path, "retrieve", "oat coffee", "--embedder", "hash", "--json")), &fused); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(c.ok("--store", path, "retrieve", "oat coffee", "--json")), &pure); err != nil {
				t.Fatal(err)
			}
			if !fused.EmbeddingUsed || pure.EmbeddingUsed {
				t.Fatalf("embedding_used: with hash %v, without %v", fused.EmbeddingUsed, pure.EmbeddingUsed)
			}
			if fused.Items[0].Name != "coffee" || fused.Items[0].CosScore == nil {
				t.Fatalf("fused top item %s (cos %v)", fused.Items[0].Name, fused.Items[0].CosScore)
			}
			// Another model's identity finds no vectors: silently BM25.
			var other retrieve.Result
			if err := json.Unmarshal([]byte(c.ok("--store", path, "retrieve", "oat coffee", "--embedder", "ollama", "--embed-url", "http://127.0.0.1:1", "--embed-timeout", "200ms", "--json")), &other); err != nil {
				t.Fatal(err)
			}
			if other.EmbeddingUsed {
				t.Fatal("unreachable embedder reported as used")
			}
		})
	}
}

func TestEmbedNeedsAnEmbedder(t *testing.T) {
	path := copySample(t)
	c := newCLI(t, nil)
	if msg := c.fails(exitUsage, "--store", path, "embed"); !regexp.MustCompile(`--embedder`).MatchString(msg) {
		t.Fatalf("message %q does not say how to choose an embedder", msg)
	}
	c.fails(exitUsage, "--store", path, "embed", "--embedder", "word2vec")
	c.fails(exitUsage, "--store", path, "retrieve", "x", "--embedder", "hash", "--alpha", "2")
	// $RECALL_EMBEDDER is the default.
	env := newCLI(t, map[string]string{"RECALL_EMBEDDER": "hash"})
	if o := env.run("--store", path, "embed"); o.code != 0 {
		t.Fatalf("RECALL_EMBEDDER=hash embed: %s", o.stderr)
	}
}

// A one-shot retrieve that finds its vector cache damaged re-embeds
// nothing (it runs no background fill): it says so and tells the user
// what to run, and `recall embed` then restores exactly the lost vector.
func TestOneShotRetrieveOnDamagedVectorsSaysRunEmbed(t *testing.T) {
	path := copySample(t)
	c := newCLI(t, nil)
	o := c.run("--store", path, "embed", "--embedder", "hash")
	n, _, _, _ := embedCounts(t, o.stderr)
	files, _ := filepath.Glob(filepath.Join(folderCache(t, path), "vectors", "*.vec"))
	if len(files) != 1 {
		t.Fatalf("vector files: %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// The last record loses its last byte.
	if err := os.WriteFile(files[0], b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	o = c.run("--store", path, "retrieve", "海边", "--embedder", "hash")
	if o.code != 0 {
		t.Fatalf("retrieve: exit %d, %s", o.code, o.stderr)
	}
	if strings.Contains(o.stderr, "re-embedding") {
		t.Errorf("a one-shot retrieve claims to re-embed: %q", o.stderr)
	}
	if !strings.Contains(o.stderr, "dropped 1 record") || !strings.Contains(o.stderr, "run `recall embed --embedder hash` to embed them again") {
		t.Errorf("stderr does not report the damage and the way out: %q", o.stderr)
	}
	// Nothing was re-embedded by the retrieve: embed finds one to do.
	o = c.run("--store", path, "embed", "--embedder", "hash")
	if m, cached, embedded, _ := embedCounts(t, o.stderr); m != n || cached != n-1 || embedded != 1 {
		t.Fatalf("embed after the damage: %d entries, %d cached, %d embedded; want %d, %d, 1", m, cached, embedded, n, n-1)
	}
}
