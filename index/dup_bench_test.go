package index_test

import (
	"fmt"
	"testing"

	"github.com/recallhq/recall/index"
)

// BenchmarkBuildDuplicates is a full build (the bulk detection of an
// import or a reindex) at 100k entries, 1% of them copies of another,
// with duplicate detection on and off, alternated in one run:
//
//	go test -run XXX -bench BuildDuplicates -count 4 ./index/
func BenchmarkBuildDuplicates(b *testing.B) {
	in := withCopies(100_000)
	tok := index.EnglishStop()
	for _, off := range []bool{false, true} {
		b.Run(fmt.Sprintf("nodup=%v", off), func(b *testing.B) {
			for b.Loop() {
				index.BuildWith(1, tok, in, index.BuildOptions{NoDuplicates: off})
			}
		})
	}
}

// BenchmarkWithDuplicates is one write (With) into a 100k-entry snapshot,
// detection on and off.
func BenchmarkWithDuplicates(b *testing.B) {
	in := withCopies(100_000)
	tok := index.EnglishStop()
	for _, off := range []bool{false, true} {
		b.Run(fmt.Sprintf("nodup=%v", off), func(b *testing.B) {
			s := index.BuildWith(1, tok, in, index.BuildOptions{NoDuplicates: off})
			i := 0
			for b.Loop() {
				d := in[(i*7919)%len(in)]
				s.With(2, index.Input{Category: d.Category, Name: d.Name + "-w", Content: d.Content + " written"})
				i++
			}
		})
	}
}

// withCopies is the synthetic corpus with every 100th entry a copy of
// the entry before it under another name.
func withCopies(n int) []index.Input {
	in, _, _ := inputs(n)
	for i := 100; i < len(in); i += 100 {
		in[i].Content = in[i-1].Content
	}
	return in
}
