package timeexpr

import (
	"strings"
	"time"
	"unicode/utf8"
)

// The Chinese grammar. Chinese is written without spaces, so a phrase can
// be a substring of unrelated words ("如今天气" holds 今天, "这周围" holds
// 这周, "三月兔" holds 三月): the checks on the character before and after a
// phrase, listed in the package doc, keep those out.

var decodeRune = utf8.DecodeRuneInString

// fold maps the traditional characters of the grammar and of its context
// lists to the simplified ones it is written in (週→周, 這→这, 個→个, 後→后,
// 來→来, 兩→两, 號→号, 從→从, 開→开, 禮→礼, 們→们, 圍→围, 輕→轻, …), so
// 上週, 這個月, 兩週前, 以來, 之後 are read as 上周, 这个月, 两周前, 以来,
// 之后, and 這週圍 is refused as 这周围 is. Each pair has the same UTF-8
// length, so offsets hold.
func fold(r rune) rune {
	if r < foldLo || r > foldHi || foldable[(r-foldLo)/64]&(1<<((r-foldLo)%64)) == 0 {
		return r
	}
	return foldTo[r]
}

const (
	foldFrom = "週這個後來兩號從開禮點們說還於嗎麼對讓給問記講誰沒見買與裡時過圍餅邊歲輕級紀齡貨華畫鑑邁獸歷曆輪進線臺鋒濟經輩"
	foldInto = "周这个后来两号从开礼点们说还于吗么对让给问记讲谁没见买与里时过围饼边岁轻级纪龄货华画鉴迈兽历历轮进线台锋济经辈"
	foldLo   = 0x4E00
	foldHi   = 0x9FFF
)

// foldable has a bit set for each rune of foldFrom, so that fold answers
// most runes with one load; foldTo maps them.
var foldable, foldTo = func() (bits [(foldHi - foldLo + 64) / 64]uint64, to map[rune]rune) {
	to = map[rune]rune{}
	into := []rune(foldInto)
	for k, r := range []rune(foldFrom) {
		bits[(r-foldLo)/64] |= 1 << ((r - foldLo) % 64)
		to[r] = into[k]
	}
	return bits, to
}()

// runeAt is the folded rune at i and its size; 0, 0 at the end.
func runeAt(q string, i int) (rune, int) {
	if i >= len(q) {
		return 0, 0
	}
	r, size := decodeRune(q[i:])
	return fold(r), size
}

// runeBefore is the folded rune before i; 0 at the start.
func runeBefore(q string, i int) rune {
	if i <= 0 {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(q[:i])
	return fold(r)
}

func isHan(r rune) bool {
	return r >= 0x3400 && r <= 0x9FFF || r >= 0xF900 && r <= 0xFAFF || r >= 0x20000 && r <= 0x3FFFF
}

// zhStarts reports whether a Chinese phrase can start with r.
func zhStarts(r rune) bool {
	switch r {
	case '今', '昨', '前', '大', '明', '后', '本', '这', '上', '下', '去', '周', '星', '礼', '从', '自', '最', '过', '近',
		'週', '這', '後', '從', '禮', '兩',
		'一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '两', '〇', '零':
		return true
	}
	return r >= '０' && r <= '９'
}

// hanDigit is the value of a Chinese digit, or -1.
func hanDigit(r rune) int {
	switch r {
	case '〇', '零':
		return 0
	case '一':
		return 1
	case '二':
		return 2
	case '三':
		return 3
	case '四':
		return 4
	case '五':
		return 5
	case '六':
		return 6
	case '七':
		return 7
	case '八':
		return 8
	case '九':
		return 9
	}
	return -1
}

// digitValue is the value of an ASCII or full-width digit, or -1.
func digitValue(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= '０' && r <= '９':
		return int(r - '０')
	}
	return -1
}

func isNumeral(r rune) bool {
	return digitValue(r) >= 0 || hanDigit(r) >= 0 || r == '十' || r == '两' || r == '百' || r == '千' || r == '万' || r == '几' || r == '半'
}

