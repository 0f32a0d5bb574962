package bench

import (
	"fmt"
	"strings"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
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
// opts.Retrieve.Embedder, which it requires), all with the analyzer
// opts.Retrieve.Analyzer (nil: index.Default()). The BM25 modes never
// embed; fusion is named after the embedder's provider ("fusion-hash").
// When the analyzer is not the default one its name is appended to the
// mode's: "bm25-english", "fusion-hash-english".
func RecallModes(names []string, opts RecallOptions) ([]Mode, error) {
	var modes []Mode
	base := opts.Retrieve.Analyzer
	if base == nil {
		base = index.Default()
	}
	base = base.WithSegmenter(nil)
	suffix := ""
	if base.Name() != index.DefaultAnalyzer {
		suffix = "-" + base.Name()
	}
	for _, n := range names {
		o := opts
		o.Retrieve.Analyzer = base
		name := n
		switch n {
		case ModeBM25:
			o.Retrieve.Embedder, o.Retrieve.Vectors = nil, nil
		case ModeBM25PRF:
			prf := DefaultPRF
			o.PRF = &prf
			o.Retrieve.Embedder, o.Retrieve.Vectors = nil, nil
		case ModeBM25GSE:
			o.Retrieve.Analyzer = gse.Apply(base, gse.ModeOn, o.GSEDict)
			o.Retrieve.Embedder, o.Retrieve.Vectors = nil, nil
		case ModeFusion:
			if o.Retrieve.Embedder == nil {
				return nil, ErrNoEmbedder
			}
			provider, _, _ := strings.Cut(o.Retrieve.Embedder.Model(), ":")
			name = ModeFusion + "-" + provider
		default:
			return nil, fmt.Errorf("unknown mode %q (want %s, %s, %s or %s)", n, ModeBM25, ModeBM25GSE, ModeFusion, ModeBM25PRF)
		}
		modes = append(modes, RecallMode(name+suffix, o))
	}
	return modes, nil
}

// DefaultModes are the modes `recall bench` runs when none are named:
// ModeBM25 and ModeBM25GSE, with ModeFusion between them when there is an
// embedder. gse comes last: its dictionary stays in memory for the rest
// of the process and would weigh on the modes after it.
func DefaultModes(embedder bool) []string {
	if embedder {
		return []string{ModeBM25, ModeFusion, ModeBM25GSE}
	}
	return []string{ModeBM25, ModeBM25GSE}
}

// RecallModesEach returns RecallModes(names) once per analyzer (each as
// opts.Retrieve.Analyzer), in that order, except that the ModeBM25GSE
// modes of every analyzer come after all the others: gse's dictionary
// stays in memory for good. No analyzers means index.Default() alone.
func RecallModesEach(names []string, analyzers []*index.Analyzer, opts RecallOptions) ([]Mode, error) {
	if len(analyzers) == 0 {
		analyzers = []*index.Analyzer{index.Default()}
	}
	var modes, gseModes []Mode
	for _, an := range analyzers {
		o := opts
		o.Retrieve.Analyzer = an
		ms, err := RecallModes(names, o)
		if err != nil {
			return nil, err
		}
		for i, m := range ms {
			if names[i] == ModeBM25GSE {
				gseModes = append(gseModes, m)
			} else {
				modes = append(modes, m)
			}
		}
	}
	return append(modes, gseModes...), nil
}
