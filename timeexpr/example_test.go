package timeexpr_test

import (
	"fmt"
	"time"

	"github.com/recallhq/recall/timeexpr"
)

func ExampleFind() {
	now := time.Date(2025, 6, 18, 15, 0, 0, 0, time.UTC) // a Wednesday
	for _, q := range []string{
		"what did we decide last week?",
		"上周去了哪里",
		"notes since March",
		"May I have coffee",
	} {
		m, ok := timeexpr.Find(q, now)
		if !ok {
			fmt.Printf("%q: no time phrase\n", q)
			continue
		}
		fmt.Printf("%q: %q [%s, %s) leaves %q\n", q, m.Text, day(m.Range.From), day(m.Range.To), timeexpr.Without(q, m))
	}
	// Output:
	// "what did we decide last week?": "last week" [2025-06-09, 2025-06-16) leaves "what did we decide?"
	// "上周去了哪里": "上周" [2025-06-09, 2025-06-16) leaves "去了哪里"
	// "notes since March": "since March" [2025-03-01, open) leaves "notes"
	// "May I have coffee": no time phrase
}

func day(t time.Time) string {
	if t.IsZero() {
		return "open"
	}
	return t.Format("2006-01-02")
}

func ExampleParseDate() {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	t, err := timeexpr.ParseDate("2024-05-03", sh)
	fmt.Println(t, err)
	_, err = timeexpr.ParseDate("2024-02-30", sh)
	fmt.Println(err)
	// Output:
	// 2024-05-03 00:00:00 +0800 CST <nil>
	// invalid date "2024-02-30": day 30 is not 01-29 in February 2024
}