// zhNumber reads a count or a day/month number at i: one to four digits
// (ASCII or full-width), or a Chinese numeral from 一 to 九十九 (两 for 2
// when liang is set). It refuses a number that continues a longer one.
func zhNumber(q string, i int, liang bool) (n, end int, ok bool) {
	if isNumeral(runeBefore(q, i)) {
		return 0, 0, false
	}
	r, size := runeAt(q, i)
	if digitValue(r) >= 0 {
		j, k := i, 0
		for k < 5 {
			r, size := runeAt(q, j)
			v := digitValue(r)
			if v < 0 {
				break
			}
			n = n*10 + v
			j += size
			k++
		}
		if k > 4 {
			return 0, 0, false
		}
		return n, j, true
	}
	if r == '两' {
		if !liang {
			return 0, 0, false
		}
		n, end = 2, i+size
	} else {
		// [D]十[D] | D
		j := i
		tens := hanDigit(r)
		if tens == 0 {
			return 0, 0, false
		}
		if tens > 0 {
			j += size
			r, size = runeAt(q, j)
		}
		if r == '十' {
			if tens < 0 {
				tens = 1
			}
			j += size
			n = tens * 10
			if r2, s2 := runeAt(q, j); hanDigit(r2) > 0 {
				n += hanDigit(r2)
				j += s2
			}
		} else if tens > 0 {
			n = tens
		} else {
			return 0, 0, false
		}
		end = j
	}
	if r, _ := runeAt(q, end); isNumeral(r) || r == '多' || r == '余' || r == '来' {
		return 0, 0, false
	}
	return n, end, true
}

// zhYear reads a four-digit year followed by 年 at i ("2024年",
// "二〇二四年") and returns the year and the end after 年.
func zhYear(q string, i int) (y, end int, ok bool) {
	if isNumeral(runeBefore(q, i)) {
		return 0, 0, false
	}
	j := i
	han := false
	for k := 0; k < 4; k++ {
		r, size := runeAt(q, j)
		v := digitValue(r)
		if v < 0 {
			if v = hanDigit(r); v < 0 || (k > 0 && !han) {
				return 0, 0, false
			}
			han = true
		} else if han {
			return 0, 0, false
		}
		y = y*10 + v
		j += size
	}
	r, size := runeAt(q, j)
	if r != '年' || y < 1000 || y > 2999 {
		return 0, 0, false
	}
	return y, j + size, true
}

// has reports whether q has s at i.
// has reports whether q has s, a simplified Chinese string, at i, reading
// q's characters through fold.
func has(q string, i int, s string) bool {
	for k := 0; k < len(s); {
		if i+k >= len(q) {
			return false
		}
		if q[i+k] == s[k] {
			k++
			continue
		}
		// A byte differs: the rune of q there may still fold to s's
		// (a folded pair has the same length, so offsets stay aligned).
		b := k
		for b > 0 && s[b]&0xC0 == 0x80 {
			b--
		}
		want, n := decodeRune(s[b:])
		got, m := decodeRune(q[i+b:])
		if m != n || fold(got) != want {
			return false
		}
		k = b + n
	}
	return true
}

// prevOK is the check before a phrase whose first character also ends
// common words (如今, 过去, 目前, 晚上, 基本, 聪明, 然后): the phrase must
// start the query or follow a character that is not Han, or one of a few
// pronouns and particles.
//
// A phrase that starts with 今 has few such words (如今, 迄今, 现今, 当今,
// 古今, 而今): it is refused only after one of those first characters. (至今
// is not among them: 截至今天 is "as of today".)
func prevOK(q string, i int) bool {
	r := runeBefore(q, i)
	if !isHan(r) {
		return true
	}
	if has(q, i, "今") {
		return !strings.ContainsRune("如迄现当古而", r)
	}
	return strings.ContainsRune("我你他她它们咱的地得在是和跟同就也都还又才说到至与及或那这从自于么吗呢吧啊呀了把被给对让要想看问找查记讲聊做干谁哪些有没去来吃买见玩", r)
}

