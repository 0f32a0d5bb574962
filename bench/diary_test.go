package bench

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// The diary is a synthetic, dated conversational memory (NOT LoCoMo, which
// is not available offline): one user's notes of a year and two weeks,
// four a day (lunch, a meeting, shopping, the evening), each a short
// exchange with the assistant, dated when it happened, with slot values
// (dishes, people, shops, films) drawn at random, so that the words of a
// question ("what did I have for lunch yesterday?") match every lunch of
// the year alike and only the date tells the right one. Questions name
// the day or the period in the ways docs/time.md lists, in English and in
// Chinese, relative to a fixed now; each question's answer is computed
// here from the day it was made for, not by the parser. The English
// entries are instants (a time of day, UTC), the Chinese ones calendar
// days. docs/benchmarks.md, "Time: a synthetic dated diary", has the
// figures and says what they do and do not show.

var diaryNow = time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC) // a Wednesday

type diaryLang struct {
	acts  [4]diaryAct
	slots map[string][]string
	// The day phrases, each returning the phrase for day d, or "" when it
	// cannot name d (d counted back from today).
	dayPhrases  []func(d time.Time, back int) string
	weekPhrase  string                    // last week
	monthPhrase func(m time.Month) string // a month of 2024
	question    [4]string                 // the question of each activity, %s the phrase
}

type diaryAct struct {
	hour int    // the English entry's time of day
	tmpl string // with {slot} names
}

type diaryQ struct {
	text     string
	relevant map[string]bool // entry names
	period   bool
}

var weekdaysEN = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
var weekdaysZH = []string{"日", "一", "二", "三", "四", "五", "六"}
var numZH = []string{"", "一", "两", "三", "四", "五", "六", "七", "八", "九"}

var diaryEN = diaryLang{
	acts: [4]diaryAct{
		{12, "user: I had {dish} for lunch at {place} with {person}.\nassistant: Noted, lunch with {person}."},
		{10, "user: Meeting with {person} about the {topic}; we agreed to {decision}.\nassistant: I'll remember what was agreed."},
		{17, "user: Went shopping at {shop} and got {item}.\nassistant: Got it."},
		{21, "user: This evening I watched {film}.\nassistant: Enjoy the rest of the evening."},
	},
	slots: map[string][]string{
		"dish":     {"ramen", "a burrito", "pad thai", "a caesar salad", "dumplings", "pho", "a falafel wrap", "sushi", "lasagna", "a club sandwich", "bibimbap", "curry"},
		"place":    {"Ichiran", "the corner deli", "Noodle Bar", "the office canteen", "Green Leaf", "Taco Stand", "Saigon House"},
		"person":   {"Maria", "Tom", "Aiko", "Raj", "Lena", "Omar", "Chen", "Sofia"},
		"topic":    {"budget", "hiring plan", "release date", "database migration", "office move", "security review", "roadmap"},
		"decision": {"postpone it a month", "hire two engineers", "ship on Friday", "move to PostgreSQL", "cut the scope", "run a pilot first"},
		"shop":     {"the hardware store", "the farmers market", "the bookshop", "the electronics store", "the pharmacy"},
		"item":     {"a drill", "apples and pears", "a novel", "headphones", "vitamins", "a lamp", "batteries", "a notebook"},
		"film":     {"Dune", "Arrival", "Paddington 2", "Spirited Away", "The Matrix", "Amelie", "Heat", "Up"},
	},
	dayPhrases: []func(time.Time, int) string{
		func(_ time.Time, back int) string {
			return map[int]string{1: "yesterday", 2: "the day before yesterday"}[back]
		},
		func(_ time.Time, back int) string {
			if back >= 3 && back <= 9 {
				return fmt.Sprintf("%d days ago", back)
			}
			return ""
		},
		// "last Monday": the most recent Monday strictly before today.
		func(d time.Time, back int) string {
			if back >= 1 && back <= 7 {
				return "last " + weekdaysEN[d.Weekday()]
			}
			return ""
		},
		func(d time.Time, back int) string {
			if back >= 1 && back < 365 {
				return fmt.Sprintf("on %s %d", d.Month(), d.Day())
			}
			return ""
		},
		func(d time.Time, _ int) string { return "on " + d.Format(time.DateOnly) },
	},
	weekPhrase:  "last week",
	monthPhrase: func(m time.Month) string { return fmt.Sprintf("in %s 2024", m) },
	question: [4]string{
		"what did I have for lunch %s?",
		"what was agreed at the meeting %s?",
		"what did I get when I went shopping %s?",
		"what did I watch %s in the evening?",
	},
}

