package setup_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/timeexpr"
)

func TestTimeParse(t *testing.T) {
	zone, r, err := setup.Time{After: "2024-05-01", Before: "2024-06-01T00:00:00+08:00", Now: "2025-06-01T09:00:00+08:00", TZ: "Asia/Shanghai"}.Parse()
	if err != nil {
		t.Fatal(err)
	}
	if zone == nil || zone.String() != "Asia/Shanghai" {
		t.Errorf("zone %v", zone)
	}
	if want := time.Date(2024, 5, 1, 0, 0, 0, 0, zone); !r.From.Equal(want) || r.From.Location() != zone {
		t.Errorf("from %v, want midnight in the zone", r.From)
	}
	if want := time.Date(2024, 5, 31, 16, 0, 0, 0, time.UTC); !r.To.Equal(want) {
		t.Errorf("to %v, want %v (the time keeps its offset)", r.To, want)
	}
	if zone, r, err := (setup.Time{}).Parse(); zone != nil || r != (timeexpr.Range{}) || err != nil {
		t.Errorf("nothing given: %v, %v, %v", zone, r, err)
	}
	if _, r, _ := (setup.Time{After: "2024-05-01"}).Parse(); r.From.Location() != time.Local {
		t.Errorf("without --tz a date is midnight in the local zone, got %v", r.From)
	}
	for _, tt := range []struct {
		t       setup.Time
		setting string
		msg     string
	}{
		{setup.Time{TZ: "Mars/Base"}, "--tz", `--tz "Mars/Base" is not a time zone`},
		{setup.Time{After: "junk"}, "--after", `--after: invalid date "junk"`},
		{setup.Time{Before: "2024-13-01"}, "--before", "--before: invalid date"},
		{setup.Time{Now: "tomorrow"}, "--now", `--now "tomorrow" is not an RFC 3339 time`},
	} {
		_, _, err := tt.t.Parse()
		var se *setup.Error
		if !errors.As(err, &se) || se.Setting != tt.setting || !strings.HasPrefix(err.Error(), tt.msg) {
			t.Errorf("%+v: %v, want %s: %q", tt.t, err, tt.setting, tt.msg)
		}
	}
}
