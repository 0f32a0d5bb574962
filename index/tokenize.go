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
