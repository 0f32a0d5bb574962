package bench

import (
	"fmt"
	"strings"

	"github.com/recallhq/recall/index"
)

// SplitList splits a comma-separated flag value into its trimmed,
// non-empty items.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// RecallModes returns recall's modes by name: ModeBM25 (segmenter off),
// ModeBM25GSE (gse segmentation) and ModeFusion (bigrams fused with
// opts.Retrieve.Embedder, which it requires). The BM25 modes never embed;
// fusion is named after the embedder's provider ("fusion-hash").
func RecallModes(names []string, opts RecallOptions) ([]Mode, error) {
	var modes []Mode
	for _, n := range names {
		o := opts
		name := n
		switch n {
		case ModeBM25:
			o.Retrieve.Segmentation = index.SegmentOff
			o.Retrieve.Embedder, o.Retrieve.Vectors = nil, nil
		case ModeBM25GSE:
			o.Retrieve.Segmentation = index.SegmentOn
			o.Retrieve.Embedder, o.Retrieve.Vectors = nil, nil
		case ModeFusion:
			if o.Retrieve.Embedder == nil {
				return nil, ErrNoEmbedder
			}
			o.Retrieve.Segmentation = index.SegmentOff
			provider, _, _ := strings.Cut(o.Retrieve.Embedder.Model(), ":")
			name = ModeFusion + "-" + provider
		default:
			return nil, fmt.Errorf("unknown mode %q (want %s, %s or %s)", n, ModeBM25, ModeBM25GSE, ModeFusion)
		}
		modes = append(modes, RecallMode(name, o))
	}
	return modes, nil
}
