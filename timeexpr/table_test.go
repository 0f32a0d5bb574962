package timeexpr

import "testing"

// The must-parse tables. Each row: the reference time, the query, the
// phrase Find must report (its offsets are those of its first occurrence
// in the query) and the range, in the reference time's location.
//
// jun18 is Wednesday 2025-06-18: this ISO week is Mon 16 - Sun 22 June,
// last week Mon 9 - Sun 15 June.

func TestFindEnglish(t *testing.T) {
	checkParse(t, []parseCase{
		// Days.
		{"jun18", "what did I eat today", "today", "2025-06-18", "2025-06-19"},
		{"jun18", "yesterday", "yesterday", "2025-06-17", "2025-06-18"},
		{"jun18", "the day before yesterday", "the day before yesterday", "2025-06-16", "2025-06-17"},
		{"jun18", "day before yesterday notes", "day before yesterday", "2025-06-16", "2025-06-17"},
		{"jun18", "tomorrow", "tomorrow", "2025-06-19", "2025-06-20"},
		{"jun18", "the day after tomorrow", "the day after tomorrow", "2025-06-20", "2025-06-21"},
		{"jun18", "what did I eat last night", "last night", "2025-06-17", "2025-06-18"},
		{"jun18", "this morning", "this morning", "2025-06-18", "2025-06-19"},
		{"jun18", "plans for tonight", "tonight", "2025-06-18", "2025-06-19"},
		// Weeks, months, years named from now's.
		{"jun18", "this week", "this week", "2025-06-16", "2025-06-23"},
		{"jun18", "what did we decide last week?", "last week", "2025-06-09", "2025-06-16"},
		{"jun18", "next week", "next week", "2025-06-23", "2025-06-30"},
		{"jun18", "this month", "this month", "2025-06-01", "2025-07-01"},
		{"jun18", "last month", "last month", "2025-05-01", "2025-06-01"},
		{"jun18", "this year", "this year", "2025-01-01", "2026-01-01"},
		{"jun18", "last year", "last year", "2024-01-01", "2025-01-01"},
		{"jun18", "last weekend", "last weekend", "2025-06-14", "2025-06-16"},
		{"jun18", "this weekend", "this weekend", "2025-06-21", "2025-06-23"},
		{"jun18", "during last month", "during last month", "2025-05-01", "2025-06-01"},
		{"jun18", "notes from last week", "from last week", "2025-06-09", "2025-06-16"},
		// N units ago: the calendar unit N back.
		{"jun18", "3 days ago", "3 days ago", "2025-06-15", "2025-06-16"},
		{"jun18", "three days ago", "three days ago", "2025-06-15", "2025-06-16"},
		{"jun18", "one day ago", "one day ago", "2025-06-17", "2025-06-18"},
		{"jun18", "a week ago", "a week ago", "2025-06-09", "2025-06-16"},
		{"jun18", "2 weeks ago", "2 weeks ago", "2025-06-02", "2025-06-09"},
		{"jun18", "two months ago", "two months ago", "2025-04-01", "2025-05-01"},
		{"jun18", "12 months ago", "12 months ago", "2024-06-01", "2024-07-01"},
		{"jun18", "a year ago", "a year ago", "2024-01-01", "2025-01-01"},
		{"jun18", "ten years ago", "ten years ago", "2015-01-01", "2016-01-01"},
		// Rolling periods that end with today.
		{"jun18", "the past 3 days", "the past 3 days", "2025-06-16", "2025-06-19"},
		{"jun18", "in the last 2 weeks", "in the last 2 weeks", "2025-06-05", "2025-06-19"},
		{"jun18", "the past week", "the past week", "2025-06-12", "2025-06-19"},
		{"jun18", "the past month", "the past month", "2025-05-19", "2025-06-19"},
		{"jun18", "past 30 days", "past 30 days", "2025-05-20", "2025-06-19"},
		{"jun18", "over the past year", "the past year", "2024-06-19", "2025-06-19"},
		// Weekdays: "last" is strictly before today, "on" may be today,
		// "this" is this ISO week's.
		{"jun18", "last Monday", "last Monday", "2025-06-16", "2025-06-17"},
		{"jun18", "last Wednesday", "last Wednesday", "2025-06-11", "2025-06-12"},
		{"jun18", "last sunday", "last sunday", "2025-06-15", "2025-06-16"},
		{"jun18", "on Wednesday", "on Wednesday", "2025-06-18", "2025-06-19"},
		{"jun18", "what happened on Friday", "on Friday", "2025-06-13", "2025-06-14"},
		{"jun18", "this Friday", "this Friday", "2025-06-20", "2025-06-21"},
		// Months: a bare one (after a preposition) is the most recent that
		// has begun.
		{"jun18", "notes in May", "in May", "2025-05-01", "2025-06-01"},
		{"jun18", "in June", "in June", "2025-06-01", "2025-07-01"},
		{"jun18", "in July", "in July", "2024-07-01", "2024-08-01"},
		{"jun18", "in December", "in December", "2024-12-01", "2025-01-01"},
		{"jun18", "in march", "in march", "2025-03-01", "2025-04-01"},
		{"jun18", "last May", "last May", "2025-05-01", "2025-06-01"},
		{"jun18", "last June", "last June", "2024-06-01", "2024-07-01"},
		{"jun18", "this March", "this March", "2025-03-01", "2025-04-01"},
		{"jun18", "May last year", "May last year", "2024-05-01", "2024-06-01"},
		{"jun18", "May 2024 trip", "May 2024", "2024-05-01", "2024-06-01"},
		{"jun18", "in May 2024", "in May 2024", "2024-05-01", "2024-06-01"},
		{"jun18", "Jan 2024", "Jan 2024", "2024-01-01", "2024-02-01"},
		{"jun18", "Sept 2024", "Sept 2024", "2024-09-01", "2024-10-01"},
		// Days of the month.
		{"jun18", "on May 3", "on May 3", "2025-05-03", "2025-05-04"},
		{"jun18", "on July 4", "on July 4", "2024-07-04", "2024-07-05"},
		{"jun18", "May 3, 2024", "May 3, 2024", "2024-05-03", "2024-05-04"},
		{"jun18", "3 May 2024", "3 May 2024", "2024-05-03", "2024-05-04"},
		{"jun18", "May 3rd 2024", "May 3rd 2024", "2024-05-03", "2024-05-04"},
		{"jun18", "2024-05-03", "2024-05-03", "2024-05-03", "2024-05-04"},
		{"jun18", "meeting on 2024-05-03.", "on 2024-05-03", "2024-05-03", "2024-05-04"},
		{"jun18", "2024/05/03", "2024/05/03", "2024-05-03", "2024-05-04"},
		{"jun18", "2024/5/3", "2024/5/3", "2024-05-03", "2024-05-04"},
		{"jun18", "report 2024-05", "2024-05", "2024-05-01", "2024-06-01"},
		// Years.
		{"jun18", "taxes in 2024", "in 2024", "2024-01-01", "2025-01-01"},
		{"jun18", "in 2024 we moved", "in 2024", "2024-01-01", "2025-01-01"},
		// Open and two-ended ranges.
		{"jun18", "since March", "since March", "2025-03-01", ""},
		{"jun18", "since yesterday", "since yesterday", "2025-06-17", ""},
		{"jun18", "since 1999", "since 1999", "1999-01-01", ""},
		{"jun18", "before June 2025", "before June 2025", "", "2025-06-01"},
		{"jun18", "before 2024-05-03", "before 2024-05-03", "", "2024-05-03"},
		{"jun18", "after 2024-05-03", "after 2024-05-03", "2024-05-04", ""},
		{"jun18", "after last week", "after last week", "2025-06-16", ""},
		{"jun18", "between March and May", "between March and May", "2025-03-01", "2025-06-01"},
		{"jun18", "between May 2024 and July 2024", "between May 2024 and July 2024", "2024-05-01", "2024-08-01"},
		{"jun18", "between November and February", "between November and February", "2024-11-01", "2025-03-01"},
		{"jun18", "between Monday and Wednesday", "between Monday and Wednesday", "2025-06-16", "2025-06-19"},
		{"jun18", "from March to May", "from March to May", "2025-03-01", "2025-06-01"},
		// Case, possessives, neighbours.
		{"jun18", "yesterday's notes", "yesterday's", "2025-06-17", "2025-06-18"},
		{"jun18", "last week’s notes", "last week’s", "2025-06-09", "2025-06-16"},
		{"jun18", "Last Week", "Last Week", "2025-06-09", "2025-06-16"},
		{"jun18", "TODAY?", "TODAY", "2025-06-18", "2025-06-19"},
		{"jun18", "last week的会议", "last week", "2025-06-09", "2025-06-16"},
		{"jun18", "(yesterday)", "yesterday", "2025-06-17", "2025-06-18"},
		{"jun18", "this afternoon", "this afternoon", "2025-06-18", "2025-06-19"},
		{"jun18", "photos from May", "from May", "2025-05-01", "2025-06-01"},
		{"jun18", "since May 3rd", "since May 3rd", "2025-05-03", ""},
		{"jun18", "yesterday or last week", "yesterday", "2025-06-17", "2025-06-18"},

		// New Year's Day 2025 in New York, a Wednesday.
		{"jan1", "yesterday", "yesterday", "2024-12-31", "2025-01-01"},
		{"jan1", "last week", "last week", "2024-12-23", "2024-12-30"},
		{"jan1", "this week", "this week", "2024-12-30", "2025-01-06"},
		{"jan1", "last month", "last month", "2024-12-01", "2025-01-01"},
		{"jan1", "last year", "last year", "2024-01-01", "2025-01-01"},
		{"jan1", "in December", "in December", "2024-12-01", "2025-01-01"},
		{"jan1", "in January", "in January", "2025-01-01", "2025-02-01"},
		{"jan1", "three days ago", "three days ago", "2024-12-29", "2024-12-30"},
		{"jan1", "last Monday", "last Monday", "2024-12-30", "2024-12-31"},
		{"jan1", "between November and January", "between November and January", "2024-11-01", "2025-02-01"},
		{"jan1", "on Dec 25", "on Dec 25", "2024-12-25", "2024-12-26"},
		{"jan1", "the past 7 days", "the past 7 days", "2024-12-26", "2025-01-02"},

		// Sunday 31 March 2024, 23:30 in Shanghai.
		{"mar31", "this week", "this week", "2024-03-25", "2024-04-01"},
		{"mar31", "last Sunday", "last Sunday", "2024-03-24", "2024-03-25"},
		{"mar31", "on Sunday", "on Sunday", "2024-03-31", "2024-04-01"},
		{"mar31", "a month ago", "a month ago", "2024-02-01", "2024-03-01"},
		{"mar31", "the past month", "the past month", "2024-03-01", "2024-04-01"},
		{"mar31", "since April", "since April", "2023-04-01", ""},

		// One instant, two zones.
		{"apr1sh", "today", "today", "2024-04-01", "2024-04-02"},
		{"apr1utc", "today", "today", "2024-03-31", "2024-04-01"},
		{"apr1sh", "this month", "this month", "2024-04-01", "2024-05-01"},
		{"apr1utc", "this month", "this month", "2024-03-01", "2024-04-01"},

		// A leap day.
		{"leap", "a year ago", "a year ago", "2023-01-01", "2024-01-01"},
		{"leap", "yesterday", "yesterday", "2024-02-28", "2024-02-29"},
		{"leap", "tomorrow", "tomorrow", "2024-03-01", "2024-03-02"},
		{"leap", "this week", "this week", "2024-02-26", "2024-03-04"},
		{"leap", "the past year", "the past year", "2023-03-01", "2024-03-01"},
		{"leap", "the past month", "the past month", "2024-01-30", "2024-03-01"},
		{"leap", "on Feb 29", "on Feb 29", "2024-02-29", "2024-03-01"},
		{"leap", "since March", "since March", "2023-03-01", ""},
		{"leap", "in February", "in February", "2024-02-01", "2024-03-01"},

		// Daylight saving time: days of 23 and 25 hours.
		{"dst", "yesterday", "yesterday", "2025-03-09", "2025-03-10"},
		{"dst", "last week", "last week", "2025-03-03", "2025-03-10"},
		{"dst", "the past 3 days", "the past 3 days", "2025-03-08", "2025-03-11"},
		{"fallback", "yesterday", "yesterday", "2024-11-03", "2024-11-04"},
		{"fallback", "last weekend", "last weekend", "2024-11-02", "2024-11-04"},
	})
}

