package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/recallhq/recall/store"
)

// VectorBackend is the optional vector-cache capability (see package embed/cache).
type VectorBackend interface {
	store.Store
	store.VectorCache
}

// RunVectors runs the vector conformance tests. open returns a new empty
// store; reopen closes s and opens the same store again (for persistence
// checks). The suite closes what open and reopen return.
//
// It checks bit-exact round trips of several models sharing keys, across a
// reopen; replacement (the later of duplicate keys in one call wins);
// deletion, missing keys included; a Revision no vector operation moves and
// an All that never sees the vectors; refusal of invalid input with
// store.ErrInvalid, nothing written; LoadVectors callbacks that write to the
// store and whose error comes back unchanged; ErrClosed after Close and the
// context's error once it is cancelled; concurrent writers and readers (run
// it under -race).
func RunVectors(t *testing.T, open func(t *testing.T) VectorBackend, reopen func(t *testing.T, s VectorBackend) VectorBackend) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(*testing.T, VectorBackend)
	}{
		{"RoundTripAndReopen", func(t *testing.T, s VectorBackend) { testVectorsRoundTrip(t, s, reopen) }},
		{"ReplaceAndDelete", testVectorsReplaceAndDelete},
		{"Invalid", testVectorsInvalid},
		{"Callback", testVectorsCallback},
		{"ClosedAndCancelled", testVectorsClosedAndCancelled},
		{"Concurrent", testVectorsConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			// A second Close reports ErrClosed, which is of no interest here.
			defer func() { _ = s.Close() }()
			tc.fn(t, s)
		})
	}
}

// Helpers for backends' own vector tests, so that each backend's tests of
// what is its own (file damage, buckets) build on the same vocabulary as
// the suite.

// VectorKey returns a valid vector key: the hex SHA-256 of "text i".
func VectorKey(i int) string {
	sum := sha256.Sum256([]byte(fmt.Sprint("text ", i)))
	return hex.EncodeToString(sum[:])
}

// RandVectors returns n keys (VectorKey(first)...) and vectors of dim
// values in [-1, 1).
func RandVectors(r *rand.Rand, first, n, dim int) ([]string, [][]float32) {
	keys := make([]string, n)
	vecs := make([][]float32, n)
	for i := range n {
		keys[i] = VectorKey(first + i)
		vecs[i] = make([]float32, dim)
		for j := range vecs[i] {
			vecs[i][j] = r.Float32()*2 - 1
		}
	}
	return keys, vecs
}

// LoadAll returns every vector LoadVectors yields for model, failing the
// test on an error or a key yielded twice.
func LoadAll(t testing.TB, s VectorBackend, model string) map[string][]float32 {
	t.Helper()
	got := map[string][]float32{}
	err := s.LoadVectors(ctx, model, func(k string, v []float32) error {
		if _, dup := got[k]; dup {
			t.Errorf("key %s yielded twice", k)
		}
		got[k] = v
		return nil
	})
	if err != nil {
		t.Fatalf("LoadVectors(%q): %v", model, err)
	}
	return got
}

// sameBits compares vectors bit for bit, so NaN payloads and -0 count.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// LoadAllReport is LoadAll through a backend's LoadVectorsReport, and
// also returns the count of records it dropped as damaged.
func LoadAllReport(t testing.TB, s interface {
	LoadVectorsReport(ctx context.Context, model string, fn func(key string, vec []float32) error) (int, error)
}, model string) (map[string][]float32, int) {
	t.Helper()
	got := map[string][]float32{}
	dropped, err := s.LoadVectorsReport(ctx, model, func(k string, v []float32) error {
		if _, dup := got[k]; dup {
			t.Errorf("key %s yielded twice", k)
		}
		got[k] = v
		return nil
	})
	if err != nil {
		t.Fatalf("LoadVectorsReport(%q): %v", model, err)
	}
	return got, dropped
}

// CheckVectorsEqual fails the test unless got holds exactly keys, each
// with its vector bit for bit.
func CheckVectorsEqual(t testing.TB, got map[string][]float32, keys []string, vecs [][]float32) {
	t.Helper()
	if len(got) != len(keys) {
		t.Fatalf("loaded %d vectors, want %d", len(got), len(keys))
	}
	for i, k := range keys {
		if !sameBits(got[k], vecs[i]) {
			t.Fatalf("vector %s: got %v…, want %v…", k, head(got[k]), head(vecs[i]))
		}
	}
}

func head(v []float32) []float32 { return v[:min(len(v), 4)] }

// MustPutVectors stores vectors, failing the test on an error.
func MustPutVectors(t testing.TB, s VectorBackend, model string, keys []string, vecs [][]float32) {
	t.Helper()
	if err := s.PutVectors(ctx, model, keys, vecs); err != nil {
		t.Fatalf("PutVectors(%q): %v", model, err)
	}
}

