package index

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// stemUncached is the Snowball stem of w, without the cache.
func stemUncached(w string) string {
	env := snowballstem.NewEnv(w)
	english.Stem(env)
	return env.Current()
}

// TestStemCacheUnderLoad: goroutines stemming overlapping vocabularies
// larger than the cache (so words evict each other from their slots) all
// get the Snowball stem of every word, whatever the cache holds; run
// with -race for the lock-free slots.
func TestStemCacheUnderLoad(t *testing.T) {
	suffixes := []string{"ing", "ed", "s", "ation", "ness", "ly", "ies", "er"}
	var words []string
	for i := range 2 * len(stems) / len(suffixes) {
		for _, suf := range suffixes {
			words = append(words, fmt.Sprintf("w%cq%c%c%s", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26, suf))
		}
	}
	want := make(map[string]string, len(words))
	for _, w := range words {
		want[w] = stemUncached(w)
	}
	var f englishStemmer
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pass := range 2 {
				for i := range words {
					w := words[(i*(g+1)+pass*7919)%len(words)]
					if got, _ := f.Filter(w); got != want[w] {
						errs <- fmt.Sprintf("stem of %q = %q, want %q", w, got, want[w])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestStemCacheLongWords: a long run of letters (odd input: an encoded
// blob without digits) is stemmed but not kept by the process-wide cache,
// which would otherwise hold up to 32,768 such words and their stems for
// the life of the process.
func TestStemCacheLongWords(t *testing.T) {
	var f englishStemmer
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := range 8 {
		w := strings.Repeat("abcdefgh"[i:i+1]+"xyzzyq", 1<<16) + "ing" // 384 KB
		if got, want := func() string { s, _ := f.Filter(w); return s }(), stemUncached(w); got != want {
			t.Fatalf("stem of a %d-byte word differs from Snowball's", len(w))
		}
	}
	if grown := int64(heap()) - int64(before); grown > 1<<20 {
		t.Fatalf("stemming 8 words of 384 KB left the heap %d KB larger", grown>>10)
	}
}
