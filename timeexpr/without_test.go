package timeexpr

import (
	"testing"
	"time"
)

func TestWithout(t *testing.T) {
	now := nows["jun18"]
	cases := []struct{ query, want string }{
		{"what did I eat last week", "what did I eat"},
		{"what did I eat last week?", "what did I eat?"},
		{"last week what did I eat", "what did I eat"},
		{"notes  from last week  about rust", "notes about rust"},
		{"  yesterday  ", ""},
		{"yesterday", ""},
		{"yesterday's notes", "notes"},
		{"standup (yesterday)", "standup ()"},
		{"taxes in 2024, receipts", "taxes, receipts"},
		{"上周去了哪里", "去了哪里"},
		{"我上周去了哪里", "我去了哪里"},
		{"我上周 去了哪里", "我 去了哪里"},
		{"去年五月的旅行", "的旅行"},
		{"我昨天吃了什么？", "我吃了什么？"},
		{"last week的会议", "的会议"},
		{"会议 last week", "会议"},
	}
	for _, c := range cases {
		m, ok := Find(c.query, now)
		if !ok {
			t.Errorf("Find(%q): no phrase", c.query)
			continue
		}
		if got := Without(c.query, m); got != c.want {
			t.Errorf("Without(%q, %q) = %q, want %q", c.query, m.Text, got, c.want)
		}
	}
}

func TestWithoutForeignMatch(t *testing.T) {
	q := "what did I eat last week"
	for _, m := range []Match{
		{},
		{Start: -1, End: 3, Text: "wha"},
		{Start: 20, End: 40, Text: "week"},
		{Start: 5, End: 3, Text: ""},
		{Start: 0, End: 4, Text: "last"}, // Text is not query[Start:End]
	} {
		if got := Without(q, m); got != q {
			t.Errorf("Without(%q, %+v) = %q, want the query unchanged", q, m, got)
		}
	}
}

func TestRangeContains(t *testing.T) {
	m, _ := Find("last week", nows["jun18"])
	r := m.Range
	for _, c := range []struct {
		t    time.Time
		want bool
	}{
		{r.From, true},
		{r.From.Add(-time.Nanosecond), false},
		{r.To.Add(-time.Nanosecond), true},
		{r.To, false},
	} {
		if got := r.Contains(c.t); got != c.want {
			t.Errorf("[%s, %s).Contains(%s) = %v", show(r.From), show(r.To), c.t, got)
		}
	}
	since := Range{From: r.From}
	if !since.Contains(r.From.AddDate(100, 0, 0)) || since.Contains(r.From.Add(-1)) {
		t.Error("an open To must contain every time from From on")
	}
	if !(Range{}).Contains(time.Time{}) {
		t.Error("the zero Range must contain everything")
	}
}

// A day is a calendar day, not 24 hours: across a DST change it has 23 or
// 25.
func TestCalendarDaysAcrossDST(t *testing.T) {
	for _, c := range []struct {
		now   string
		query string
		hours float64
	}{
		{"dst", "yesterday", 23},
		{"dst", "昨天", 23},
		{"fallback", "yesterday", 25},
		{"dst", "last week", 7*24 - 1},
		{"jun18", "yesterday", 24},
	} {
		m, ok := Find(c.query, nows[c.now])
		if !ok {
			t.Fatalf("Find(%q): no phrase", c.query)
		}
		if got := m.Range.To.Sub(m.Range.From).Hours(); got != c.hours {
			t.Errorf("Find(%q, %s) spans %v hours, want %v", c.query, c.now, got, c.hours)
		}
		if h, mi, s := m.Range.From.Clock(); h+mi+s != 0 {
			t.Errorf("Find(%q, %s) starts at %s, not midnight", c.query, c.now, m.Range.From)
		}
	}
}

// Find allocates nothing (the package doc says so; retrieve calls it on
// every query).
func TestFindAllocatesNothing(t *testing.T) {
	now := nows["jun18"]
	for _, q := range []string{
		"how do I configure the rust toolchain", "想去海边玩", "what did we decide last week",
		"上週去了哪裡", "between March and May 2024", "我2024年5月3日在杭州开会", "May I have coffee",
	} {
		if n := testing.AllocsPerRun(100, func() { Find(q, now) }); n != 0 {
			t.Errorf("Find(%q) allocates %v times per call", q, n)
		}
	}
}