// nextOK reports whether the character at i may follow a phrase whose last
// character is last: it must not make a word with it (上周围, 这月亮,
// 去年轻, 三天前往).
func nextOK(q string, i int, last rune) bool {
	r, _ := runeAt(q, i)
	var bad string
	switch last {
	case '周':
		bad = "围期年边刊岁密折旋济遭"
	case '月':
		bad = "亮光饼球色票经子嫂老台牙季刊度夜影桂琴历供息卡均食"
	case '年':
		bad = "轻级纪龄代货夜华糕画鉴迈幼份限兽味历轮"
	case '前':
		bad = "往进面后夕辈提线台方端排锋景途列沿"
	case '天':
		bad = "性" // 后天性
	default:
		return true
	}
	return !strings.ContainsRune(bad, r)
}

// followOK is the stricter check after a bare month (五月) or weekday
// (周一): the next character must not be Han, or be one that usually
// follows a time word. 三月兔 and 五月天 are names, 周一鸣 may be one.
func followOK(q string, i int) bool {
	r, _ := runeAt(q, i)
	if !isHan(r) {
		return true
	}
	return strings.ContainsRune("份的里中初底末我你他她们咱去在和跟有没做干了吃喝开见时那这是要想说买看玩过都也还就以之上下早晚午到至", r)
}

// matchChinese reads the longest Chinese phrase starting at i: a date
// phrase D, optionally with 从, 自 or 自从 before it and 以来, 开始, 起
// (after 从 only),
// 以后, 之后, 以前, 之前 after it, or a range D 到 D2 / D 至 D2.
func matchChinese(q string, i int, now time.Time) (Range, int, bool) {
	j := i
	switch {
	case has(q, i, "自从"):
		j += len("自从")
	case has(q, i, "从"), has(q, i, "自"):
		j += len("从")
	}
	from := j > i
	d, e, ok := zhDate(q, j, now, time.Time{})
	if !ok {
		return Range{}, 0, false
	}
	switch r, _ := runeAt(q, e); r {
	case '以', '之':
		switch {
		case has(q, e, "以来"):
			return Range{From: d.From}, e + len("以来"), true
		case has(q, e, "以后"), has(q, e, "之后"):
			return Range{From: d.To}, e + len("以后"), true
		case has(q, e, "以前"), has(q, e, "之前"):
			return Range{To: d.From}, e + len("以前"), true
		}
	case '开':
		if has(q, e, "开始") {
			return Range{From: d.From}, e + len("开始"), true
		}
	case '起':
		if from {
			return Range{From: d.From}, e + len("起"), true
		}
	case '后':
		// 1945年后 is "after 1945" (and 1945年后天主教 no day after
		// tomorrow); 三年后 is "three years later", not read.
		if zhExplicit(q, j, e) {
			return Range{From: d.To}, e + len("后"), true
		}
	case '前':
		if zhExplicit(q, j, e) && !has(q, e, "前天") && !has(q, e, "前年") {
			return Range{To: d.From}, e + len("前"), true
		}
	case '到', '至':
		if d2, e2, ok := zhDate(q, e+len("到"), now, d.From); ok && d.From.Before(d2.To) {
			return Range{d.From, d2.To}, e2, true
		}
	}
	if from {
		// 从 alone is "from" as well as "since": leave it in the query.
		return Range{}, 0, false
	}
	return d, e, true
}

// zhExplicit reports whether q[j:e], a date phrase, names its year or day
// with numbers (2024年, 2024年5月, 5月3日, 五月三号), after which a bare
// 前 or 后 means before or after it. After anything else 前 is "ago" (三年前)
// and 后 "later".
func zhExplicit(q string, j, e int) bool {
	first, _ := runeAt(q, j)
	if digitValue(first) < 0 && hanDigit(first) < 0 {
		return false
	}
	last := runeBefore(q, e)
	return last == '年' || last == '日' || last == '号' || last == '份' && strings.Contains(q[j:e], "年") ||
		last == '月' && strings.Contains(q[j:e], "年")
}

