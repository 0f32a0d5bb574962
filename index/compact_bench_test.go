package index_test

import (
	"fmt"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
)

// BenchmarkCompact times folding an overlay of 256 writes (half replacing
// entries, a quarter new, a quarter deletes) into a new base, as the
// engine's background compaction does, against index.Build over the same
// documents (what Compact did before it merged), back to back in
// alternating order. Metric: compact / build.
//
//	go test -run '^$' -bench Compact -benchtime 6x ./index/
func BenchmarkCompact(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		in, _, _ := inputs(n)
		o := index.Build(1, nil, in)
		for i, e := range synth.New(9, 20_000).Entries(256, 80) {
			d := in[(i*7919)%len(in)]
			switch i % 4 {
			case 0, 1:
				o = o.With(uint64(2+i), index.Input{Category: d.Category, Name: d.Name, Content: e.Content})
			case 2:
				o = o.With(uint64(2+i), index.Input{Category: e.Category, Name: e.Name + "-new", Content: e.Content})
			default:
				o = o.Without(uint64(2+i), d.Category, d.Name)
			}
		}
		var docs []index.Input
		o.Docs(func(d *index.Doc) bool {
			docs = append(docs, o.Input(d))
			return true
		})
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			var p paired
			i := 0
			for b.Loop() {
				p.run(i, func() { o.Compact() }, func() { index.Build(o.Revision(), o.Analyzer(), docs) })
				i++
			}
			p.report(b, "compact", "build")
		})
	}
}
