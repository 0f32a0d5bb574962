package main

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// newBar returns a progress bar on w for n steps, or nil when w is not a
// terminal: progress is for people, never for logs or pipes.
func newBar(w io.Writer, n int, desc string) *progressbar.ProgressBar {
	if !isTerminal(w) {
		return nil
	}
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}
