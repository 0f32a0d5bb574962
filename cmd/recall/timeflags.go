package main

import (
	"cmp"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/timeexpr"
)

// timeFlags are the time range flags of retrieve and ls.
type timeFlags struct {
	after, before, now, tz string
	noTime                 bool
	zone                   *time.Location
	// dates is --after/--before as validate read them (in zone, else
	// the local zone).
	dates timeexpr.Range
}

// register adds the flags; phrases says whether the command reads time
// phrases in a query (retrieve) and so has --now and --no-time.
func (t *timeFlags) register(cmd *cobra.Command, phrases bool) {
	f := cmd.Flags()
	f.StringVar(&t.after, "after", "", "only entries dated on or after `DATE` (2024-05-03 or RFC 3339)")
	f.StringVar(&t.before, "before", "", "only entries dated before `DATE` (exclusive)")
	f.StringVar(&t.tz, "tz", "", "time `ZONE` of dates and phrases, e.g. Asia/Shanghai (default $TZ, else local)")
	if phrases {
		f.StringVar(&t.now, "now", "", "read relative time phrases from `TIME` (RFC 3339; default: now)")
		f.BoolVar(&t.noTime, "no-time", false, "keep a time phrase in the query as words")
	}
}

func (t *timeFlags) validate(cmd *cobra.Command) error {
	if t.tz != "" {
		loc, err := time.LoadLocation(t.tz)
		if err != nil {
			return usagef(cmd, "--tz %q is not a time zone such as Asia/Shanghai or UTC", t.tz)
		}
		t.zone = loc
	}
	// retrieve's service reads them again, in --now's zone; here the
	// error names the flag.
	loc := cmp.Or(t.zone, time.Local)
	for _, f := range []struct {
		name, s string
		t       *time.Time
	}{{"--after", t.after, &t.dates.From}, {"--before", t.before, &t.dates.To}} {
		if f.s == "" {
			continue
		}
		d, err := timeexpr.ParseDate(f.s, loc)
		if err != nil {
			return usagef(cmd, "%s: %v", f.name, err)
		}
		*f.t = d
	}
	if t.now != "" {
		if _, err := time.Parse(time.RFC3339Nano, t.now); err != nil {
			return usagef(cmd, "--now %q is not an RFC 3339 time such as 2025-06-01T09:00:00+08:00", t.now)
		}
	}
	return nil
}

// fill puts the flags into the service's parameters, which check them.
func (t *timeFlags) fill(p *service.RetrieveParams) {
	p.After, p.Before, p.Now, p.NoTime, p.Zone = t.after, t.before, t.now, t.noTime, t.zone
}
