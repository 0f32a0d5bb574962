package timeexpr

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	ok := []struct {
		in   string
		loc  *time.Location
		want time.Time
	}{
		{"2024-05-03", sh, time.Date(2024, 5, 3, 0, 0, 0, 0, sh)},
		{" 2024-05-03\n", time.UTC, time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)},
		{"2024-02-29", nil, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"2024-05-03T10:00:00Z", sh, time.Date(2024, 5, 3, 10, 0, 0, 0, time.UTC)},
		{"2024-05-03T10:00:00+08:00", time.UTC, time.Date(2024, 5, 3, 2, 0, 0, 0, time.UTC)},
		{"2024-05-03T10:00:00.250-04:00", time.UTC, time.Date(2024, 5, 3, 14, 0, 0, 250e6, time.UTC)},
		{"2024-05-03 10:00:00Z", time.UTC, time.Date(2024, 5, 3, 10, 0, 0, 0, time.UTC)},
	}
	for _, c := range ok {
		got, err := ParseDate(c.in, c.loc)
		if err != nil {
			t.Errorf("ParseDate(%q): %v", c.in, err)
			continue
		}
		if !got.Equal(c.want) {
			t.Errorf("ParseDate(%q) = %v, want %v", c.in, got, c.want)
		}
		if c.loc != nil && len(strings.TrimSpace(c.in)) == 10 && got.Location() != c.loc {
			t.Errorf("ParseDate(%q) in %v, want %v", c.in, got.Location(), c.loc)
		}
	}
	bad := []struct{ in, says string }{
		{"", "empty"},
		{"yesterday", "want YYYY-MM-DD or an RFC 3339"},
		{"2024-13-01", "month 13 is not 01-12"},
		{"2024-00-10", "month 0 is not 01-12"},
		{"2023-02-29", "day 29 is not 01-28 in February 2023"},
		{"2024-04-31", "day 31 is not 01-30 in April 2024"},
		{"2024-05-00", "day 0"},
		{"2024-5-3", "want YYYY-MM-DD"},
		{"2024-05-0x", "digits only"},
		{"2024/05/03", "want YYYY-MM-DD"},
		{"2024-05-03T10:00:00", "needs a zone offset"},
		{"2024-05-03T25:00:00Z", "hour out of range"},
		{"2024-05-03T10:00Z", "not RFC 3339"},
	}
	for _, c := range bad {
		_, err := ParseDate(c.in, time.UTC)
		if err == nil {
			t.Errorf("ParseDate(%q) = nil error, want one saying %q", c.in, c.says)
			continue
		}
		if !errors.Is(err, ErrInvalidDate) {
			t.Errorf("ParseDate(%q): %v does not wrap ErrInvalidDate", c.in, err)
		}
		if !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseDate(%q) = %q, want it to say %q", c.in, err, c.says)
		}
	}
}