func TestFindChinese(t *testing.T) {
	checkParse(t, []parseCase{
		// Days.
		{"jun18", "今天", "今天", "2025-06-18", "2025-06-19"},
		{"jun18", "我昨天吃了什么", "昨天", "2025-06-17", "2025-06-18"},
		{"jun18", "前天", "前天", "2025-06-16", "2025-06-17"},
		{"jun18", "大前天", "大前天", "2025-06-15", "2025-06-16"},
		{"jun18", "明天", "明天", "2025-06-19", "2025-06-20"},
		{"jun18", "后天", "后天", "2025-06-20", "2025-06-21"},
		{"jun18", "大后天", "大后天", "2025-06-21", "2025-06-22"},
		{"jun18", "今晚", "今晚", "2025-06-18", "2025-06-19"},
		{"jun18", "昨晚吃了什么", "昨晚", "2025-06-17", "2025-06-18"},
		{"jun18", "今天我们", "今天", "2025-06-18", "2025-06-19"},
		// Weeks.
		{"jun18", "本周", "本周", "2025-06-16", "2025-06-23"},
		{"jun18", "这周", "这周", "2025-06-16", "2025-06-23"},
		{"jun18", "这个星期", "这个星期", "2025-06-16", "2025-06-23"},
		{"jun18", "上周去了哪里", "上周", "2025-06-09", "2025-06-16"},
		{"jun18", "上个星期", "上个星期", "2025-06-09", "2025-06-16"},
		{"jun18", "上礼拜", "上礼拜", "2025-06-09", "2025-06-16"},
		{"jun18", "上上周", "上上周", "2025-06-02", "2025-06-09"},
		{"jun18", "下周", "下周", "2025-06-23", "2025-06-30"},
		{"jun18", "上周末", "上周末", "2025-06-14", "2025-06-16"},
		{"jun18", "本周末", "本周末", "2025-06-21", "2025-06-23"},
		// Months and years.
		{"jun18", "本月", "本月", "2025-06-01", "2025-07-01"},
		{"jun18", "这个月", "这个月", "2025-06-01", "2025-07-01"},
		{"jun18", "上个月的账单", "上个月", "2025-05-01", "2025-06-01"},
		{"jun18", "上月", "上月", "2025-05-01", "2025-06-01"},
		{"jun18", "上上个月", "上上个月", "2025-04-01", "2025-05-01"},
		{"jun18", "下个月", "下个月", "2025-07-01", "2025-08-01"},
		{"jun18", "今年", "今年", "2025-01-01", "2026-01-01"},
		{"jun18", "去年", "去年", "2024-01-01", "2025-01-01"},
		{"jun18", "前年", "前年", "2023-01-01", "2024-01-01"},
		{"jun18", "明年", "明年", "2026-01-01", "2027-01-01"},
		// N units ago.
		{"jun18", "三天前", "三天前", "2025-06-15", "2025-06-16"},
		{"jun18", "两周前", "两周前", "2025-06-02", "2025-06-09"},
		{"jun18", "3个月前", "3个月前", "2025-03-01", "2025-04-01"},
		{"jun18", "两年前", "两年前", "2023-01-01", "2024-01-01"},
		{"jun18", "二十三天前", "二十三天前", "2025-05-26", "2025-05-27"},
		{"jun18", "一个星期前", "一个星期前", "2025-06-09", "2025-06-16"},
		{"jun18", "两个礼拜前", "两个礼拜前", "2025-06-02", "2025-06-09"},
		{"jun18", "十天前", "十天前", "2025-06-08", "2025-06-09"},
		// Months and days of the month.
		{"jun18", "五月", "五月", "2025-05-01", "2025-06-01"},
		{"jun18", "七月", "七月", "2024-07-01", "2024-08-01"},
		{"jun18", "五月份的旅行", "五月份", "2025-05-01", "2025-06-01"},
		{"jun18", "去年五月", "去年五月", "2024-05-01", "2024-06-01"},
		{"jun18", "今年三月", "今年三月", "2025-03-01", "2025-04-01"},
		{"jun18", "2024年5月", "2024年5月", "2024-05-01", "2024-06-01"},
		{"jun18", "2024年", "2024年", "2024-01-01", "2025-01-01"},
		{"jun18", "2024年5月3日", "2024年5月3日", "2024-05-03", "2024-05-04"},
		{"jun18", "2024年5月3号", "2024年5月3号", "2024-05-03", "2024-05-04"},
		{"jun18", "在2024年5月", "2024年5月", "2024-05-01", "2024-06-01"},
		{"jun18", "二〇二四年五月", "二〇二四年五月", "2024-05-01", "2024-06-01"},
		{"jun18", "２０２４年５月", "２０２４年５月", "2024-05-01", "2024-06-01"},
		{"jun18", "去年12月25日", "去年12月25日", "2024-12-25", "2024-12-26"},
		{"jun18", "5月3日", "5月3日", "2025-05-03", "2025-05-04"},
		{"jun18", "五月三号", "五月三号", "2025-05-03", "2025-05-04"},
		{"jun18", "7月4日", "7月4日", "2024-07-04", "2024-07-05"},
		{"jun18", "十一月三日", "十一月三日", "2024-11-03", "2024-11-04"},
		// Weekdays: 上周三 is last ISO week's, 周三 the most recent on or
		// before today.
		{"jun18", "上周三", "上周三", "2025-06-11", "2025-06-12"},
		{"jun18", "上星期五", "上星期五", "2025-06-13", "2025-06-14"},
		{"jun18", "本周一", "本周一", "2025-06-16", "2025-06-17"},
		{"jun18", "这周五", "这周五", "2025-06-20", "2025-06-21"},
		{"jun18", "下周一", "下周一", "2025-06-23", "2025-06-24"},
		{"jun18", "周一", "周一", "2025-06-16", "2025-06-17"},
		{"jun18", "星期一", "星期一", "2025-06-16", "2025-06-17"},
		{"jun18", "礼拜一", "礼拜一", "2025-06-16", "2025-06-17"},
		{"jun18", "周三开会", "周三", "2025-06-18", "2025-06-19"},
		{"jun18", "周五", "周五", "2025-06-13", "2025-06-14"},
		{"jun18", "星期天", "星期天", "2025-06-15", "2025-06-16"},
		{"jun18", "周日", "周日", "2025-06-15", "2025-06-16"},
		// Open and two-ended ranges; rolling periods.
		{"jun18", "五月以来", "五月以来", "2025-05-01", ""},
		{"jun18", "从上周开始", "从上周开始", "2025-06-09", ""},
		{"jun18", "从去年起", "从去年起", "2024-01-01", ""},
		{"jun18", "三月到五月", "三月到五月", "2025-03-01", "2025-06-01"},
		{"jun18", "从三月到五月", "从三月到五月", "2025-03-01", "2025-06-01"},
		{"jun18", "十一月到二月", "十一月到二月", "2024-11-01", "2025-03-01"},
		{"jun18", "三月至五月", "三月至五月", "2025-03-01", "2025-06-01"},
		{"jun18", "截至今天", "今天", "2025-06-18", "2025-06-19"},
		{"jun18", "2024年以前", "2024年以前", "", "2024-01-01"},
		{"jun18", "去年之后", "去年之后", "2025-01-01", ""},
		{"jun18", "上周一到周三", "上周一到周三", "2025-06-09", "2025-06-12"},
		{"jun18", "最近三天", "最近三天", "2025-06-16", "2025-06-19"},
		{"jun18", "过去一周", "过去一周", "2025-06-12", "2025-06-19"},
		{"jun18", "近一个月", "近一个月", "2025-05-19", "2025-06-19"},

		{"jan1", "上个月", "上个月", "2024-12-01", "2025-01-01"},
		{"jan1", "去年", "去年", "2024-01-01", "2025-01-01"},
		{"jan1", "前年", "前年", "2023-01-01", "2024-01-01"},
		{"jan1", "上周三", "上周三", "2024-12-25", "2024-12-26"},
		{"jan1", "十二月", "十二月", "2024-12-01", "2025-01-01"},
		{"jan1", "12月25日", "12月25日", "2024-12-25", "2024-12-26"},
		{"jan1", "一月", "一月", "2025-01-01", "2025-02-01"},
		{"jan1", "上上周", "上上周", "2024-12-16", "2024-12-23"},
		{"jan1", "两天前", "两天前", "2024-12-30", "2024-12-31"},

		{"mar31", "上个月", "上个月", "2024-02-01", "2024-03-01"},
		{"mar31", "本月", "本月", "2024-03-01", "2024-04-01"},
		{"mar31", "周日", "周日", "2024-03-31", "2024-04-01"},
		{"mar31", "上周日", "上周日", "2024-03-24", "2024-03-25"},
		{"mar31", "这周五", "这周五", "2024-03-29", "2024-03-30"},
		{"mar31", "四月", "四月", "2023-04-01", "2023-05-01"},
		{"mar31", "下周", "下周", "2024-04-01", "2024-04-08"},

		{"apr1sh", "上周", "上周", "2024-03-25", "2024-04-01"},
		{"apr1utc", "上周", "上周", "2024-03-18", "2024-03-25"},
		{"apr1sh", "昨天", "昨天", "2024-03-31", "2024-04-01"},

		{"leap", "2月29日", "2月29日", "2024-02-29", "2024-03-01"},
		{"leap", "一年前", "一年前", "2023-01-01", "2024-01-01"},
		{"dst", "昨天", "昨天", "2025-03-09", "2025-03-10"},
		{"fallback", "上周日", "上周日", "2024-11-03", "2024-11-04"},
	})
}

