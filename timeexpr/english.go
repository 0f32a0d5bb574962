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
	kwWeekend
	kwOf
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
		if !wordBoundaryAfter(q, j) || j-i > 9 || hyphenated(q, i, j) {
			return t
		}
		t.lower, t.title = true, c >= 'A' && c <= 'Z'
		for k := i; k < j; k++ {
			if q[k] <= 'Z' {
				t.lower = false
				if k > i {
					t.title = false
				}
			}
		}
		lookup(&t, q[i:j])
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

// vocabulary is every English word the grammar knows.
var vocabulary = [...]entry{
	{"today", kwToday, 0, 0},
	{"tonight", kwTonight, 0, 0},
	{"yesterday", kwYesterday, 0, 0},
	{"tomorrow", kwTomorrow, 0, 0},
	{"the", kwThe, 0, 0},
	{"this", kwThis, 0, 0},
	{"last", kwLast, 0, 0},
	{"next", kwNext, 0, 0},
	{"past", kwPast, 0, 0},
	{"night", kwNight, 0, 0},
	{"weekend", kwWeekend, 0, 0},
	{"of", kwOf, 0, 0},
	{"morning", kwPartOfDay, 0, 0},
	{"afternoon", kwPartOfDay, 0, 0},
	{"evening", kwPartOfDay, 0, 0},
	{"ago", kwAgo, 0, 0},
	{"in", kwIn, 0, 0},
	{"on", kwOn, 0, 0},
	{"during", kwDuring, 0, 0},
	{"from", kwFrom, 0, 0},
	{"since", kwSince, 0, 0},
	{"after", kwAfter, 0, 0},
	{"before", kwBefore, 0, 0},
	{"between", kwBetween, 0, 0},
	{"and", kwAnd, 0, 0},
	{"to", kwTo, 0, 0},
	{"until", kwTo, 0, 0},
	{"till", kwTo, 0, 0},
	{"through", kwTo, 0, 0},
	{"day", kwDay, 0, 0},
	{"days", kwDay, 0, fPlural},
	{"week", kwWeek, 0, 0},
	{"weeks", kwWeek, 0, fPlural},
	{"month", kwMonthUnit, 0, 0},
	{"months", kwMonthUnit, 0, fPlural},
	{"year", kwYear, 0, 0},
	{"years", kwYear, 0, fPlural},
	{"a", kwNumWord, 1, 0},
	{"an", kwNumWord, 1, 0},
	{"one", kwNumWord, 1, 0},
	{"two", kwNumWord, 2, 0},
	{"three", kwNumWord, 3, 0},
	{"four", kwNumWord, 4, 0},
	{"five", kwNumWord, 5, 0},
	{"six", kwNumWord, 6, 0},
	{"seven", kwNumWord, 7, 0},
	{"eight", kwNumWord, 8, 0},
	{"nine", kwNumWord, 9, 0},
	{"ten", kwNumWord, 10, 0},
	{"eleven", kwNumWord, 11, 0},
	{"twelve", kwNumWord, 12, 0},
	{"thirteen", kwNumWord, 13, 0},
	{"fourteen", kwNumWord, 14, 0},
	{"fifteen", kwNumWord, 15, 0},
	{"sixteen", kwNumWord, 16, 0},
	{"seventeen", kwNumWord, 17, 0},
	{"eighteen", kwNumWord, 18, 0},
	{"nineteen", kwNumWord, 19, 0},
	{"twenty", kwNumWord, 20, 0},
	{"thirty", kwNumWord, 30, 0},
	{"forty", kwNumWord, 40, 0},
	{"fifty", kwNumWord, 50, 0},
	{"january", kwMonth, 1, 0},
	{"february", kwMonth, 2, 0},
	{"march", kwMonth, 3, 0},
	{"april", kwMonth, 4, 0},
	{"may", kwMonth, 5, 0},
	{"june", kwMonth, 6, 0},
	{"july", kwMonth, 7, 0},
	{"august", kwMonth, 8, 0},
	{"september", kwMonth, 9, 0},
	{"october", kwMonth, 10, 0},
	{"november", kwMonth, 11, 0},
	{"december", kwMonth, 12, 0},
	{"jan", kwMonth, 1, fAbbrev},
	{"feb", kwMonth, 2, fAbbrev},
	{"mar", kwMonth, 3, fAbbrev},
	{"apr", kwMonth, 4, fAbbrev},
	{"jun", kwMonth, 6, fAbbrev},
	{"jul", kwMonth, 7, fAbbrev},
	{"aug", kwMonth, 8, fAbbrev},
	{"sep", kwMonth, 9, fAbbrev},
	{"sept", kwMonth, 9, fAbbrev},
	{"oct", kwMonth, 10, fAbbrev},
	{"nov", kwMonth, 11, fAbbrev},
	{"dec", kwMonth, 12, fAbbrev},
	{"monday", kwWeekday, 0, 0},
	{"tuesday", kwWeekday, 1, 0},
	{"wednesday", kwWeekday, 2, 0},
	{"thursday", kwWeekday, 3, 0},
	{"friday", kwWeekday, 4, 0},
	{"saturday", kwWeekday, 5, 0},
	{"sunday", kwWeekday, 6, 0},
	{"i", kwFunction, 0, 0},
	{"we", kwFunction, 0, 0},
	{"you", kwFunction, 0, 0},
	{"he", kwFunction, 0, 0},
	{"she", kwFunction, 0, 0},
	{"they", kwFunction, 0, 0},
	{"it", kwFunction, 0, 0},
	{"my", kwFunction, 0, 0},
	{"our", kwFunction, 0, 0},
	{"his", kwFunction, 0, 0},
	{"her", kwFunction, 0, 0},
	{"their", kwFunction, 0, 0},
	{"or", kwFunction, 0, 0},
	{"but", kwFunction, 0, 0},
	{"when", kwFunction, 0, 0},
	{"while", kwFunction, 0, 0},
	{"with", kwFunction, 0, 0},
	{"at", kwFunction, 0, 0},
	{"for", kwFunction, 0, 0},
	{"about", kwFunction, 0, 0},
	{"was", kwFunction, 0, 0},
	{"were", kwFunction, 0, 0},
	{"is", kwFunction, 0, 0},
	{"did", kwFunction, 0, 0},
	{"had", kwFunction, 0, 0},
	{"have", kwFunction, 0, 0},
	{"has", kwFunction, 0, 0},
	{"so", kwFunction, 0, 0},
	{"then", kwFunction, 0, 0},
	{"there", kwFunction, 0, 0},
	{"that", kwFunction, 0, 0},
	{"what", kwFunction, 0, 0},
	{"where", kwFunction, 0, 0},
	{"how", kwFunction, 0, 0},
	{"who", kwFunction, 0, 0},
	{"why", kwFunction, 0, 0},
	{"which", kwFunction, 0, 0},
	{"as", kwFunction, 0, 0},
	{"by", kwFunction, 0, 0},
	{"vs", kwFunction, 0, 0},
}

