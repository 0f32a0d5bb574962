package service_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// syncBuffer is a log destination the test may read while the Memory's
// background work writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// damagedVectorStore writes five entries and their vectors into a folder
// store, then damages the model's vector file with damage, and returns
// the store's root.
func damagedVectorStore(t *testing.T, damage func(b []byte) []byte) string {
	t.Helper()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "m")
	st, err := fsstore.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i, c := range []string{"flat white coffee, no sugar", "kayaking in Halong Bay", "peanut allergy, carry an epipen", "running shoes for the marathon", "coffee beans from Yunnan"} {
		e := store.Entry{Category: "n", Name: fmt.Sprintf("e%d", i), Content: c}
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, index.EntryText(e.Name, e.Content))
	}
	emb, _ := hash.New(hash.Config{})
	// One call per text, so the records are appended in this order.
	vec := cache.New(emb, st, cache.Options{})
	for _, tx := range texts {
		if _, err := vec.Embed(ctx, []string{tx}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	files, _ := filepath.Glob(filepath.Join(st.CacheDir(), "vectors", "*.vec"))
	if len(files) != 1 {
		t.Fatalf("vector files: %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], damage(b), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func openMemory(t *testing.T, root string, logTo *syncBuffer) (*service.Memory, *cache.Cache) {
	t.Helper()
	st, err := fsstore.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	emb, _ := hash.New(hash.Config{})
	vec := cache.New(emb, st, cache.Options{})
	m := service.New(st, service.Options{
		Engine: retrieve.Options{Embedder: emb, Vectors: vec},
		Log:    log.New(logTo, "", 0),
	})
	t.Cleanup(func() { m.Close() })
	return m, vec
}

// A vector cache cut short by damage is reported (the model and the count
// in the log), retrieve fuses over the vectors left (SPEC §6: an entry
// without one adds nothing on the cosine side), and the background fill
// embeds the lost one again.
func TestDamagedVectorCacheIsReportedAndRefilled(t *testing.T) {
	ctx := context.Background()
	// The last byte of the last record (e4's) is gone.
	root := damagedVectorStore(t, func(b []byte) []byte { return b[:len(b)-1] })
	var logs syncBuffer
	m, vec := openMemory(t, root, &logs)

	res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "coffee"})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("vector cache for %s was damaged: dropped 1 record;", vec.Model())
	if !strings.Contains(logs.String(), want) {
		t.Fatalf("log does not report the damage (%q):\n%s", want, logs.String())
	}
	if vec.Len() != 4 {
		t.Fatalf("cache holds %d vectors after the damaged load, want 4", vec.Len())
	}
	// The cosine path ran over the four vectors left; e4 matches by BM25
	// alone, with no cosine score.
	if !res.EmbeddingUsed {
		t.Fatal("embedding_used is false although four entries have vectors")
	}
	var seen []string
	for _, it := range res.Items {
		seen = append(seen, it.Name)
		if (it.CosScore == nil) != (it.Name == "e4") {
			t.Errorf("%s: cos_score %v; only e4 lost its vector", it.Name, it.CosScore)
		}
	}
	if len(seen) != 2 {
		t.Fatalf("retrieve coffee: %v, want e0 and e4", seen)
	}
	if fr, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "coffee", Categories: []string{"n"}}); err != nil || !fr.EmbeddingUsed {
		t.Fatalf("filtered retrieve over four vectors: %+v %v", fr, err)
	}

	// Started, the Memory embeds e4 again, and the next load is clean.
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for vec.Len() < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("the fill did not restore the lost vector: %d of 5\n%s", vec.Len(), logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	m.Close()
	var again syncBuffer
	_, vec2 := openMemory(t, root, &again)
	if err := vec2.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if vec2.Len() != 5 || strings.Contains(again.String(), "damaged") {
		t.Fatalf("after the refill a new load has %d vectors; log:\n%s", vec2.Len(), again.String())
	}
}

// When damage leaves no vector at all, retrieve answers with BM25 alone
// and says so: embedding_used is true only when the cosine path ran.
func TestDamagedVectorCacheWithNothingLeftIsBM25(t *testing.T) {
	ctx := context.Background()
	// A file whose header is not trusted is set aside whole.
	root := damagedVectorStore(t, func(b []byte) []byte { b[0] ^= 0xff; return b })
	var logs syncBuffer
	m, vec := openMemory(t, root, &logs)
	res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "coffee"})
	if err != nil {
		t.Fatal(err)
	}
	if res.EmbeddingUsed || len(res.Items) != 2 {
		t.Fatalf("retrieve over a cache with no vector: embedding_used %v, %d items", res.EmbeddingUsed, len(res.Items))
	}
	// The filtered path (a wider engine retrieve, then the filter) says
	// the same.
	if fr, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "coffee", Categories: []string{"n"}}); err != nil || fr.EmbeddingUsed || len(fr.Items) != 2 {
		t.Fatalf("filtered retrieve over a cache with no vector: %+v %v", fr, err)
	}
	for _, it := range res.Items {
		if it.CosScore != nil {
			t.Errorf("%s has a cos_score without any vector", it.Name)
		}
	}
	if want := fmt.Sprintf("vector cache for %s was damaged: dropped 1 record;", vec.Model()); !strings.Contains(logs.String(), want) {
		t.Fatalf("log does not report the damage (%q):\n%s", want, logs.String())
	}
}

// A started Memory says it re-embeds the lost vectors, and does; one never
// started says it does not, and ends the line with Options.RefillHint.
func TestDamagedVectorCacheMessageSaysWhatHappens(t *testing.T) {
	ctx := context.Background()
	root := damagedVectorStore(t, func(b []byte) []byte { return b[:len(b)-1] })
	var logs syncBuffer
	m, vec := openMemory(t, root, &logs)
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for vec.Len() < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("the fill did not restore the lost vector: %d of 5\n%s", vec.Len(), logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "re-embedding the entries that lost their vector in the background") {
		t.Errorf("a started Memory does not say it re-embeds:\n%s", logs.String())
	}

	root = damagedVectorStore(t, func(b []byte) []byte { return b[:len(b)-1] })
	st, err := fsstore.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb, _ := hash.New(hash.Config{})
	var one syncBuffer
	m2 := service.New(st, service.Options{
		Engine:     retrieve.Options{Embedder: emb, Vectors: cache.New(emb, st, cache.Options{})},
		Log:        log.New(&one, "", 0),
		RefillHint: "run the refill",
	})
	defer m2.Close()
	if _, _, err := m2.Retrieve(ctx, service.RetrieveParams{Query: "coffee"}); err != nil {
		t.Fatal(err)
	}
	if s := one.String(); strings.Contains(s, "re-embedding") || !strings.Contains(s, "not re-embedded now; run the refill") {
		t.Errorf("a one-shot Memory's line: %q", s)
	}
}
