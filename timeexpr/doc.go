// Package timeexpr finds the time phrase of a search query, in English or
// Chinese, and reads it as a half-open range of calendar time: "what did
// we decide last week" holds "last week", Monday 00:00 to the next Monday
// 00:00. It uses no language model and does not guess: a phrase that is
// not clearly a time ("May I have coffee", "march forward", "三月兔")
// stays in the query. docs/time.md is the user's reference of the same
// grammar, with examples.
//
// # Basics
//
// Find(query, now) returns the first phrase of query: the leftmost, and
// of the phrases starting there the longest. Its Match gives the byte
// offsets of the whole phrase (prepositions included: "in May", "since
// March", 从三月到五月), Text == query[Start:End], and the Range [From, To)
// it stands for; a zero From or To is open on that side ("since March" has
// no To, "before June 2025" no From). Without(query, m) is the query with
// the phrase taken out, for the words a search still scores. ParseDate
// reads the YYYY-MM-DD and RFC 3339 values of --after and --before.
//
// Every boundary is midnight of a calendar day in now.Location(), built
// with time.Date, so a day across a daylight-saving change has 23 or 25
// hours and the same instant can be "today" in Shanghai and "yesterday" in
// New York. Units:
//
//   - a day is a calendar day; a week is an ISO week, Monday to Sunday; a
//     month and a year are calendar months and years.
//   - this/last/next week|month|year, 本周/上周/下周, 本月/上个月/下个月,
//     今年/去年/前年/明年: the unit containing now, one (上上: two) before
//     or after it.
//   - N days|weeks|months|years ago, N天前, N周前, N个月前, N年前: the
//     calendar unit N back, not a span of N×24 hours ("2 weeks ago" on a
//     Wednesday is the whole ISO week two weeks back).
//   - the past N days|weeks|months|years, the last N …, last N …, this
//     past N …, the past week, this past week, the last week (with "the";
//     without it, last week is the ISO week), 最近/过去/近 N天: the N units
//     that end with today, today included ("the past 3 days" on a
//     Wednesday is Monday to Wednesday; "the last year" on 18 June 2025 is
//     19 June 2024 to 18 June 2025). "past" needs "the" or "this": "past
//     100 days" may mean beyond 100 days.
//   - last weekend, this past weekend, this weekend, 上周末, 这周末:
//     Saturday and Sunday of last or this ISO week.
//
// # Resolving a name without a year
//
//   - A bare month ("in May", 五月) is the most recent May that has begun:
//     this year's when now is in May or later, else last year's. "last
//     May" is the most recent May strictly before the current month;
//     "this May" is this year's. After this or last the month must be
//     Capitalised, May must not be followed by a lower-case word, and a
//     year after it wins ("this may be", "This May be", "his last march"
//     are not read; "this May 2024" is May 2024).
//   - A day of the month ("on May 3", 5月3日) is the most recent May 3 that
//     is not after today; 2月29日 looks back to the last leap year.
//   - "last Monday" is the most recent Monday strictly before today. "on
//     Monday" and a bare 周一/星期一/礼拜一 are the most recent Monday on
//     or before today (today, if it is a Monday). "this Monday", 本周一,
//     这周一 are this ISO week's Monday, 上周一 last ISO week's, 下周一
//     next ISO week's, whether past or future.
//   - In a two-ended range the second end is read forward from the first:
//     "between November and February" on 18 June 2025 is November 2024 to
//     February 2025; "between Monday and Wednesday", 周一到周三 likewise.
//
// # Ranges
//
// "since X" and X以来, X开始, 从X开始, 自X以来, 自从X以来, 从X起, 自X起
// are [X.From, open); "after X", X以后, X之后 are [X.To, open); "before
// X", X以前, X之前 are [open, X.From). After a year or day written with
// numbers a bare 后 or 前 also means after or before (1945年后, 2020年前,
// 5月3日前); after anything else 前 is "ago" (三年前) and 后 ("three years
// later", 三年后) is not read. "between X and Y", "from X to|until|till|
// through Y", X到Y, X至Y, 从X到Y are [X.From, Y.To), and are not read at
// all unless X starts before Y ends; "from X to" followed by anything else
// is not read either ("from 2020 to 2024 people"). "in", "on", "during"
// and "from" before a phrase belong to it and do not change it.
//
// # Refusing to guess
//
// English words are matched whole and in any case, but a bare month name,
// a bare year, a weekday and a day of the month without a year are times
// only after a preposition (in, on, during, from, since, after, before,
// between): "in May", "on Sunday", "since 2024", but never "May I …",
// "Sunday roast", "march forward", "version 2024". A bare year is 1900 to
// 2199 and must be followed by the end, punctuation, a capitalised word or
// a function word ("in 2024 we moved", not "in 2000 steps"). Numbers are
// 1 to 5 digits or the words a/an, one … twenty, thirty, forty, fifty;
// "a few", "a couple of", "several" are not numbers. Numeric dates are
// YYYY-MM-DD, YYYY-MM and YYYY/M/D only (05/03/2024 is refused: day and
// month order differ by country), and a date that does not exist
// (2024-02-30, May 32, 2023年2月29日) is refused whole, never read as its
// valid part. "the last week of May" and "last month of the year" are not
// last week or last month. A number continued by a separator is not a
// number ("2.5 years ago", "1,500 years ago"). A word joined by a hyphen
// to a letter is no word of a phrase ("month-by-month", "last-minute",
// "year-end"). "N units ago" after a hedge or bound (than, over, about,
// around, almost, nearly, approximately, roughly, some, within, under,
// least, most, maybe, perhaps, circa, like) is not read: "less than a
// year ago" is not last year.
//
// Chinese is written without spaces, so a phrase can be a substring of
// other words: 如今天气 holds 今天, 这周围 holds 这周, 目前天气 holds 前天,
// 基本月薪 holds 本月. Four checks keep those out:
//
//   - Phrases whose first character also ends common words (去 in 过去,
//     前 in 目前, 上 in 晚上, 下 in 天下, 本 in 基本, 明 in 聪明, 后 in 然后,
//     近 in 附近, 周 in 四周) must start the query, follow a character that
//     is not Han, or follow one of a few pronouns and particles
//     (我你他她它们咱的地得在是和跟同就也都还又才说到至与及或那这从自于
//     么吗呢吧啊呀了把被给对让要想看问找查记讲聊做干谁哪些有没去来吃买见玩). "项目上周上线了" is therefore not read; that is the price of
//     never reading 晚上周末 as last weekend. 今 ends few words, so 今天,
//     今年, 今晚 are refused only after 如, 迄, 现, 当, 古, 而 (如今天气).
//   - A phrase may not be followed by a character that makes a word with
//     its last one: 周 by 围期年边刊岁密折旋济遭 (这周围, 本周刊), 月 by
//     亮光饼球色票经子嫂老台牙季刊度夜影桂琴历供息卡均食 (这月亮), 年 by
//     轻级纪龄代货夜华糕画鉴迈幼份限兽味历轮 (失去年轻), 前 by
//     往进面后夕辈提线台方端排锋景途列沿 (三天前往), 天 by 性 (后天性).
//   - A bare month (五月) and a bare weekday written with 周 (周一) must be
//     followed by a character that is not Han or by one that usually
//     follows a time word (份的里中初底末我你他她们…), and not come after a
//     numeral, 每, 个, 第, 几 or 历: 三月兔, 五月天, 七月与安生, 周一鸣, 每周一,
//     一周一次, 农历五月, 八月十五 are not read. 周天 is refused (上周天气);
//     星期天 and 礼拜天 are Sunday.
//   - 前天, 后天, 明天 (and 大前天, 大后天) may not be followed by a character
//     that starts a word with 天 (天主, 天文, 天空, 天然, 天津, 天气 …): 及后
//     天文台 is "then the observatory".
//
// Traditional characters are read as their simplified forms (上週, 這個月,
// 兩週前, 以來, 之後, 禮拜一, 5月3號), the context lists included.
//
// 三月前 and other M月前 are refused (before March, or three months ago?),
// as are 几天前, 半年前, 24年5月 (a two-digit year) and 昨日, 今日 (今日头条).
//
// # Performance
//
// Every phrase holds an anchor: a digit, an English word naming a unit,
// a part of the day, a month or a weekday, or one of 天周期拜月年晚夜早.
// Find first looks for the last anchor and returns at once when there is
// none, and it filters English words by first letter and length before it
// reads them. It allocates nothing. docs/performance.md, "Time
// expressions", has the figures: well under the 2 µs target for a query
// without a phrase.
//
// # Concurrency
//
// The package keeps no state; every function is safe for concurrent use.
//
// # Why no dependency
//
// Three Go libraries were compared with what a search query needs
// (Chinese, refusing to guess, a range rather than an instant, ≤ 2 µs,
// deterministic):
//
//   - github.com/olebedev/when v1.1.0 (rules for English, Chinese and
//     others, one regular expression per rule) was run on this package's
//     refusal table: it reads "May I have coffee" as 18 May, "march
//     forward" as 18 March, "Sunday roast recipe" as next Sunday and
//     三月兔 as March, and does not read "last week"; its Chinese rules
//     panic (slice bounds out of range) on most queries, "last week" and
//     如今天气 among them, and step days by 24 hours; it took about 260 µs
//     for a 57-byte English query without a time phrase, on a machine where
//     Find took under 1 µs.
//   - github.com/tj/go-naturaldate parses a whole lower-cased string as one
//     expression (so "May" and "may" are the same word, and a phrase inside
//     a query is not found), knows no Chinese, and steps days by 24 hours.
//   - github.com/markusmobius/go-dateparser ports Python's dateparser, over
//     200 locales of data; the issue cites that parser's search mode for
//     reading "we" and "do" as dates.
//
// All three return one instant, not a range, so "last week" or 五月 would
// need a second layer over any of them; none refuses to guess the way a
// search engine must. The grammar is therefore written here, in about
// 2,000 lines, with a table test of over 250 phrases that must parse and
// over 150 that must not, and a fuzz test.
package timeexpr
