package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
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

// validate checks the flags (setup.Time) and keeps the zone and range
// they give.
func (t *timeFlags) validate() (err error) {
	t.zone, t.dates, err = setup.Time{After: t.after, Before: t.before, Now: t.now, TZ: t.tz}.Parse()
	return err
}

// fill puts the flags into the service's parameters, which check them.
func (t *timeFlags) fill(p *service.RetrieveParams) {
	p.After, p.Before, p.Now, p.NoTime, p.Zone = t.after, t.before, t.now, t.noTime, t.zone
}