var diaryZH = diaryLang{
	acts: [4]diaryAct{
		{0, "用户：午饭在{place}吃了{dish}，和{person}一起。\n助手：记下了。"},
		{0, "用户：和{person}开会讨论{topic}，决定{decision}。\n助手：好的，会议结论已记下。"},
		{0, "用户：去{shop}购物，买了{item}。\n助手：收到。"},
		{0, "用户：晚上在家看了电影《{film}》。\n助手：祝你晚上愉快。"},
	},
	slots: map[string][]string{
		"dish":     {"拉面", "饺子", "牛肉面", "宫保鸡丁", "寿司", "炒饭", "麻辣烫", "煎饼果子", "小笼包", "咖喱饭"},
		"place":    {"公司食堂", "街角面馆", "老王饭店", "湘菜馆", "日料店", "快餐店"},
		"person":   {"小李", "王经理", "张伟", "刘洋", "陈静", "赵敏", "孙磊"},
		"topic":    {"预算", "招聘计划", "发布日期", "数据库迁移", "搬办公室", "安全审查"},
		"decision": {"推迟一个月", "招两名工程师", "周五发布", "迁移到新系统", "缩小范围", "先做试点"},
		"shop":     {"超市", "五金店", "书店", "电器城", "药店"},
		"item":     {"电钻", "苹果", "一本小说", "耳机", "维生素", "台灯", "电池"},
		"film":     {"流浪地球", "让子弹飞", "霸王别姬", "千与千寻", "功夫", "大话西游"},
	},
	dayPhrases: []func(time.Time, int) string{
		func(_ time.Time, back int) string { return map[int]string{1: "昨天", 2: "前天"}[back] },
		func(_ time.Time, back int) string {
			if back >= 3 && back <= 9 {
				return numZH[back] + "天前"
			}
			return ""
		},
		// 上周X: that weekday of last ISO week.
		func(d time.Time, _ int) string {
			lastMon := isoMonday(diaryNow).AddDate(0, 0, -7)
			if !d.Before(lastMon) && d.Before(lastMon.AddDate(0, 0, 7)) {
				return "上周" + weekdaysZH[d.Weekday()]
			}
			return ""
		},
		func(d time.Time, back int) string {
			if back >= 1 && back < 365 {
				return fmt.Sprintf("%d月%d日", d.Month(), d.Day())
			}
			return ""
		},
		func(d time.Time, _ int) string { return fmt.Sprintf("%d年%d月%d日", d.Year(), d.Month(), d.Day()) },
	},
	weekPhrase:  "上周",
	monthPhrase: func(m time.Month) string { return fmt.Sprintf("2024年%d月", m) },
	question:    [4]string{"%s午饭吃了什么？", "%s开会决定了什么？", "%s去购物买了什么？", "%s晚上看了什么电影？"},
}

func isoMonday(t time.Time) time.Time {
	y, m, d := t.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, t.Location())
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
}

// diary returns the entries of lang and its questions.
func diary(lang diaryLang, zh bool, seed uint64) ([]store.Entry, []diaryQ) {
	r := rand.New(rand.NewPCG(seed, 22))
	first := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	today := time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)
	var es []store.Entry
	// Names are opaque, as a conversation's turn ids are: a name holding
	// the date would let the words find it.
	names := map[string]string{}
	used := map[string]bool{}
	name := func(d time.Time, act int) string {
		k := fmt.Sprintf("%s-%d", d.Format(time.DateOnly), act)
		if n, ok := names[k]; ok {
			return n
		}
		n := fmt.Sprintf("turn-%06x", r.Uint32()&0xffffff)
		for used[n] {
			n = fmt.Sprintf("turn-%06x", r.Uint32()&0xffffff)
		}
		used[n], names[k] = true, n
		return n
	}
	for d := first; d.Before(today); d = d.AddDate(0, 0, 1) {
		for act, a := range lang.acts {
			text := a.tmpl
			vals := map[string]string{}
			// In sorted order: a map's order differs from run to run, and
			// with it the values drawn, so each run had another corpus.
			for _, k := range slices.Sorted(maps.Keys(lang.slots)) {
				vs := lang.slots[k]
				vals[k] = vs[r.IntN(len(vs))]
			}
			text = expand(text, vals)
			e := store.Entry{Category: "diary", Name: name(d, act), Content: text}
			if zh {
				e.Meta.Date = d // a calendar day
			} else {
				e.Meta.Date = d.Add(time.Duration(a.hour)*time.Hour + time.Duration(r.IntN(60))*time.Minute)
			}
			es = append(es, e)
		}
	}
	var qs []diaryQ
	for len(qs) < 120 {
		act := r.IntN(4)
		var back int
		if r.IntN(2) == 0 {
			back = 1 + r.IntN(9)
		} else {
			back = 1 + r.IntN(379)
		}
		d := today.AddDate(0, 0, -back)
		p := lang.dayPhrases[r.IntN(len(lang.dayPhrases))](d, back)
		if p == "" {
			continue
		}
		qs = append(qs, diaryQ{text: fmt.Sprintf(lang.question[act], p), relevant: map[string]bool{name(d, act): true}})
	}
	period := func(text string, from, to time.Time, act int) diaryQ {
		q := diaryQ{text: text, relevant: map[string]bool{}, period: true}
		for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
			q.relevant[name(d, act)] = true
		}
		return q
	}
	lastMon := isoMonday(today).AddDate(0, 0, -7)
	for act := range 4 {
		qs = append(qs, period(fmt.Sprintf(lang.question[act], lang.weekPhrase), lastMon, lastMon.AddDate(0, 0, 7), act))
		for _, m := range []time.Month{time.March, time.July, time.November} {
			p := lang.monthPhrase(m)
			from := time.Date(2024, m, 1, 0, 0, 0, 0, time.UTC)
			qs = append(qs, period(fmt.Sprintf(lang.question[act], p), from, from.AddDate(0, 1, 0), act))
		}
	}
	return es, qs
}