// The must-not-parse tables: words and phrases that are not clearly a
// time stay in the query.
func TestFindRefusesEnglish(t *testing.T) {
	checkRefused(t, nows["jun18"], []string{
		"May I have coffee", "march forward", "a second opinion", "Sunday roast recipe",
		"we", "do", "may", "march", "March", "May", "second", "sun", "Sun", "sat", "wed", "mon",
		"I may go", "we march on", "Marching band", "Mayday", "June's birthday", "April showers",
		"August Rush", "the Fourth of July", "Jan", "dec",
		"in 5000 words", "in 2000 steps", "2024", "version 2024", "in 3000",
		"a few days ago", "a couple of days ago", "some days ago", "days ago", "in 3 days",
		"a while ago", "long ago", "ages ago", "the other day", "once upon a time",
		"last resort", "last time", "this time", "next time", "last-minute changes",
		"the last week of May", "last month of the year",
		"Monday morning meeting", "on Mondays", "every Monday", "weekday", "day by day", "day one",
		"today123", "todays", "yesterdays",
		"05/03/2024", "10:30", "2024-5", "2024-5-3", "2024/5", "1000-1 0", "2024-13-01", "2024-02-30", "2024-05-03T10", "12024-05-03",
		"2.5 years ago", "1,500 years ago", "in May 32",
	})
}

func TestFindRefusesChinese(t *testing.T) {
	checkRefused(t, nows["jun18"], []string{
		"三月兔", "三月兔说", "一周年", "三周年", "如今天气", "这周围", "五月天", "五月天的演唱会",
		"一周一次", "每周一", "四周一片", "周一鸣说", "农历五月", "三月前", "三天前往北京",
		"晚上周末", "基本月薪", "这月亮", "失去年轻", "聪明天才", "先天后天", "然后天气",
		"目前天气", "过去年代", "附近三天", "最近", "几天前", "半年前", "三个月", "一个月", "两周",
		"周末", "十三月", "2月30日", "2023年2月29日", "第三月", "24年5月", "七月与安生",
		"八月十五", "六月雪", "周期", "下周刊", "上海", "周天", "昨日重现", "今日头条",
	})
}
