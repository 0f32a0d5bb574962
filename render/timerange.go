package render

import (
	"fmt"
	"time"

	"github.com/recallhq/recall/retrieve"
)

// TimeRangeLine is the human form of what a time range was understood as.
func TimeRangeLine(tr *retrieve.TimeRange) string {
	at := func(t time.Time) string {
		if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
			return t.Format("2006-01-02 (Mon) MST")
		}
		return t.Format(time.RFC3339)
	}
	var span string
	switch {
	case tr.From.IsZero() && tr.To.IsZero():
		span = "any time"
	case tr.From.IsZero():
		span = "before " + at(tr.To)
	case tr.To.IsZero():
		span = "from " + at(tr.From) + " on"
	default:
		span = fmt.Sprintf("from %s up to %s", at(tr.From), at(tr.To))
	}
	if tr.Text != "" {
		return fmt.Sprintf("time: %q = %s", tr.Text, span)
	}
	return "time: " + span
}