func expand(tmpl string, vals map[string]string) string {
	out := []byte{}
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] == '{' {
			j := i + 1
			for tmpl[j] != '}' {
				j++
			}
			out = append(out, vals[tmpl[i+1:j]]...)
			i = j
			continue
		}
		out = append(out, tmpl[i])
	}
	return string(out)
}

// diaryScores are a run's figures: over the questions naming a day,
// the share whose entry is first (R@1) and in the top 5 (R@5); over
// those naming a period, the share of the top 5 in it and of the
// activity asked about (P@5).
type diaryScores struct{ r1, r5, p5 float64 }

func runDiary(t *testing.T, e *retrieve.Engine, qs []diaryQ, noTime bool) diaryScores {
	t.Helper()
	var s diaryScores
	days, periods := 0, 0
	for _, q := range qs {
		res, err := e.Retrieve(context.Background(), retrieve.Request{Query: q.text, Limit: 5, NoLinks: true, Now: diaryNow, NoTime: noTime, Budget: retrieve.Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for i, it := range res.Items {
			if slices.ContainsFunc(answered(it), func(n string) bool { return q.relevant[n] }) {
				hits++
				if !q.period && i == 0 {
					s.r1++
				}
			}
		}
		if q.period {
			// Of the first five names answered (an item's own, then
			// those collapsed into it), the share in the period.
			periods++
			var names []string
			for _, it := range res.Items {
				names = append(names, answered(it)...)
			}
			in := 0
			for _, n := range names[:min(5, len(names))] {
				if q.relevant[n] {
					in++
				}
			}
			s.p5 += float64(in) / 5
			continue
		}
		days++
		if hits > 0 {
			s.r5++
		}
	}
	s.r1 /= float64(days)
	s.r5 /= float64(days)
	s.p5 /= float64(periods)
	return s
}

// answered returns the names an item answers for: its own and those of
// the duplicates collapsed into it (the same fact, told once). A day
// question's item is relevant when one of them is; a period's P@5
// counts them all, since a period's copies are collapsed into one item.
func answered(it retrieve.Item) []string {
	names := []string{it.Name}
	for _, id := range it.Collapsed {
		_, n, _ := strings.Cut(id, ":")
		names = append(names, n)
	}
	return names
}

// TestDiaryCorpusStable checks that the diary is the same corpus at
// every call: its values were once drawn in a map's random order, so
// each run measured another corpus (and, with duplicates collapsed,
// another answer).
func TestDiaryCorpusStable(t *testing.T) {
	for _, c := range []struct {
		lang diaryLang
		zh   bool
	}{{diaryEN, false}, {diaryZH, true}} {
		a, qa := diary(c.lang, c.zh, 1)
		for range 3 {
			b, qb := diary(c.lang, c.zh, 1)
			if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(qa, qb) {
				t.Fatalf("zh=%v: two diaries from one seed differ", c.zh)
			}
		}
	}
}

// TestDiaryTime measures the diary's questions with the time phrase
// read (the default) and with the whole question as words (NoTime), on
// a bolt store. Read: every question's day or period is found and its
// entry ranked first; as words, the date is a guess among a year's
// lunches.
func TestDiaryTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two stores of 1,500 entries")
	}
	for _, c := range []struct {
		name string
		lang diaryLang
		zh   bool
	}{{"en", diaryEN, false}, {"zh", diaryZH, true}} {
		t.Run(c.name, func(t *testing.T) {
			es, qs := diary(c.lang, c.zh, 1)
			st, err := boltstore.Open(t.TempDir()+"/diary.db", &boltstore.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for _, e := range es {
				if err := st.Put(context.Background(), e); err != nil {
					t.Fatal(err)
				}
			}
			eng := retrieve.New(st, retrieve.Options{})
			read := runDiary(t, eng, qs, false)
			words := runDiary(t, eng, qs, true)
			t.Logf("%s: %d entries, %d questions; time read: R@1 %.3f R@5 %.3f P@5 %.3f; words only: R@1 %.3f R@5 %.3f P@5 %.3f",
				c.name, len(es), len(qs), read.r1, read.r5, read.p5, words.r1, words.r5, words.p5)
			if read.r1 != 1 || read.p5 != 1 {
				t.Errorf("%s: with the time read, R@1 %.3f and P@5 %.3f, want 1 and 1: a phrase was misread or the range filter lost an entry", c.name, read.r1, read.p5)
			}
		})
	}
}
