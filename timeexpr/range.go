package timeexpr

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Range is the half-open interval [From, To); a zero From or To is open on
// that side.
type Range struct{ From, To time.Time }

// Contains reports whether t lies in r: From <= t (unless From is zero) and
// t < To (unless To is zero).
func (r Range) Contains(t time.Time) bool {
	if !r.From.IsZero() && t.Before(r.From) {
		return false
	}
	if !r.To.IsZero() && !t.Before(r.To) {
		return false
	}
	return true
}

// Match is the time phrase recognised in a query.
type Match struct {
	Start, End int    // byte offsets of the whole phrase in the query (prepositions included: "in May", "since March")
	Text       string // query[Start:End]
	Range      Range
}

// Without returns query with m's phrase taken out (whitespace tidied).
//
// The text on both sides of the phrase is joined with one space when the
// phrase was set off by white space on either side, and directly otherwise
// (Chinese: "上周去了哪里" gives "去了哪里"); no space is kept before closing
// punctuation ("what did I eat last week?" gives "what did I eat?"). The
// result is trimmed of white space at both ends. When m does not describe
// a phrase of query (offsets out of range, or Text is not query[Start:End])
// query is returned unchanged.
func Without(query string, m Match) string {
	if m.Start < 0 || m.End > len(query) || m.Start >= m.End || query[m.Start:m.End] != m.Text {
		return query
	}
	left, right := query[:m.Start], query[m.End:]
	lt := strings.TrimRightFunc(left, unicode.IsSpace)
	rt := strings.TrimLeftFunc(right, unicode.IsSpace)
	spaced := len(lt) < len(left) || len(rt) < len(right)
	if lt == "" || rt == "" {
		return strings.TrimSpace(lt + rt)
	}
	r, _ := utf8.DecodeRuneInString(rt)
	if spaced && !closingPunct(r) {
		return strings.TrimSpace(lt + " " + rt)
	}
	return strings.TrimSpace(lt + rt)
}

func closingPunct(r rune) bool {
	switch r {
	case '?', '!', '.', ',', ';', ':', ')', ']', '}', '？', '！', '。', '，', '；', '：', '）', '、':
		return true
	}
	return false
}

// ErrInvalidDate is wrapped by every error of ParseDate.
var ErrInvalidDate = errors.New("invalid date")

// ParseDate reads YYYY-MM-DD (midnight in loc) or RFC 3339, with an error
// naming what is wrong. Surrounding white space is ignored. A nil loc is
// UTC. An RFC 3339 time keeps its own offset; compare it with time.Time's
// methods, not ==.
func ParseDate(s string, loc *time.Location) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, fmt.Errorf("%w: empty; want YYYY-MM-DD or an RFC 3339 time such as 2024-05-03T10:00:00Z", ErrInvalidDate)
	}
	if len(s) == 10 && s[4] == '-' && s[7] == '-' {
		y, okY := digits(s[0:4])
		mo, okM := digits(s[5:7])
		d, okD := digits(s[8:10])
		if !okY || !okM || !okD {
			return time.Time{}, fmt.Errorf("%w %q: want YYYY-MM-DD with digits only", ErrInvalidDate, s)
		}
		if mo < 1 || mo > 12 {
			return time.Time{}, fmt.Errorf("%w %q: month %d is not 01-12", ErrInvalidDate, s, mo)
		}
		if n := daysIn(y, time.Month(mo)); d < 1 || d > n {
			return time.Time{}, fmt.Errorf("%w %q: day %d is not 01-%02d in %s %04d", ErrInvalidDate, s, d, n, time.Month(mo), y)
		}
		return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, loc), nil
	}
	if len(s) >= 11 && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') {
		t, err := time.Parse(time.RFC3339Nano, strings.Replace(s, " ", "T", 1))
		if err == nil {
			return t, nil
		}
		if !hasZone(s[11:]) {
			return time.Time{}, fmt.Errorf("%w %q: an RFC 3339 time needs a zone offset (Z or +08:00, as in 2024-05-03T10:00:00Z)", ErrInvalidDate, s)
		}
		var pe *time.ParseError
		if errors.As(err, &pe) && pe.Message != "" {
			return time.Time{}, fmt.Errorf("%w %q: not RFC 3339%s", ErrInvalidDate, s, pe.Message)
		}
		return time.Time{}, fmt.Errorf("%w %q: not RFC 3339 (want 2024-05-03T10:00:00Z or 2024-05-03T10:00:00+08:00)", ErrInvalidDate, s)
	}
	return time.Time{}, fmt.Errorf("%w %q: want YYYY-MM-DD or an RFC 3339 time such as 2024-05-03T10:00:00Z", ErrInvalidDate, s)
}

// hasZone reports whether the time-of-day part of an RFC 3339 string ends
// in Z or a numeric offset.
func hasZone(clock string) bool {
	if clock == "" {
		return false
	}
	if c := clock[len(clock)-1]; c == 'Z' || c == 'z' {
		return true
	}
	return strings.ContainsAny(clock, "+-")
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}
