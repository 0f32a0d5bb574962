package progress

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// New returns a progress bar on w for n steps, described by desc, or nil
// when w is not a terminal: progress is for people, never for logs or
// pipes. The bar shows the count and the predicted time, redraws at most
// every 100 ms, and clears itself on Finish.
func New(w io.Writer, n int, desc string) *progressbar.ProgressBar {
	if !IsTerminal(w) {
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

// IsTerminal reports whether a stream is an interactive terminal: an
// *os.File on one. Buffers (tests) and pipes are not.
func IsTerminal(stream any) bool {
	f, ok := stream.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
