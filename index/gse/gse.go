package gse

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	gseseg "github.com/go-ego/gse"

	"github.com/recallhq/recall/index"
)

// Embedded dictionaries.
const (
	// DictSimplified is simplified Chinese: about 2 s and 135 MB to load.
	DictSimplified = "zh_s"
	// DictAll is simplified and traditional Chinese: about 5.6 s and 205 MB.
	DictAll = "zh"
)

// Mode selects whether CJK runs are segmented with gse (SPEC §3).
type Mode uint8

const (
	// ModeOff never segments and never loads the dictionary: bigrams, free,
	// deterministic and reproducible. The zero value.
	ModeOff Mode = iota
	// ModeAuto uses gse when its dictionary is available, bigrams
	// otherwise. The dictionary ships inside the binary, so auto behaves
	// like on; it exists so that a build or a platform that cannot load it
	// degrades without being told.
	ModeAuto
	// ModeOn asks for gse. If the dictionary cannot be loaded it still
	// falls back to bigrams: an optional path never fails.
	ModeOn
)

// String returns "off", "auto" or "on".
func (m Mode) String() string {
	switch m {
	case ModeAuto:
		return "auto"
	case ModeOn:
		return "on"
	default:
		return "off"
	}
}

// ParseMode parses "off", "auto" or "on"; "" is off.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "":
		return ModeOff, nil
	case "auto":
		return ModeAuto, nil
	case "on":
		return ModeOn, nil
	}
	return ModeOff, fmt.Errorf("unknown segmentation mode %q (want off, auto or on)", s)
}

// Apply returns a with gse segmentation of dict ("" means DictSimplified)
// when m is auto or on, and a unchanged when m is off. Nothing is loaded
// until the analyzer meets CJK text.
func Apply(a *index.Analyzer, m Mode, dict string) *index.Analyzer {
	if m == ModeOff {
		return a
	}
	return a.WithSegmenter(New(dict))
}

// Segmenter is an index.Segmenter backed by a gse dictionary shared by
// every Segmenter of the same dictionary in the process. It is safe for
// concurrent use.
type Segmenter struct{ dict string }

var _ index.Segmenter = (*Segmenter)(nil)

// New returns a segmenter over the embedded dictionary dict (DictSimplified
// when empty). It loads nothing yet.
func New(dict string) *Segmenter {
	if dict == "" {
		dict = DictSimplified
	}
	return &Segmenter{dict: dict}
}

// Name is "gse:" and the dictionary.
func (s *Segmenter) Name() string { return "gse:" + s.dict }

// Dict is the dictionary the segmenter loads.
func (s *Segmenter) Dict() string { return s.dict }

// Segment splits a CJK run into dictionary words with gse's search mode,
// which adds the sub-words of long words so that queries using either
// form match. ok is false when the dictionary is unavailable.
func (s *Segmenter) Segment(dst []string, run string) ([]string, bool) {
	seg := load(s.dict)
	if seg == nil {
		return dst, false
	}
	for _, w := range seg.CutSearch(run, true) {
		if w = strings.TrimSpace(w); w != "" {
			dst = append(dst, w)
		}
	}
	return dst, true
}

// Load loads the segmenter's dictionary now, if it is not loaded yet, and
// reports whether it is available: for callers that would rather pay the
// load up front (a server at start, a benchmark outside its timings).
func (s *Segmenter) Load() bool { return load(s.dict) != nil }

// Loaded reports whether any gse dictionary has been loaded in this process
// (for diagnostics and tests of laziness).
func Loaded() bool { return loaded.Load() }

var (
	mu     sync.Mutex
	dicts  = map[string]*dictOnce{}
	loaded atomic.Bool
)

type dictOnce struct {
	once sync.Once
	seg  *gseseg.Segmenter
}

func load(dict string) *gseseg.Segmenter {
	mu.Lock()
	d := dicts[dict]
	if d == nil {
		d = new(dictOnce)
		dicts[dict] = d
	}
	mu.Unlock()
	d.once.Do(func() {
		defer func() {
			// A broken dictionary must never take retrieve down: fall back
			// to bigrams.
			if recover() != nil {
				d.seg = nil
			}
		}()
		seg := new(gseseg.Segmenter)
		seg.SkipLog = true
		if err := seg.LoadDictEmbed(dict); err != nil {
			return
		}
		d.seg = seg
		loaded.Store(true)
	})
	return d.seg
}