// zhDate reads one Chinese date phrase at i.
//
// after, when set, resolves a bare month, day or weekday forward from it
// (the second end of 三月到五月) instead of back from now.
func zhDate(q string, i int, now time.Time, after time.Time) (Range, int, bool) {
	loc := now.Location()
	r0, _ := runeAt(q, i)
	switch r0 {
	case '今', '昨', '明', '前', '后', '大', '去':
		if r, e, ok := zhDayWord(q, i, now); ok {
			return r, e, true
		}
		if r, e, ok := zhYearWord(q, i, now); ok {
			return r, e, true
		}
		return Range{}, 0, false
	case '本', '这', '上', '下':
		return zhWeekMonth(q, i, now)
	case '周', '星', '礼':
		// 周 also ends words (四周, 一周): a bare 周X is checked like 上周;
		// 星期X and 礼拜X only refuse 每, 个, 第 and numerals before them.
		if (r0 == '周' && !prevOK(q, i)) || strings.ContainsRune("每个第隔双单", runeBefore(q, i)) || isNumeral(runeBefore(q, i)) {
			return Range{}, 0, false
		}
		wd, e, ok := zhWeekday(q, i)
		if !ok || (r0 == '周' && !followOK(q, e)) {
			return Range{}, 0, false
		}
		return recentWeekday(now, wd, false, after), e, true
	case '最', '过', '近':
		return zhRolling(q, i, now)
	}
	if y, e, ok := zhYear(q, i); ok {
		if m, e2, ok := zhMonthDay(q, e, y, loc); ok {
			return m, e2, true
		}
		if r, _ := runeAt(q, e); isNumeral(r) || !nextOK(q, e, '年') {
			// 2023年2月30日 names no day: no reading of it.
			return Range{}, 0, false
		}
		return yearRange(y, loc), e, true
	}
	if strings.ContainsRune("第几每个年历", runeBefore(q, i)) {
		return Range{}, 0, false
	}
	if r, e, ok := zhAgo(q, i, now); ok {
		return r, e, true
	}
	return zhBareMonth(q, i, now, after)
}

// zhMonthDay reads M月, M月D日 or M月D号 at i in year y.
func zhMonthDay(q string, i, y int, loc *time.Location) (Range, int, bool) {
	m, e, ok := zhNumber(q, i, false)
	if !ok || m < 1 || m > 12 || !has(q, e, "月") {
		return Range{}, 0, false
	}
	e += len("月")
	if d, e2, ok := zhNumber(q, e, false); ok && (has(q, e2, "日") || has(q, e2, "号")) {
		if d < 1 || d > daysIn(y, time.Month(m)) {
			return Range{}, 0, false
		}
		return dateRange(y, time.Month(m), d, loc), e2 + len("日"), true
	}
	if has(q, e, "份") {
		e += len("份")
	} else if !nextOK(q, e, '月') {
		return Range{}, 0, false
	}
	return monthRange(y, time.Month(m), loc), e, true
}

// zhBareMonth reads 五月, 5月3日, 五月三号 without a year at i: the most
// recent such month or day that has begun.
func zhBareMonth(q string, i int, now time.Time, after time.Time) (Range, int, bool) {
	m, e, ok := zhNumber(q, i, false)
	if !ok || m < 1 || m > 12 || !has(q, e, "月") {
		return Range{}, 0, false
	}
	e += len("月")
	if d, e2, ok := zhNumber(q, e, false); ok && (has(q, e2, "日") || has(q, e2, "号")) {
		r, ok := recentDate(now, time.Month(m), d, after)
		return r, e2 + len("日"), ok
	}
	if !prevOK(q, i) || !followOK(q, e) {
		return Range{}, 0, false
	}
	if has(q, e, "份") {
		e += len("份")
	}
	return recentMonth(now, time.Month(m), after), e, true
}

// zhAgo reads N天前, N周前, N个星期前, N个礼拜前, N个月前, N年前 at i.
func zhAgo(q string, i int, now time.Time) (Range, int, bool) {
	n, e, ok := zhNumber(q, i, true)
	if !ok || n < 1 {
		return Range{}, 0, false
	}
	var r Range
	switch {
	case has(q, e, "天前"):
		r, e = dayOf(now, -n), e+len("天前")
	case has(q, e, "周前"):
		r, e = weekOf(now, -n), e+len("周前")
	case has(q, e, "个星期前"):
		r, e = weekOf(now, -n), e+len("个星期前")
	case has(q, e, "星期前"):
		r, e = weekOf(now, -n), e+len("星期前")
	case has(q, e, "个礼拜前"):
		r, e = weekOf(now, -n), e+len("个礼拜前")
	case has(q, e, "礼拜前"):
		r, e = weekOf(now, -n), e+len("礼拜前")
	case has(q, e, "个月前"):
		r, e = monthOf(now, -n), e+len("个月前")
	case has(q, e, "年前"):
		if n >= now.Year() {
			return Range{}, 0, false
		}
		r, e = yearRange(now.Year()-n, now.Location()), e+len("年前")
	default:
		return Range{}, 0, false
	}
	if !nextOK(q, e, '前') {
		return Range{}, 0, false
	}
	return r, e, true
}

