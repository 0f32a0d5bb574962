package index

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-ego/gse"
)

// The gse dictionary costs seconds and well over 100 MB to load, so it is
// loaded at most once per process, and only when a segmenting tokenizer
// meets CJK text.
var (
	gseOnce sync.Once
	gseSeg  *gse.Segmenter
)

// GSEDictionary chooses which embedded gse dictionary is loaded: "zh_s"
// (simplified Chinese, the default: about 2 s and 135 MB) or "zh" (simplified
// and traditional: about 5.6 s and 205 MB). Set it before the first
// segmenting tokenizer sees CJK text; later changes have no effect.
var GSEDictionary = "zh_s"

func loadGSE() *gse.Segmenter {
	gseOnce.Do(func() {
		defer func() {
			// A broken dictionary must never take retrieve down: fall back
			// to bigrams.
			if recover() != nil {
				gseSeg = nil
			}
		}()
		seg := new(gse.Segmenter)
		seg.SkipLog = true
		if err := seg.LoadDictEmbed(GSEDictionary); err != nil {
			return
		}
		gseSeg = seg
		gseLoaded.Store(true)
	})
	return gseSeg
}

// SegmenterLoaded reports whether the gse dictionary has been loaded in this
// process (for diagnostics and tests of laziness).
func SegmenterLoaded() bool { return gseLoaded.Load() }

var gseLoaded atomic.Bool

// segmentCJK splits a CJK run into dictionary words with gse's search mode,
// which adds the sub-words of long words so that queries using either form
// match. ok is false when the dictionary is unavailable.
func segmentCJK(run string) (words []string, ok bool) {
	seg := loadGSE()
	if seg == nil {
		return nil, false
	}
	for _, w := range seg.CutSearch(run, true) {
		w = strings.TrimSpace(w)
		if w != "" {
			words = append(words, w)
		}
	}
	return words, true
}
