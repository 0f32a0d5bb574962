package setup

import (
	"cmp"
	"fmt"
	"time"

	"github.com/recallhq/recall/timeexpr"
)

// Time is the time settings of retrieve and ls as a person gives them
// (--after, --before, --now, --tz).
type Time struct {
	After, Before string // a date 2024-05-03 or an RFC 3339 time (timeexpr.ParseDate)
	Now           string // an RFC 3339 time
	TZ            string // an IANA zone name, e.g. Asia/Shanghai
}

// Parse checks t and returns its zone (nil when TZ is empty) and the
// range After and Before give, read in the zone (else the local zone). A
// setting at fault is an *Error naming its flag.
func (t Time) Parse() (zone *time.Location, r timeexpr.Range, err error) {
	if t.TZ != "" {
		if zone, err = time.LoadLocation(t.TZ); err != nil {
			return nil, r, &Error{"--tz", fmt.Sprintf("--tz %q is not a time zone such as Asia/Shanghai or UTC", t.TZ)}
		}
	}
	loc := cmp.Or(zone, time.Local)
	for _, f := range []struct {
		name, s string
		t       *time.Time
	}{{"--after", t.After, &r.From}, {"--before", t.Before, &r.To}} {
		if f.s == "" {
			continue
		}
		d, err := timeexpr.ParseDate(f.s, loc)
		if err != nil {
			return nil, r, &Error{f.name, fmt.Sprintf("%s: %v", f.name, err)}
		}
		*f.t = d
	}
	if t.Now != "" {
		if _, err := time.Parse(time.RFC3339Nano, t.Now); err != nil {
			return nil, r, &Error{"--now", fmt.Sprintf("--now %q is not an RFC 3339 time such as 2025-06-01T09:00:00+08:00", t.Now)}
		}
	}
	return zone, r, nil
}