// Three models share keys but not vectors; each gets back exactly its own,
// across a reopen. No vector operation moves the revision, and All sees
// the one entry only.
func testVectorsRoundTrip(t *testing.T, s VectorBackend, reopen func(*testing.T, VectorBackend) VectorBackend) {
	entry := store.Entry{Category: "a", Name: "b", Content: "c"}
	mustPut(t, s, entry)
	before := rev(t, s)

	r := rand.New(rand.NewPCG(1, 2))
	models := []struct {
		name string
		dim  int
	}{{"hash:v1:256", 256}, {"openai:text-embedding-3-small:1536", 1536}, {"ollama:nomic-embed-text", 7}}
	type set struct {
		keys []string
		vecs [][]float32
	}
	want := map[string]set{}
	for _, m := range models {
		keys, vecs := RandVectors(r, 0, 200, m.dim)
		// Two calls, so the second adds to what the first created.
		MustPutVectors(t, s, m.name, keys[:50], vecs[:50])
		MustPutVectors(t, s, m.name, keys[50:], vecs[50:])
		want[m.name] = set{keys, vecs}
	}
	special := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(1)), math.MaxFloat32, math.SmallestNonzeroFloat32}
	MustPutVectors(t, s, "special", []string{VectorKey(0)}, [][]float32{special})
	want["special"] = set{[]string{VectorKey(0)}, [][]float32{special}}

	check := func(s VectorBackend, rv uint64) {
		t.Helper()
		for m, w := range want {
			CheckVectorsEqual(t, LoadAll(t, s, m), w.keys, w.vecs)
		}
		if got := LoadAll(t, s, "never-stored"); len(got) != 0 {
			t.Fatalf("unknown model yielded %d vectors", len(got))
		}
		if got := collect(t, s); len(got) != 1 || got[entry.Key()].Content != entry.Content {
			t.Fatalf("All yielded %d entries (%v); the vectors must be invisible to it", len(got), got)
		}
		if r := rev(t, s); r != rv {
			t.Fatalf("revision %d after vector operations, want %d", r, rv)
		}
	}
	check(s, before)
	s = reopen(t, s)
	defer func() { _ = s.Close() }()
	// A backend may count revisions per process, so a reopened store is
	// held to the revision it starts with.
	check(s, rev(t, s))
}

func testVectorsReplaceAndDelete(t *testing.T, s VectorBackend) {
	before := rev(t, s)
	const model, dim = "hash:v1:4", 4
	r := rand.New(rand.NewPCG(3, 4))
	keys, vecs := RandVectors(r, 0, 10, dim)
	MustPutVectors(t, s, model, keys, vecs)

	// Replace two, one of them given twice in the same call: the later wins.
	_, fresh := RandVectors(r, 0, 3, dim)
	MustPutVectors(t, s, model, []string{keys[1], keys[2], keys[2]}, fresh)
	vecs[1], vecs[2] = fresh[0], fresh[2]
	CheckVectorsEqual(t, LoadAll(t, s, model), keys, vecs)

	// Delete two and a key that was never stored.
	if err := s.DeleteVectors(ctx, model, []string{keys[0], keys[5], VectorKey(999)}); err != nil {
		t.Fatalf("DeleteVectors: %v", err)
	}
	keys = append(append([]string{}, keys[1:5]...), keys[6:]...)
	vecs = append(append([][]float32{}, vecs[1:5]...), vecs[6:]...)
	CheckVectorsEqual(t, LoadAll(t, s, model), keys, vecs)

	// Adding still works after a delete.
	k, v := RandVectors(r, 500, 1, dim)
	MustPutVectors(t, s, model, k, v)
	CheckVectorsEqual(t, LoadAll(t, s, model), append(keys, k...), append(vecs, v...))
	if err := s.DeleteVectors(ctx, model, k); err != nil {
		t.Fatalf("DeleteVectors: %v", err)
	}

	// Deleting from a model that has nothing is fine.
	if err := s.DeleteVectors(ctx, "other", keys); err != nil {
		t.Fatalf("DeleteVectors of an unknown model: %v", err)
	}
	if err := s.DeleteVectors(ctx, model, keys); err != nil {
		t.Fatalf("DeleteVectors: %v", err)
	}
	if got := LoadAll(t, s, model); len(got) != 0 {
		t.Fatalf("%d vectors left after deleting all", len(got))
	}
	if r := rev(t, s); r != before {
		t.Fatalf("revision %d after vector writes, want %d", r, before)
	}
}