const (
	fPlural = 1 << iota // days, weeks, …
	fAbbrev             // Jan, Feb, …
)

type entry struct {
	w     string
	kw    keyword
	num   int8
	flags uint8
}

// byLetter indexes vocabulary by first letter, so that a word is compared
// with the few known words that share its first letter.
var byLetter = func() (idx [26][]entry) {
	for _, e := range vocabulary {
		idx[e.w[0]-'a'] = append(idx[e.w[0]-'a'], e)
	}
	return idx
}()

// startLengths has bit n of entry c set when a word of n letters that
// starts with the letter 'a'+c can start a phrase: the filter that lets
// Find pass over most words of a query without reading them.
var startLengths = func() (m [26]uint16) {
	for _, e := range vocabulary {
		switch e.kw {
		case kwToday, kwTonight, kwYesterday, kwTomorrow, kwThe, kwDay, kwLast, kwThis, kwNext, kwPast,
			kwIn, kwOn, kwDuring, kwFrom, kwSince, kwAfter, kwBefore, kwBetween, kwNumWord, kwMonth:
			m[e.w[0]-'a'] |= 1 << len(e.w)
		}
	}
	return m
}()

// anchorLengths is startLengths for the words that anchor a phrase.
var anchorLengths = func() (m [26]uint16) {
	for _, e := range vocabulary {
		if isAnchor(e.kw) {
			m[e.w[0]-'a'] |= 1 << len(e.w)
		}
	}
	return m
}()

func isAnchor(kw keyword) bool {
	switch kw {
	case kwToday, kwTonight, kwYesterday, kwTomorrow, kwDay, kwWeek, kwMonthUnit, kwYear,
		kwNight, kwPartOfDay, kwWeekend, kwMonth, kwWeekday:
		return true
	}
	return false
}

// isAnchorWord reports whether w, a run of ASCII letters, is an anchor
// word.
func isAnchorWord(w string) bool {
	if len(w) > 9 || anchorLengths[w[0]|0x20-'a']>>len(w)&1 == 0 {
		return false
	}
	var t token
	lookup(&t, w)
	return isAnchor(t.kw)
}

