package index_test

import (
	"fmt"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
)

// BenchmarkWriteOverlay: writes (replacements, With) into a 100k-entry
// snapshot whose overlay already holds k replacements, the per-write cost
// a server pays as its overlay fills up towards the compaction bound
// (n/64 = 1,562 documents at 100k). Each op is a chain of 64 writes from
// that snapshot, so that occasional costs (a fold of overlay.go's recent
// level) are averaged in; ns/write is the time per write.
//
//	go test -run '^$' -bench WriteOverlay -benchtime 20x ./index/
func BenchmarkWriteOverlay(b *testing.B) {
	in, _, _ := inputs(100_000)
	base := index.Build(1, nil, in)
	repl := synth.New(9, 20_000).Entries(2_000, 80)
	const chain = 64
	for _, k := range []int{100, 800, 1400} {
		s := base
		for i := range k {
			d := in[(i*7919)%len(in)]
			s = s.With(uint64(2+i), index.Input{Category: d.Category, Name: d.Name, Content: repl[i].Content})
		}
		b.Run(fmt.Sprintf("overlay=%d", k), func(b *testing.B) {
			for b.Loop() {
				w := s
				for i := range chain {
					d := in[((k+i)*7919)%len(in)]
					w = w.With(uint64(2+k+i), index.Input{Category: d.Category, Name: d.Name, Content: repl[(k+i)%len(repl)].Content})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chain), "ns/write")
		})
	}
}
