package timeexpr

import "time"

// The English grammar. Words are compared case-insensitively except where
// the package doc says otherwise; a phrase starts and ends at word
// boundaries.

type keyword uint8

const (
	kwNone keyword = iota
	kwEOF
	kwOther // one rune that is not a letter, a digit or a space
	kwComma
	kwNum     // a run of ASCII digits; num holds its value (capped), ndig its length
	kwNumWord // one … fifty, a, an; num holds the value
	kwMonth   // num 1-12; abbrev when the word is Jan, Feb, …
	kwWeekday // num 0 (Monday) - 6 (Sunday)
	kwDay
	kwWeek
	kwMonthUnit
	kwYear
	kwAgo
	kwToday
	kwTonight
	kwYesterday
	kwTomorrow
	kwThe
	kwThis
	kwLast
	kwNext
	kwPast
	kwNight
	kwPartOfDay // morning, afternoon, evening
	kwIn
	kwOn
	kwDuring
	kwFrom
	kwSince
	kwAfter
	kwBefore
	kwBetween
	kwAnd
	kwTo
	kwFunction // a function word that may follow a bare year ("in 2024 we")
)

type token struct {
	start, end int
	kw         keyword
	num        int
	ndig       int
	plural     bool // units: days, weeks, …
	abbrev     bool // months: Jan, Feb, …
	title      bool // words: Capitalised
	lower      bool // words: all lower case
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// tokenAt reads the token after any ASCII white space from i.
func tokenAt(q string, i int) token {
	for i < len(q) && isSpace(q[i]) {
		i++
	}
	if i >= len(q) {
		return token{start: i, end: i, kw: kwEOF}
	}
	c := q[i]
	switch {
	case isDigit(c):
		j, n := i, 0
		for j < len(q) && isDigit(q[j]) {
			if n < 1_000_000 {
				n = n*10 + int(q[j]-'0')
			}
			j++
		}
		return token{start: i, end: j, kw: kwNum, num: n, ndig: j - i}
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := i
		for j < len(q) && (q[j] >= 'a' && q[j] <= 'z' || q[j] >= 'A' && q[j] <= 'Z') {
			j++
		}
		t := token{start: i, end: j}
		if !wordBoundaryAfter(q, j) || j-i > 9 {
			return t
		}
		var buf [9]byte
		t.lower, t.title = true, c >= 'A' && c <= 'Z'
		for k := i; k < j; k++ {
			b := q[k]
			if b >= 'A' && b <= 'Z' {
				t.lower = false
				if k > i {
					t.title = false
				}
				b += 'a' - 'A'
			}
			buf[k-i] = b
		}
		lookup(&t, string(buf[:j-i]))
		return t
	case c == ',':
		return token{start: i, end: i + 1, kw: kwComma}
	}
	size := 1
	if c >= 0x80 {
		_, size = decodeRune(q[i:])
	}
	return token{start: i, end: i + size, kw: kwOther}
}

func lookup(t *token, w string) {
	set := func(kw keyword, num int) { t.kw, t.num = kw, num }
	switch w {
	case "today":
		set(kwToday, 0)
	case "tonight":
		set(kwTonight, 0)
	case "yesterday":
		set(kwYesterday, 0)
	case "tomorrow":
		set(kwTomorrow, 0)
	case "the":
		set(kwThe, 0)
	case "this":
		set(kwThis, 0)
	case "last":
		set(kwLast, 0)
	case "next":
		set(kwNext, 0)
	case "past":
		set(kwPast, 0)
	case "night":
		set(kwNight, 0)
	case "morning", "afternoon", "evening":
		set(kwPartOfDay, 0)
	case "ago":
		set(kwAgo, 0)
	case "in":
		set(kwIn, 0)
	case "on":
		set(kwOn, 0)
	case "during":
		set(kwDuring, 0)
	case "from":
		set(kwFrom, 0)
	case "since":
		set(kwSince, 0)
	case "after":
		set(kwAfter, 0)
	case "before":
		set(kwBefore, 0)
	case "between":
		set(kwBetween, 0)
	case "and":
		set(kwAnd, 0)
	case "to", "until", "till", "through":
		set(kwTo, 0)
	case "day", "days":
		set(kwDay, 0)
		t.plural = len(w) == 4
	case "week", "weeks":
		set(kwWeek, 0)
		t.plural = len(w) == 5
	case "month", "months":
		set(kwMonthUnit, 0)
		t.plural = len(w) == 6
	case "year", "years":
		set(kwYear, 0)
		t.plural = len(w) == 5
	case "a", "an", "one":
		set(kwNumWord, 1)
	case "two":
		set(kwNumWord, 2)
	case "three":
		set(kwNumWord, 3)
	case "four":
		set(kwNumWord, 4)
	case "five":
		set(kwNumWord, 5)
	case "six":
		set(kwNumWord, 6)
	case "seven":
		set(kwNumWord, 7)
	case "eight":
		set(kwNumWord, 8)
	case "nine":
		set(kwNumWord, 9)
	case "ten":
		set(kwNumWord, 10)
	case "eleven":
		set(kwNumWord, 11)
	case "twelve":
		set(kwNumWord, 12)
	case "thirteen":
		set(kwNumWord, 13)
	case "fourteen":
		set(kwNumWord, 14)
	case "fifteen":
		set(kwNumWord, 15)
	case "sixteen":
		set(kwNumWord, 16)
	case "seventeen":
		set(kwNumWord, 17)
	case "eighteen":
		set(kwNumWord, 18)
	case "nineteen":
		set(kwNumWord, 19)
	case "twenty":
		set(kwNumWord, 20)
	case "thirty":
		set(kwNumWord, 30)
	case "forty":
		set(kwNumWord, 40)
	case "fifty":
		set(kwNumWord, 50)
	case "january":
		set(kwMonth, 1)
	case "february":
		set(kwMonth, 2)
	case "march":
		set(kwMonth, 3)
	case "april":
		set(kwMonth, 4)
	case "may":
		set(kwMonth, 5)
	case "june":
		set(kwMonth, 6)
	case "july":
		set(kwMonth, 7)
	case "august":
		set(kwMonth, 8)
	case "september":
		set(kwMonth, 9)
	case "october":
		set(kwMonth, 10)
	case "november":
		set(kwMonth, 11)
	case "december":
		set(kwMonth, 12)
	case "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec":
		set(kwMonth, abbrevMonth(w))
		t.abbrev = true
	case "monday":
		set(kwWeekday, 0)
	case "tuesday":
		set(kwWeekday, 1)
	case "wednesday":
		set(kwWeekday, 2)
	case "thursday":
		set(kwWeekday, 3)
	case "friday":
		set(kwWeekday, 4)
	case "saturday":
		set(kwWeekday, 5)
	case "sunday":
		set(kwWeekday, 6)
	case "i", "we", "you", "he", "she", "they", "it", "my", "our", "his", "her", "their",
		"or", "but", "when", "while", "with", "at", "for", "about", "of",
		"was", "were", "is", "did", "had", "have", "has", "so", "then", "there",
		"that", "what", "where", "how", "who", "why", "which", "as", "by", "vs":
		set(kwFunction, 0)
	}
}

func abbrevMonth(w string) int {
	switch w[:3] {
	case "jan":
		return 1
	case "feb":
		return 2
	case "mar":
		return 3
	case "apr":
		return 4
	case "jun":
		return 6
	case "jul":
		return 7
	case "aug":
		return 8
	case "sep":
		return 9
	case "oct":
		return 10
	case "nov":
		return 11
	}
	return 12
}

// matchEnglish reads the longest English phrase starting at i, a word
// start, and returns its range and end offset.
func matchEnglish(q string, i int, now time.Time) (Range, int, bool) {
	r, end, ok := matchEnglishPhrase(q, i, now)
	if !ok {
		return Range{}, 0, false
	}
	// A possessive stays with its phrase: "last week's notes".
	if end+2 <= len(q) && q[end] == '\'' && (q[end+1] == 's' || q[end+1] == 'S') && wordBoundaryAfter(q, end+2) {
		end += 2
	} else if end+4 <= len(q) && q[end:end+3] == "’" && (q[end+3] == 's' || q[end+3] == 'S') && wordBoundaryAfter(q, end+4) {
		end += 4
	}
	return r, end, true
}

func matchEnglishPhrase(q string, i int, now time.Time) (Range, int, bool) {
	t := tokenAt(q, i)
	switch t.kw {
	case kwIn, kwOn, kwDuring:
		return parseDate(q, t.end, now, true, time.Time{})
	case kwFrom:
		d1, e1, ok := parseDate(q, t.end, now, true, time.Time{})
		if !ok {
			return Range{}, 0, false
		}
		if u := tokenAt(q, e1); u.kw == kwTo {
			if d2, e2, ok := parseDate(q, u.end, now, true, d1.From); ok && d1.From.Before(d2.To) {
				return Range{d1.From, d2.To}, e2, true
			}
		}
		return d1, e1, true
	case kwSince:
		d, e, ok := parseDate(q, t.end, now, true, time.Time{})
		return Range{From: d.From}, e, ok
	case kwAfter:
		d, e, ok := parseDate(q, t.end, now, true, time.Time{})
		return Range{From: d.To}, e, ok
	case kwBefore:
		d, e, ok := parseDate(q, t.end, now, true, time.Time{})
		return Range{To: d.From}, e, ok
	case kwBetween:
		d1, e1, ok := parseDate(q, t.end, now, true, time.Time{})
		if !ok {
			return Range{}, 0, false
		}
		u := tokenAt(q, e1)
		if u.kw != kwAnd {
			return Range{}, 0, false
		}
		d2, e2, ok := parseDate(q, u.end, now, true, d1.From)
		if !ok || !d1.From.Before(d2.To) {
			return Range{}, 0, false
		}
		return Range{d1.From, d2.To}, e2, true
	}
	return parseDate(q, i, now, false, time.Time{})
}

// parseDate reads one date phrase from i: a day, week, month or year.
// prep says a preposition came before it, which admits the forms that are
// times only after one: a bare month ("in May"), a bare year ("in 2024"),
// a weekday ("on Monday"), a month and day without a year ("since May 3").
// after, when set, resolves those forms forward from it instead of back
// from now (the second end of "between March and May").
func parseDate(q string, i int, now time.Time, prep bool, after time.Time) (Range, int, bool) {
	loc := now.Location()
	t := tokenAt(q, i)
	switch t.kw {
	case kwToday, kwTonight:
		return dayOf(now, 0), t.end, true
	case kwYesterday:
		return dayOf(now, -1), t.end, true
	case kwTomorrow:
		return dayOf(now, 1), t.end, true
	case kwThe:
		return parseDayBeforeAfter(q, t.end, now)
	case kwDay:
		return parseDayBeforeAfter(q, t.start, now)
	case kwLast, kwThis, kwNext:
		return parseRelative(q, t, now)
	case kwNum, kwNumWord:
		if r, e, ok := parseAgo(q, t, now); ok {
			return r, e, true
		}
		if t.kw != kwNum {
			return Range{}, 0, false
		}
		if t.ndig == 4 {
			if r, e, ok := parseNumericDate(q, t.start, loc); ok {
				return r, e, true
			}
			if prep && t.num >= 1900 && t.num < 2200 && numberEnds(q, t.end) && yearFollows(q, t.end) {
				return yearRange(t.num, loc), t.end, true
			}
			return Range{}, 0, false
		}
		return parseDayMonth(q, t, now, prep, after)
	case kwMonth:
		return parseMonth(q, t, now, prep, after)
	case kwWeekday:
		if prep {
			return recentWeekday(now, t.num, false, after), t.end, true
		}
	}
	return Range{}, 0, false
}

// parseDayBeforeAfter reads "day before yesterday" / "day after tomorrow"
// from i.
func parseDayBeforeAfter(q string, i int, now time.Time) (Range, int, bool) {
	d := tokenAt(q, i)
	if d.kw != kwDay || d.plural {
		return Range{}, 0, false
	}
	p := tokenAt(q, d.end)
	w := tokenAt(q, p.end)
	switch {
	case p.kw == kwBefore && w.kw == kwYesterday:
		return dayOf(now, -2), w.end, true
	case p.kw == kwAfter && w.kw == kwTomorrow:
		return dayOf(now, 2), w.end, true
	}
	return Range{}, 0, false
}

// parseRelative reads this/last/next followed by a unit, a weekday, a
// month or a part of the day.
func parseRelative(q string, t token, now time.Time) (Range, int, bool) {
	u := tokenAt(q, t.end)
	off := 0
	switch t.kw {
	case kwLast:
		off = -1
	case kwNext:
		off = 1
	}
	switch u.kw {
	case kwWeek:
		if !u.plural {
			return weekOf(now, off), u.end, true
		}
	case kwMonthUnit:
		if !u.plural {
			return monthOf(now, off), u.end, true
		}
	case kwYear:
		if !u.plural {
			return yearRange(now.Year()+off, now.Location()), u.end, true
		}
	case kwNight:
		switch t.kw {
		case kwLast:
			return dayOf(now, -1), u.end, true
		case kwThis:
			return dayOf(now, 0), u.end, true
		}
	case kwPartOfDay:
		if t.kw == kwThis {
			return dayOf(now, 0), u.end, true
		}
	case kwWeekday:
		switch t.kw {
		case kwLast:
			return recentWeekday(now, u.num, true, time.Time{}), u.end, true
		case kwThis:
			wk := weekOf(now, 0).From
			return dateRange(wk.Year(), wk.Month(), wk.Day()+u.num, now.Location()), u.end, true
		}
	case kwMonth:
		if u.abbrev {
			break
		}
		m := time.Month(u.num)
		switch t.kw {
		case kwLast:
			y := now.Year()
			if m >= now.Month() {
				y--
			}
			return monthRange(y, m, now.Location()), u.end, true
		case kwThis:
			return monthRange(now.Year(), m, now.Location()), u.end, true
		}
	}
	return Range{}, 0, false
}

// parseAgo reads "N days/weeks/months/years ago" with t the number: the
// calendar day, ISO week, calendar month or calendar year N units back.
func parseAgo(q string, t token, now time.Time) (Range, int, bool) {
	if t.kw == kwNum && (t.ndig > 5 || !numberEnds(q, t.end)) {
		return Range{}, 0, false
	}
	n := t.num
	u := tokenAt(q, t.end)
	a := tokenAt(q, u.end)
	if a.kw != kwAgo || n < 1 {
		return Range{}, 0, false
	}
	switch u.kw {
	case kwDay:
		if n <= 100_000 {
			return dayOf(now, -n), a.end, true
		}
	case kwWeek:
		if n <= 10_000 {
			return weekOf(now, -n), a.end, true
		}
	case kwMonthUnit:
		if n <= 12_000 {
			return monthOf(now, -n), a.end, true
		}
	case kwYear:
		if n < now.Year() {
			return yearRange(now.Year()-n, now.Location()), a.end, true
		}
	}
	return Range{}, 0, false
}

// numberEnds reports whether a digit run ending at i is a whole number:
// not followed by a letter, nor by a separator and a digit ("2024.5",
// "1,000", "10:30").
func numberEnds(q string, i int) bool {
	if !wordBoundaryAfter(q, i) {
		return false
	}
	if i+1 < len(q) && isDigit(q[i+1]) {
		switch q[i] {
		case '.', ',', ':', '-', '/':
			return false
		}
	}
	return true
}

// yearFollows reports whether what follows a bare year at i leaves it a
// year: the end of the query, punctuation, a capitalised word or a
// function word ("in 2024 we moved"), but not another word ("in 2000
// steps") or a number.
func yearFollows(q string, i int) bool {
	u := tokenAt(q, i)
	switch u.kw {
	case kwEOF, kwComma, kwOther, kwFunction, kwAnd, kwTo, kwThe, kwIn, kwOn, kwDuring, kwFrom, kwSince, kwAfter, kwBefore:
		return true
	case kwNum:
		return false
	}
	return u.title || (!u.lower && u.end > u.start)
}

// parseNumericDate reads YYYY-MM-DD, YYYY/MM/DD (a day) or YYYY-MM,
// YYYY/MM (a month) at i; the fields must be valid and the number must end
// there ("2024-05-03T10" and "2024-05-031" are not dates).
func parseNumericDate(q string, i int, loc *time.Location) (Range, int, bool) {
	if i+7 > len(q) {
		return Range{}, 0, false
	}
	sep := q[i+4]
	if sep != '-' && sep != '/' {
		return Range{}, 0, false
	}
	y, _ := digits(q[i : i+4])
	mo, e, ok := smallNumber(q, i+5)
	if !ok || mo < 1 || mo > 12 || y < 1000 {
		return Range{}, 0, false
	}
	if e < len(q) && q[e] == sep {
		d, e2, ok := smallNumber(q, e+1)
		if !ok || d < 1 || d > daysIn(y, time.Month(mo)) || !numberEnds(q, e2) {
			return Range{}, 0, false
		}
		return dateRange(y, time.Month(mo), d, loc), e2, true
	}
	if !numberEnds(q, e) {
		return Range{}, 0, false
	}
	return monthRange(y, time.Month(mo), loc), e, true
}

// smallNumber reads one or two ASCII digits at i.
func smallNumber(q string, i int) (n, end int, ok bool) {
	j := i
	for j < len(q) && j < i+3 && isDigit(q[j]) {
		n = n*10 + int(q[j]-'0')
		j++
	}
	if j == i || j-i > 2 {
		return 0, 0, false
	}
	return n, j, true
}

// dayNumber reads a day of the month token with an optional ordinal
// suffix ("3", "3rd", "21st") and returns the day and its end.
func dayNumber(q string, t token) (int, int, bool) {
	if t.kw != kwNum || t.ndig > 2 || t.num < 1 || t.num > 31 {
		return 0, 0, false
	}
	e := t.end
	if e+2 <= len(q) {
		switch q[e : e+2] {
		case "st", "nd", "rd", "th", "ST", "ND", "RD", "TH":
			if wordBoundaryAfter(q, e+2) {
				e += 2
			}
		}
	}
	if !numberEnds(q, e) {
		return 0, 0, false
	}
	return t.num, e, true
}

// yearAt reads a year token (1000-2999) at i.
func yearAt(q string, i int) (int, int, bool) {
	y := tokenAt(q, i)
	if y.kw != kwNum || y.ndig != 4 || y.num < 1000 || y.num > 2999 || !numberEnds(q, y.end) {
		return 0, 0, false
	}
	return y.num, y.end, true
}

// parseDayMonth reads "3 May 2024" (and, after a preposition, "3 May")
// with t the day.
func parseDayMonth(q string, t token, now time.Time, prep bool, after time.Time) (Range, int, bool) {
	d, e, ok := dayNumber(q, t)
	if !ok {
		return Range{}, 0, false
	}
	m := tokenAt(q, e)
	if m.kw != kwMonth {
		return Range{}, 0, false
	}
	if y, ye, ok := yearAt(q, m.end); ok {
		if d > daysIn(y, time.Month(m.num)) {
			return Range{}, 0, false
		}
		return dateRange(y, time.Month(m.num), d, now.Location()), ye, true
	}
	if !prep {
		return Range{}, 0, false
	}
	r, ok := recentDate(now, time.Month(m.num), d, after)
	return r, m.end, ok
}

// parseMonth reads a phrase that starts with a month name t: "May 2024",
// "May 3, 2024", "May last year", and after a preposition "May" and
// "May 3".
func parseMonth(q string, t token, now time.Time, prep bool, after time.Time) (Range, int, bool) {
	loc := now.Location()
	m := time.Month(t.num)
	if y, ye, ok := yearAt(q, t.end); ok {
		return monthRange(y, m, loc), ye, true
	}
	u := tokenAt(q, t.end)
	if d, de, ok := dayNumber(q, u); ok {
		ye0 := de
		if c := tokenAt(q, de); c.kw == kwComma {
			ye0 = c.end
		}
		if y, ye, ok := yearAt(q, ye0); ok {
			if d > daysIn(y, m) {
				return Range{}, 0, false
			}
			return dateRange(y, m, d, loc), ye, true
		}
		if !prep {
			return Range{}, 0, false
		}
		r, ok := recentDate(now, m, d, after)
		return r, de, ok
	}
	if t.abbrev || !(prep || t.title) {
		return Range{}, 0, false
	}
	if u.kw == kwLast || u.kw == kwThis {
		if y := tokenAt(q, u.end); y.kw == kwYear && !y.plural {
			off := 0
			if u.kw == kwLast {
				off = -1
			}
			return monthRange(now.Year()+off, m, loc), y.end, true
		}
	}
	if !prep {
		return Range{}, 0, false
	}
	return recentMonth(now, m, after), t.end, true
}