// mayStart reports whether the word or number at i can start an English
// phrase.
func mayStart(q string, i int) bool {
	c := q[i] | 0x20
	if c < 'a' || c > 'z' {
		return isDigit(q[i])
	}
	j := i + 1
	for j < len(q) && j-i < 10 && (q[j]|0x20 >= 'a' && q[j]|0x20 <= 'z') {
		j++
	}
	return j-i < 10 && startLengths[c-'a']>>(j-i)&1 != 0
}

// lookup sets t's keyword from its word w (ASCII letters, any case).
func lookup(t *token, w string) {
	for _, e := range byLetter[w[0]|0x20-'a'] {
		if len(e.w) == len(w) && foldEqual(e.w, w) {
			t.kw, t.num = e.kw, int(e.num)
			t.plural, t.abbrev = e.flags&fPlural != 0, e.flags&fAbbrev != 0
			return
		}
	}
}

// foldEqual reports whether the lower-case word l equals w, a word of
// ASCII letters of the same length, ignoring case.
func foldEqual(l, w string) bool {
	for k := 0; k < len(l); k++ {
		if w[k]|0x20 != l[k] {
			return false
		}
	}
	return true
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
			// "from X to Y", or nothing: "from 2020 to 2024 people" has no
			// reading that is not a guess.
			d2, e2, ok := parseDate(q, u.end, now, true, d1.From)
			if !ok || !d1.From.Before(d2.To) {
				return Range{}, 0, false
			}
			return Range{d1.From, d2.To}, e2, true
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
	return parseDateToken(q, t, now, false, time.Time{})
}

// parseDate reads one date phrase from i: a day, week, month or year.
// prep says a preposition came before it, which admits the forms that are
// times only after one: a bare month ("in May"), a bare year ("in 2024"),
// a weekday ("on Monday"), a month and day without a year ("since May 3").
// after, when set, resolves those forms forward from it instead of back
// from now (the second end of "between March and May").
func parseDate(q string, i int, now time.Time, prep bool, after time.Time) (Range, int, bool) {
	return parseDateToken(q, tokenAt(q, i), now, prep, after)
}

