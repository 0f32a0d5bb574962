package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

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

// normalize applies NFKC and lower-casing. Text made only of ASCII, the
// common CJK scripts and full-width ASCII forms (by far the common case,
// in English and in Chinese memories alike) skips the normaliser: see
// simpleNormal.
func normalize(s string) string {
	if out, ok := simpleNormal(s); ok {
		return out
	}
	if !norm.NFKC.IsNormalString(s) {
		s = norm.NFKC.String(s)
	}
	return strings.ToLower(s)
}

// simpleNormal is normalize of s when every rune of s is ASCII, a
// caseless rune that NFKC leaves alone and that composes with nothing
// (stableRune), or a full-width form of ASCII (U+FF01..U+FF5E, which NFKC
// maps to the ASCII character 0xFEE0 below). Such runes are starters
// that neither compose with their neighbours nor reorder, so the NFKC of
// s is the runes' own mappings side by side. ok is false for any other
// text, which takes the normaliser.
func simpleNormal(s string) (out string, ok bool) {
	changed := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			changed = changed || 'A' <= c && c <= 'Z'
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case stableRune(r):
		case fullWidthASCII(r):
			changed = true
		default:
			return "", false
		}
		i += n
	}
	if !changed {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if fullWidthASCII(r) {
			r -= 0xFEE0
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b = append(b, byte(r))
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b), true
}

func fullWidthASCII(r rune) bool { return 0xFF01 <= r && r <= 0xFF5E }

// stableRune reports whether NFKC and lower-casing leave r alone in any
// context: CJK ideographs, Hangul syllables, kana and the CJK brackets
// and full stops. TestSimpleNormal checks every one against the
// normaliser.
func stableRune(r rune) bool {
	switch {
	case 0x4E00 <= r && r <= 0x9FFF, // CJK Unified Ideographs
		0x3400 <= r && r <= 0x4DBF, // Extension A
		0xAC00 <= r && r <= 0xD7A3, // Hangul syllables
		0x3041 <= r && r <= 0x3096, // Hiragana
		0x30A1 <= r && r <= 0x30FA, // Katakana
		r == 0x30FC,                // prolonged sound mark
		r == 0x3001 || r == 0x3002, // ideographic comma and full stop
		0x3008 <= r && r <= 0x3011, // CJK angle, corner and lenticular brackets
		0x2018 <= r && r <= 0x201D: // curly quotes
		return true
	}
	return false
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
