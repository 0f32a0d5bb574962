package timeexpr

import (
	"strings"
	"testing"
	"time"
)

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

var (
	shanghai = mustLoad("Asia/Shanghai")
	newYork  = mustLoad("America/New_York")
)

// The reference times of the tables, chosen for their boundaries.
var nows = map[string]time.Time{
	// A Wednesday in the middle of a month.
	"jun18": time.Date(2025, 6, 18, 15, 0, 0, 0, time.UTC),
	// New Year's Day, a Wednesday: last week, last month and yesterday lie in 2024.
	"jan1": time.Date(2025, 1, 1, 9, 0, 0, 0, newYork),
	// The last day of March, a Sunday, late in the evening in Shanghai
	// (still the 31st there, already 15:30 UTC).
	"mar31": time.Date(2024, 3, 31, 23, 30, 0, 0, shanghai),
	// 07:00 on Monday 1 April in Shanghai is 23:00 on Sunday 31 March in
	// UTC: the same instant falls on different days, weeks and months.
	"apr1sh":  time.Date(2024, 4, 1, 7, 0, 0, 0, shanghai),
	"apr1utc": time.Date(2024, 4, 1, 7, 0, 0, 0, shanghai).UTC(),
	// A leap day, a Thursday.
	"leap": time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC),
	// The Monday after the spring-forward Sunday (2025-03-09) in New York:
	// yesterday had 23 hours.
	"dst": time.Date(2025, 3, 10, 0, 30, 0, 0, newYork),
	// The Monday after the fall-back Sunday (2024-11-03): 25 hours.
	"fallback": time.Date(2024, 11, 4, 8, 0, 0, 0, newYork),
}

type parseCase struct {
	now      string
	query    string
	text     string // the phrase Find must report
	from, to string // "2006-01-02" or "2006-01-02 15:04" in now's location; "" is open
}

func at(t *testing.T, s string, loc *time.Location) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	layout := "2006-01-02"
	if len(s) > 10 {
		layout = "2006-01-02 15:04"
	}
	v, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		t.Fatalf("bad test time %q: %v", s, err)
	}
	return v
}

func checkParse(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		now, ok := nows[c.now]
		if !ok {
			t.Fatalf("no now %q", c.now)
		}
		m, ok := Find(c.query, now)
		if !ok {
			t.Errorf("Find(%q, %s): no phrase, want %q", c.query, c.now, c.text)
			continue
		}
		start := strings.Index(c.query, c.text)
		if m.Text != c.text || m.Start != start || m.End != start+len(c.text) {
			t.Errorf("Find(%q, %s) = %q [%d:%d], want %q [%d:%d]", c.query, c.now, m.Text, m.Start, m.End, c.text, start, start+len(c.text))
			continue
		}
		want := Range{at(t, c.from, now.Location()), at(t, c.to, now.Location())}
		if !m.Range.From.Equal(want.From) || !m.Range.To.Equal(want.To) {
			t.Errorf("Find(%q, %s) = [%s, %s), want [%s, %s)", c.query, c.now, show(m.Range.From), show(m.Range.To), show(want.From), show(want.To))
		}
		if !m.Range.From.IsZero() && m.Range.From.Location() != now.Location() {
			t.Errorf("Find(%q, %s): From in %v, want %v", c.query, c.now, m.Range.From.Location(), now.Location())
		}
	}
}

func checkRefused(t *testing.T, now time.Time, queries []string) {
	t.Helper()
	for _, q := range queries {
		if m, ok := Find(q, now); ok {
			t.Errorf("Find(%q) = %q [%s, %s), want no phrase", q, m.Text, show(m.Range.From), show(m.Range.To))
		}
	}
}

func show(t time.Time) string {
	if t.IsZero() {
		return "open"
	}
	return t.Format("2006-01-02 15:04 MST")
}
