package timeexpr

import (
	"testing"
	"time"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"what did I eat last week", "上周去了哪里", "between March and May", "从三月到五月",
	"May I have coffee", "三月兔", "2024-05-03", "2024年5月3日", "the past 3 days", "最近三天",
	"yesterday's notes", "in 2024 we moved", "1,500 years ago", "上周一到周三", "on May 3, 2024",
	"二〇二四年五月", "２０２４年５月", "last week’s", "\xff\xfe上周", "in\u00a0May", "",
}

// FuzzFind checks that Find never panics, reports a phrase of the query
// (valid offsets, Text == query[Start:End], From < To when both are set),
// reads the same phrase on its own, and that Without only takes text out.
func FuzzFind(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, int64(1750258800), uint8(0))
	}
	zones := []*time.Location{time.UTC, shanghai, newYork}
	f.Fuzz(func(t *testing.T, q string, unix int64, zone uint8) {
		now := time.Unix(unix%(1<<35), 0).In(zones[int(zone)%len(zones)])
		m, ok := Find(q, now)
		if !ok {
			if m != (Match{}) {
				t.Fatalf("Find(%q) = %+v with ok false", q, m)
			}
			if Without(q, m) != q {
				t.Fatalf("Without of the zero Match changed %q", q)
			}
			return
		}
		if m.Start < 0 || m.End > len(q) || m.Start >= m.End {
			t.Fatalf("Find(%q): offsets [%d:%d] out of range", q, m.Start, m.End)
		}
		if m.Text != q[m.Start:m.End] {
			t.Fatalf("Find(%q): Text %q is not query[%d:%d] = %q", q, m.Text, m.Start, m.End, q[m.Start:m.End])
		}
		if utf8.ValidString(q) && !utf8.ValidString(m.Text) {
			t.Fatalf("Find(%q): Text %q splits a rune", q, m.Text)
		}
		r := m.Range
		if r.From.IsZero() && r.To.IsZero() {
			t.Fatalf("Find(%q): a phrase with an empty range", q)
		}
		if !r.From.IsZero() && !r.To.IsZero() && !r.From.Before(r.To) {
			t.Fatalf("Find(%q) = [%s, %s): From not before To", q, r.From, r.To)
		}
		again, ok := Find(m.Text, now)
		if !ok || again.Start != 0 || again.End != len(m.Text) || !again.Range.From.Equal(r.From) || !again.Range.To.Equal(r.To) {
			t.Fatalf("Find(%q) = %q %v, but Find(%q) alone = %+v, %v", q, m.Text, r, m.Text, again, ok)
		}
		if w := Without(q, m); len(w) >= len(q) {
			t.Fatalf("Without(%q, %q) = %q did not take the phrase out", q, m.Text, w)
		}
	})
}