// zhDayWord reads 今天, 昨天, 前天, 大前天, 明天, 后天, 大后天, 今晚, 昨晚,
// 昨夜 at i.
func zhDayWord(q string, i int, now time.Time) (Range, int, bool) {
	r0, _ := runeAt(q, i)
	for _, w := range zhDayWords {
		if w.first != r0 || !has(q, i, w.w) {
			continue
		}
		e := i + len(w.w)
		if (!w.strong && !prevOK(q, i)) || !nextOK(q, e, lastRune(w.w)) {
			return Range{}, 0, false
		}
		// 前, 后 and 明 end many words (以前, 及后, 说明), and 天 starts many
		// (天主, 天文, 天空): 及后天文台 is no day after tomorrow.
		if r, _ := runeAt(q, e); !strings.HasPrefix(w.w, "今") && !strings.HasPrefix(w.w, "昨") && strings.ContainsRune("主文堂使空然津地生真分气象涯际籁井桥坛", r) {
			return Range{}, 0, false
		}
		return dayOf(now, w.off), e, true
	}
	return Range{}, 0, false
}

// zhDayWords are the day words of zhDayWord, longest first.
var zhDayWords = func() []struct {
	w      string
	first  rune
	off    int
	strong bool // needs no check of the character before
} {
	words := []struct {
		w      string
		first  rune
		off    int
		strong bool
	}{
		{"大前天", 0, -3, false}, {"大后天", 0, 3, false},
		{"今天", 0, 0, false}, {"今晚", 0, 0, false}, {"今早", 0, 0, false},
		{"昨天", 0, -1, true}, {"昨晚", 0, -1, true}, {"昨夜", 0, -1, true},
		{"前天", 0, -2, false}, {"明天", 0, 1, false}, {"后天", 0, 2, false},
	}
	for k := range words {
		words[k].first, _ = utf8.DecodeRuneInString(words[k].w)
	}
	return words
}()

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// zhYearWord reads 今年, 去年, 前年, 明年 at i, with an optional M月 or
// M月D日 after it.
func zhYearWord(q string, i int, now time.Time) (Range, int, bool) {
	r0, size := runeAt(q, i)
	if r1, _ := runeAt(q, i+size); r1 != '年' {
		return Range{}, 0, false
	}
	var off int
	switch r0 {
	case '今':
		off = 0
	case '去':
		off = -1
	case '前':
		off = -2
	case '明':
		off = 1
	default:
		return Range{}, 0, false
	}
	if !prevOK(q, i) {
		return Range{}, 0, false
	}
	e := i + len("今年")
	y := now.Year() + off
	if r, e2, ok := zhMonthDay(q, e, y, now.Location()); ok {
		return r, e2, true
	}
	if !nextOK(q, e, '年') {
		return Range{}, 0, false
	}
	return yearRange(y, now.Location()), e, true
}