// Bad input is refused whole: nothing of the call is written.
func testVectorsInvalid(t *testing.T, s VectorBackend) {
	good := []float32{1, 2}
	tests := []struct {
		name  string
		model string
		keys  []string
		vecs  [][]float32
		field string // the FieldError's field, "" when it is not one
	}{
		{"empty model", "", []string{VectorKey(1)}, [][]float32{good}, "model"},
		{"long model", strings.Repeat("m", store.MaxModelBytes+1), []string{VectorKey(1)}, [][]float32{good}, "model"},
		{"count mismatch", "m", []string{VectorKey(1), VectorKey(2)}, [][]float32{good}, ""},
		{"short key", "m", []string{VectorKey(1), "abc"}, [][]float32{good, good}, "vector key"},
		{"upper-case key", "m", []string{strings.ToUpper(VectorKey(1))}, [][]float32{good}, "vector key"},
		{"non-hex key", "m", []string{strings.Repeat("g", 64)}, [][]float32{good}, "vector key"},
		{"empty vector", "m", []string{VectorKey(1), VectorKey(2)}, [][]float32{good, {}}, "vector"},
		{"too long vector", "m", []string{VectorKey(1)}, [][]float32{make([]float32, store.MaxVectorDim+1)}, "vector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.PutVectors(ctx, tt.model, tt.keys, tt.vecs)
			if !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("PutVectors = %v, want ErrInvalid", err)
			}
			var fe *store.FieldError
			if tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field) {
				t.Fatalf("PutVectors = %v, want a FieldError for %q", err, tt.field)
			}
			if tt.model != "" && len(tt.model) <= store.MaxModelBytes {
				if got := LoadAll(t, s, tt.model); len(got) != 0 {
					t.Fatalf("a refused call stored %d vectors", len(got))
				}
			}
		})
	}
	if err := s.DeleteVectors(ctx, "m", []string{"nope"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("DeleteVectors with a bad key = %v, want ErrInvalid", err)
	}
	if err := s.LoadVectors(ctx, "", func(string, []float32) error { return nil }); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("LoadVectors of an empty model = %v, want ErrInvalid", err)
	}
}

func testVectorsCallback(t *testing.T, s VectorBackend) {
	keys, vecs := RandVectors(rand.New(rand.NewPCG(9, 10)), 0, 5, 3)
	MustPutVectors(t, s, "m", keys, vecs)

	// fn's error stops the load and comes back unchanged, not wrapped.
	stop := errors.New("stop")
	calls := 0
	err := s.LoadVectors(ctx, "m", func(string, []float32) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Fatalf("LoadVectors = %v after %d calls, want the callback's error after 1", err, calls)
	}

	// fn may write to the store, to another model and to the one being
	// loaded: no transaction or lock is held while it runs.
	err = s.LoadVectors(ctx, "m", func(k string, v []float32) error {
		if err := s.PutVectors(ctx, "copy", []string{k}, [][]float32{v}); err != nil {
			return err
		}
		return s.PutVectors(ctx, "m", []string{k}, [][]float32{v})
	})
	if err != nil {
		t.Fatalf("LoadVectors with a writing callback: %v", err)
	}
	CheckVectorsEqual(t, LoadAll(t, s, "copy"), keys, vecs)
	CheckVectorsEqual(t, LoadAll(t, s, "m"), keys, vecs)

	// Vectors handed to fn are its own: changing one changes nothing stored.
	for _, v := range LoadAll(t, s, "m") {
		v[0] = 42
	}
	CheckVectorsEqual(t, LoadAll(t, s, "m"), keys, vecs)
}

func testVectorsClosedAndCancelled(t *testing.T, s VectorBackend) {
	keys, vecs := RandVectors(rand.New(rand.NewPCG(11, 12)), 0, 1, 3)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	noop := func(string, []float32) error { return nil }
	check := func(want error, c context.Context) {
		t.Helper()
		errs := map[string]error{
			"PutVectors":    s.PutVectors(c, "m", keys, vecs),
			"LoadVectors":   s.LoadVectors(c, "m", noop),
			"DeleteVectors": s.DeleteVectors(c, "m", keys),
		}
		names := make([]string, 0, len(errs))
		for n := range errs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !errors.Is(errs[n], want) {
				t.Errorf("%s = %v, want %v", n, errs[n], want)
			}
		}
	}
	check(context.Canceled, cctx)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	check(store.ErrClosed, ctx)
}

// Writers of two models and readers run at once; every load sees whole
// vectors only, and in the end everything written is there.
func testVectorsConcurrent(t *testing.T, s VectorBackend) {
	const writers, batches, per, dim = 4, 5, 20, 16
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for w := range writers {
		model := fmt.Sprint("m", w%2)
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 0))
			for b := range batches {
				keys, vecs := RandVectors(r, (w*batches+b)*per, per, dim)
				if err := s.PutVectors(ctx, model, keys, vecs); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range batches {
				err := s.LoadVectors(ctx, model, func(k string, v []float32) error {
					if len(v) != dim {
						return fmt.Errorf("vector %s has %d dims", k, len(v))
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for m := range 2 {
		if got := LoadAll(t, s, fmt.Sprint("m", m)); len(got) != writers/2*batches*per {
			t.Fatalf("model m%d: %d vectors, want %d", m, len(got), writers/2*batches*per)
		}
	}
}