// parseDateToken is parseDate with the first token already read.
func parseDateToken(q string, t token, now time.Time, prep bool, after time.Time) (Range, int, bool) {
	loc := now.Location()
	switch t.kw {
	case kwToday, kwTonight:
		return dayOf(now, 0), t.end, true
	case kwYesterday:
		return dayOf(now, -1), t.end, true
	case kwTomorrow:
		return dayOf(now, 1), t.end, true
	case kwThe:
		if u := tokenAt(q, t.end); u.kw == kwPast || u.kw == kwLast {
			return parseRolling(q, u, now, true)
		}
		return parseDayBeforeAfter(q, t.end, now)
	case kwPast:
		// "past 100 days" may be "beyond 100 days": only "the past …" and
		// "this past …" are read.
		return Range{}, 0, false
	case kwDay:
		return parseDayBeforeAfter(q, t.start, now)
	case kwLast, kwThis, kwNext:
		if t.kw == kwLast {
			if r, e, ok := parseRolling(q, t, now, false); ok {
				return r, e, true
			}
		}
		if u := tokenAt(q, t.end); t.kw == kwThis && u.kw == kwPast {
			if v := tokenAt(q, u.end); v.kw == kwWeekend && tokenAt(q, v.end).kw != kwOf {
				return weekend(now, -1), v.end, true // "this past weekend"
			}
			return parseRolling(q, u, now, true)
		}
		return parseRelative(q, t, now)
	case kwNum, kwNumWord:
		if r, e, ok := parseAgo(q, t, now); ok {
			if !prep && hedged(q, t.start) {
				// "less than a year ago", "about 3 weeks ago": not that unit.
				return Range{}, 0, false
			}
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
//
// None of them is followed by "of": "the last week of May" is not last
// week.
func parseRelative(q string, t token, now time.Time) (Range, int, bool) {
	u := tokenAt(q, t.end)
	if tokenAt(q, u.end).kw == kwOf {
		return Range{}, 0, false
	}
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
	case kwWeekend:
		if t.kw != kwNext {
			return weekend(now, off), u.end, true
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
		// "this may be", "his last march": the month is Capitalised, and
		// May is not followed by a lower-case word ("This May be …").
		if u.abbrev || !u.title {
			break
		}
		if n := tokenAt(q, u.end); n.kw == kwNum || u.num == 5 && n.end > n.start && n.lower {
			// "this May 2024" is May 2024, read from May on.
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
	case kwEOF, kwComma, kwOther, kwFunction, kwOf, kwAnd, kwTo, kwThe, kwIn, kwOn, kwDuring, kwFrom, kwSince, kwAfter, kwBefore:
		return true
	case kwNum:
		return false
	}
	return u.title || (!u.lower && u.end > u.start)
}

// parseNumericDate reads YYYY-MM-DD (a day), YYYY-MM (a month) or
// YYYY/M/D (a day, one or two digits each) at i; the fields must be valid
// and the number must end there ("2024-05-03T10", "2024-05-031" and
// "2024-5" are not dates).
func parseNumericDate(q string, i int, loc *time.Location) (Range, int, bool) {
	if i+6 > len(q) {
		return Range{}, 0, false
	}
	sep := q[i+4]
	if sep != '-' && sep != '/' {
		return Range{}, 0, false
	}
	y, _ := digits(q[i : i+4])
	mo, e, ok := smallNumber(q, i+5)
	if !ok || mo < 1 || mo > 12 || y < 1000 || (sep == '-' && e-(i+5) != 2) {
		return Range{}, 0, false
	}
	if e < len(q) && q[e] == sep {
		d, e2, ok := smallNumber(q, e+1)
		if !ok || (sep == '-' && e2-(e+1) != 2) || d < 1 || d > daysIn(y, time.Month(mo)) || !numberEnds(q, e2) {
			return Range{}, 0, false
		}
		return dateRange(y, time.Month(mo), d, loc), e2, true
	}
	if sep == '/' || !numberEnds(q, e) {
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
	if t.abbrev || !(prep || t.title) || u.kw == kwNum {
		// "Jan" alone is not read, nor "in May 32".
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

// hyphenated reports whether the word q[i:j] is part of a hyphenated
// compound ("month-by-month", "last-minute", "year-end"), which is no
// time phrase.
func hyphenated(q string, i, j int) bool {
	isLetter := func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
	return j+1 < len(q) && q[j] == '-' && isLetter(q[j+1]) || i >= 2 && q[i-1] == '-' && isLetter(q[i-2])
}

// parseRolling reads "past 3 days", "last 2 weeks", "past week" and,
// after "the", "the last week" (one unit), with t the word past or last:
// the days that end with today. A unit without a number is a week, month
// or year, not a day ("the last day" is no span ending today). None of
// them is followed by "of" ("the last week of May").
func parseRolling(q string, t token, now time.Time, the bool) (Range, int, bool) {
	n := tokenAt(q, t.end)
	u, count := n, 0
	switch {
	case n.kw == kwNum && n.ndig <= 5 && numberEnds(q, n.end):
		count, u = n.num, tokenAt(q, n.end)
	case n.kw == kwNumWord && n.end-n.start > 2: // not "a", "an"
		count, u = n.num, tokenAt(q, n.end)
	case (t.kw == kwPast || the) && !n.plural && n.kw != kwDay:
		count = 1
	default:
		return Range{}, 0, false
	}
	if count < 1 || tokenAt(q, u.end).kw == kwOf {
		return Range{}, 0, false
	}
	switch u.kw {
	case kwDay:
		if count <= 100_000 {
			return rolling(now, count, 'd'), u.end, true
		}
	case kwWeek:
		if count <= 10_000 {
			return rolling(now, count, 'w'), u.end, true
		}
	case kwMonthUnit:
		if count <= 12_000 {
			return rolling(now, count, 'm'), u.end, true
		}
	case kwYear:
		if count < now.Year() {
			return rolling(now, count, 'y'), u.end, true
		}
	}
	return Range{}, 0, false
}

// hedged reports whether the word before i makes an amount vague or a
// bound: "less than a year ago", "over 130 years ago", "about 3 weeks
// ago".
func hedged(q string, i int) bool {
	j := i
	for j > 0 && isSpace(q[j-1]) {
		j--
	}
	k := j
	for k > 0 && q[k-1]|0x20 >= 'a' && q[k-1]|0x20 <= 'z' {
		k--
	}
	if k == j || j == i || j-k > 13 {
		return false
	}
	var buf [13]byte
	for n := k; n < j; n++ {
		buf[n-k] = q[n] | 0x20
	}
	switch string(buf[:j-k]) {
	case "than", "over", "about", "around", "almost", "nearly", "approximately", "roughly",
		"some", "within", "under", "least", "most", "maybe", "perhaps", "circa", "like":
		return true
	}
	return false
}