// zhWeekMonth reads a week or month named relative to now's at i: 本周,
// 这周, 这个星期, 上周, 上个星期, 上礼拜, 上上周, 下周, 本月, 这个月,
// 上个月, 上月, 上上个月, 下个月, with a weekday (上周三) or 末 (上周末,
// the Saturday and Sunday of that week) after a week.
func zhWeekMonth(q string, i int, now time.Time) (Range, int, bool) {
	r0, size := runeAt(q, i)
	j := i + size
	off := 0
	switch r0 {
	case '上':
		off = -1
		if has(q, j, "上") {
			off, j = -2, j+len("上")
		}
	case '下':
		off = 1
	}
	if r0 != '这' && !prevOK(q, i) {
		return Range{}, 0, false
	}
	r1, size := runeAt(q, j)
	ge := false // 个 after the prefix
	if r0 != '本' && r1 == '个' {
		ge, j = true, j+size
		r1, size = runeAt(q, j)
	}
	switch {
	case r1 == '月':
		e := j + size
		if !nextOK(q, e, '月') {
			return Range{}, 0, false
		}
		return monthOf(now, off), e, true
	case r1 == '周' && !ge:
		return zhWeekTail(q, j+size, '周', now, off)
	case r1 == '星' && has(q, j, "星期"):
		return zhWeekTail(q, j+len("星期"), '期', now, off)
	case r1 == '礼' && has(q, j, "礼拜"):
		return zhWeekTail(q, j+len("礼拜"), '拜', now, off)
	}
	return Range{}, 0, false
}

// zhWeekTail finishes a relative week at e: a weekday, 末, or nothing.
func zhWeekTail(q string, e int, last rune, now time.Time, off int) (Range, int, bool) {
	wk := weekOf(now, off)
	if wd, e2, ok := zhWeekdayName(q, e, last != '周'); ok {
		return dateRange(wk.From.Year(), wk.From.Month(), wk.From.Day()+wd, now.Location()), e2, true
	}
	if has(q, e, "末") {
		return Range{dateRange(wk.From.Year(), wk.From.Month(), wk.From.Day()+5, now.Location()).From, wk.To}, e + len("末"), true
	}
	if !nextOK(q, e, last) {
		return Range{}, 0, false
	}
	return wk, e, true
}

// zhWeekday reads 周X, 星期X or 礼拜X at i.
func zhWeekday(q string, i int) (int, int, bool) {
	switch {
	case has(q, i, "周"):
		return zhWeekdayName(q, i+len("周"), false)
	case has(q, i, "星期"):
		return zhWeekdayName(q, i+len("星期"), true)
	case has(q, i, "礼拜"):
		return zhWeekdayName(q, i+len("礼拜"), true)
	}
	return 0, 0, false
}

// zhWeekdayName reads 一 … 六 or 日 (and 天 when tian is set: 星期天,
// 礼拜天, but not 周天, which 上周天气 would misread) at i.
func zhWeekdayName(q string, i int, tian bool) (int, int, bool) {
	r, size := runeAt(q, i)
	wd := -1
	switch r {
	case '一', '二', '三', '四', '五', '六':
		wd = hanDigit(r) - 1
	case '日':
		wd = 6
	case '天':
		if tian {
			wd = 6
		}
	}
	if wd < 0 {
		return 0, 0, false
	}
	if r2, _ := runeAt(q, i+size); isNumeral(r2) || r2 == '十' {
		return 0, 0, false
	}
	return wd, i + size, true
}

// zhRolling reads 最近N天, 过去N天, 近N天 (and 周, 个星期, 个礼拜, 个月,
// 年) at i: the N units that end with today, as "the past N days".
func zhRolling(q string, i int, now time.Time) (Range, int, bool) {
	j := i
	switch {
	case has(q, i, "最近"):
		j += len("最近")
	case has(q, i, "过去"):
		j += len("过去")
	case has(q, i, "近"):
		j += len("近")
	default:
		return Range{}, 0, false
	}
	if !prevOK(q, i) {
		return Range{}, 0, false
	}
	n, e, ok := zhNumber(q, j, true)
	if !ok || n < 1 {
		return Range{}, 0, false
	}
	var unit byte
	for _, u := range [...]struct {
		s    string
		unit byte
	}{{"天", 'd'}, {"周", 'w'}, {"个星期", 'w'}, {"星期", 'w'}, {"个礼拜", 'w'}, {"礼拜", 'w'}, {"个月", 'm'}, {"年", 'y'}} {
		if has(q, e, u.s) {
			unit, e = u.unit, e+len(u.s)
			break
		}
	}
	if unit == 0 || !nextOK(q, e, lastRune(q[:e])) || (unit == 'y' && n >= now.Year()) || n > 10_000 {
		return Range{}, 0, false
	}
	return rolling(now, n, unit), e, true
}
