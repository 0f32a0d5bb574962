package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Segmentation selects how CJK runs are split into terms (SPEC §3).
type Segmentation uint8

const (
	// SegmentOff always splits CJK runs into overlapping bigrams. It is the
	// zero value because it is free, deterministic and reproducible.
	SegmentOff Segmentation = iota
	// SegmentAuto uses gse dictionary segmentation when its dictionary is
	// available, bigrams otherwise. The dictionary ships inside the binary,
	// so auto behaves like on; it exists so that a build or a platform that
	// cannot load the dictionary degrades without being told.
	SegmentAuto
	// SegmentOn asks for gse segmentation. If the dictionary cannot be
	// loaded it still falls back to bigrams: an optional path never fails.
	SegmentOn
)

// String returns "off", "auto" or "on".
func (s Segmentation) String() string {
	switch s {
	case SegmentAuto:
		return "auto"
	case SegmentOn:
		return "on"
	default:
		return "off"
	}
}

// ParseSegmentation parses "off", "auto" or "on".
func ParseSegmentation(s string) (Segmentation, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "":
		return SegmentOff, nil
	case "auto":
		return SegmentAuto, nil
	case "on":
		return SegmentOn, nil
	}
	return SegmentOff, &ParseError{Value: s}
}

// ParseError reports an unknown segmentation mode.
type ParseError struct{ Value string }

func (e *ParseError) Error() string {
	return "unknown segmentation mode " + `"` + e.Value + `"` + " (want off, auto or on)"
}

// Tokenizer turns text into index terms. Queries and documents must go
// through the same Tokenizer. The zero value splits CJK with bigrams.
// A Tokenizer is safe for concurrent use.
type Tokenizer struct {
	seg Segmentation
}

// NewTokenizer returns a tokenizer with the given CJK segmentation. It does
// not load the gse dictionary: that happens once, on the first CJK text a
// segmenting tokenizer sees.
func NewTokenizer(seg Segmentation) *Tokenizer { return &Tokenizer{seg: seg} }

// Segmentation returns the mode the tokenizer was made with.
func (t *Tokenizer) Segmentation() Segmentation {
	if t == nil {
		return SegmentOff
	}
	return t.seg
}

// Tokens returns the terms of s in order, repeats included.
func (t *Tokenizer) Tokens(s string) []string {
	return t.AppendTokens(nil, s)
}

// AppendTokens appends the terms of s to dst. Returned terms may share
// memory with a normalised copy of s; clone them before keeping them for
// long next to unrelated data.
func (t *Tokenizer) AppendTokens(dst []string, s string) []string {
	dst, _ = t.appendTokens(dst, s)
	return dst
}

// appendTokens also returns EstTokens(s), which the same scan yields for
// free: the index keeps it per document so retrieve need not rescan.
func (t *Tokenizer) appendTokens(dst []string, s string) ([]string, int) {
	useSeg := t != nil && t.seg != SegmentOff
	est := 0
	scan(normalize(s), func(tok string) {
		dst = append(dst, tok)
		est++
	}, func(run string) {
		est += utf8.RuneCountInString(run)
		if useSeg {
			if words, ok := segmentCJK(run); ok {
				dst = append(dst, words...)
				return
			}
		}
		dst = appendBigrams(dst, run)
	})
	return dst, est
}

// EstTokens estimates how many LLM tokens s costs, as SPEC §7 defines it:
// one per non-CJK word and one per CJK character. Deliberately crude and
// stable; not billing-grade.
func EstTokens(s string) int {
	n := 0
	scan(normalize(s), func(string) { n++ }, func(run string) {
		n += utf8.RuneCountInString(run)
	})
	return n
}

// normalize applies NFKC and lower-casing. ASCII text, by far the common
// case in English memories, skips the normaliser entirely.
func normalize(s string) string {
	ascii := true
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if ascii {
		if !upper {
			return s
		}
		b := make([]byte, len(s))
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[i] = c
		}
		return string(b)
	}
	if !norm.NFKC.IsNormalString(s) {
		s = norm.NFKC.String(s)
	}
	return strings.ToLower(s)
}

// scan splits normalised text into non-CJK words and CJK runs.
func scan(s string, word func(string), cjk func(string)) {
	const (
		none = iota
		inWord
		inCJK
	)
	state, start := none, 0
	flush := func(end int) {
		switch state {
		case inWord:
			word(s[start:end])
		case inCJK:
			cjk(s[start:end])
		}
		state = none
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || ('A' <= c && c <= 'Z') {
				if state != inWord {
					flush(i)
					state, start = inWord, i
				}
			} else {
				flush(i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case isCJK(r):
			if state != inCJK {
				flush(i)
				state, start = inCJK, i
			}
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r):
			if state != inWord {
				flush(i)
				state, start = inWord, i
			}
		default:
			flush(i)
		}
		i += n
	}
	flush(len(s))
}

// IsCJK reports whether r belongs to a CJK run (SPEC §3: Han, Hiragana,
// Katakana, Hangul and 'ー').
func IsCJK(r rune) bool { return isCJK(r) }

func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return r == 'ー' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// appendBigrams appends the overlapping character bigrams of a CJK run; a
// run of one character yields that character.
func appendBigrams(dst []string, run string) []string {
	_, first := utf8.DecodeRuneInString(run)
	if first == len(run) {
		return append(dst, run)
	}
	prev := 0
	cur := first
	for cur < len(run) {
		_, n := utf8.DecodeRuneInString(run[cur:])
		dst = append(dst, run[prev:cur+n])
		prev = cur
		cur += n
	}
	return dst
}
