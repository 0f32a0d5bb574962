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
// Every phrase of the grammar holds an anchor: a digit, an English word
// naming a unit, a part of the day, a month or a weekday, or one of the
// characters 天周期拜月年晚夜早. Find first looks for the last anchor of
// query, and returns at once when there is none; then it scans query left
// to right up to that anchor, and at each word start (English) or trigger
// character (Chinese) tries the grammar of docs/time.md, returning the
// longest phrase that starts there. It allocates nothing but
// the returned Match and is safe for concurrent use.
func Find(query string, now time.Time) (m Match, ok bool) {
	last := lastAnchor(query)
	for i := 0; i <= last; {
		c := query[i]
		if c < utf8.RuneSelf {
			if !isAlnum(c) {
				i++
				continue
			}
			if wordBoundaryBefore(query, i) && mayStart(query, i) {
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

// wordBoundaryBefore reports whether a word or number may start at i: the
// rune before is not part of a word, and a digit does not continue a
// number through a separator ("2.5", "1,000").
func wordBoundaryBefore(q string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(q[:i])
	if isDigit(q[i]) && i >= 2 && isDigit(q[i-2]) {
		switch r {
		case '.', ',', ':', '-', '/':
			return false
		}
	}
	return !wordRune(r)
}

func wordBoundaryAfter(q string, i int) bool {
	if i >= len(q) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(q[i:])
	return !wordRune(r)
}

// lastAnchor is the offset of the last anchor of q (see Find), or -1.
func lastAnchor(q string) int {
	last := -1
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case isDigit(c):
			last = i
			for i++; i < len(q) && isDigit(q[i]); i++ {
			}
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			j := i + 1
			for j < len(q) && q[j]|0x20 >= 'a' && q[j]|0x20 <= 'z' {
				j++
			}
			if isAnchorWord(q[i:j]) {
				last = i
			}
			i = j
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(q[i:])
			switch r {
			case '天', '周', '週', '期', '拜', '月', '年', '晚', '夜', '早',
				'０', '１', '２', '３', '４', '５', '６', '７', '８', '９':
				last = i
			}
			i += size
		}
	}
	return last
}
