package timeexpr

import (
	"time"
	"unicode"
	"unicode/utf8"
)

// Find returns the first time phrase of query, read relative to now;
// calendar days are those of now.Location(). ok is false when the query
// holds no phrase that is clearly a time.
//
// Find scans query once, left to right; at each word start (English) or
// trigger character (Chinese) it tries the grammar of the package doc and
// returns the longest phrase that starts there. It allocates nothing but
// the returned Match and is safe for concurrent use.
func Find(query string, now time.Time) (m Match, ok bool) {
	for i := 0; i < len(query); {
		c := query[i]
		if c < utf8.RuneSelf {
			if !isAlnum(c) {
				i++
				continue
			}
			if wordBoundaryBefore(query, i) {
				if r, end, ok := matchEnglish(query, i, now); ok {
					return newMatch(query, i, end, r), true
				}
				if c >= '0' && c <= '9' {
					if r, end, ok := matchChinese(query, i, now); ok {
						return newMatch(query, i, end, r), true
					}
				}
			}
			for i++; i < len(query) && isAlnum(query[i]); i++ {
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(query[i:])
		if zhStarts(r) {
			if rg, end, ok := matchChinese(query, i, now); ok {
				return newMatch(query, i, end, rg), true
			}
		}
		i += size
	}
	return Match{}, false
}

func newMatch(q string, start, end int, r Range) Match {
	return Match{Start: start, End: end, Text: q[start:end], Range: r}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isCJK reports whether r is written without spaces between words (Han,
// kana, hangul): an English phrase may touch it ("yesterday的会议").
func isCJK(r rune) bool {
	return r >= 0x2E80 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7AF || r >= 0xF900 && r <= 0xFAFF || r >= 0xFF00 && r <= 0xFFEF || r >= 0x20000 && r <= 0x3FFFF
}

// wordRune reports whether r continues a word of a spaced script.
func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isAlnum(byte(r))
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) && !isCJK(r)
}

func wordBoundaryBefore(q string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(q[:i])
	return !wordRune(r)
}

func wordBoundaryAfter(q string, i int) bool {
	if i >= len(q) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(q[i:])
	return !wordRune(r)
}
