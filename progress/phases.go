package progress

import (
	"io"

	"github.com/schollz/progressbar/v3"
)

// Phases shows one bar at a time on W, for a run made of phases (loading a
// dataset, timing its queries, ...): each change of phase finishes the bar
// of the last one and starts a new bar. On anything but a terminal it
// shows nothing. The zero value with W set is ready to use; it is not
// safe for concurrent use.
type Phases struct {
	W io.Writer

	bar   *progressbar.ProgressBar
	desc  string
	total int
}

// Update reports done of total steps of the phase desc. A desc or total
// other than the last call's starts a new bar.
func (p *Phases) Update(desc string, done, total int) {
	if p.bar == nil || desc != p.desc || total != p.total {
		p.Finish()
		p.desc, p.total = desc, total
		p.bar = New(p.W, total, desc)
	}
	if p.bar != nil {
		_ = p.bar.Set(done)
	}
}

// Finish finishes the bar shown, if any.
func (p *Phases) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}
