package main

import (
	"github.com/spf13/cobra"

	"github.com/recallhq/recall/setup"
)

// registerTime adds the time range flags of retrieve and ls to t; noTime,
// when not nil, is for a command that reads time phrases in a query
// (retrieve), which also has --now and --no-time.
func registerTime(cmd *cobra.Command, t *setup.Time, noTime *bool) {
	f := cmd.Flags()
	f.StringVar(&t.After, "after", "", "only entries dated on or after `DATE` (2024-05-03 or RFC 3339)")
	f.StringVar(&t.Before, "before", "", "only entries dated before `DATE` (exclusive)")
	f.StringVar(&t.TZ, "tz", "", "time `ZONE` of dates and phrases, e.g. Asia/Shanghai (default $TZ, else local)")
	if noTime != nil {
		f.StringVar(&t.Now, "now", "", "read relative time phrases from `TIME` (RFC 3339; default: now)")
		f.BoolVar(noTime, "no-time", false, "keep a time phrase in the query as words")
	}
}
