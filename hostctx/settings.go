package hostctx

import (
	"fmt"
	"time"
)

// Settings are Options as a person gives them, as `recall context` takes
// its flags. Options checks them; its errors name the flags.
type Settings struct {
	Budget  int           // --budget: the token cap; 0 means no cap
	Recent  time.Duration // --recent
	Timeout time.Duration // --timeout: more than 0
	Format  string        // --format: "json" or "text"
}

// Options checks s and returns it as Options.
func (s Settings) Options() (Options, error) {
	o := Options{Budget: s.Budget, Recent: s.Recent, Timeout: s.Timeout}
	switch s.Format {
	case "json":
		o.Format = JSON
	case "text":
		o.Format = Text
	default:
		return o, fmt.Errorf("--format must be json or text, got %q", s.Format)
	}
	if s.Timeout <= 0 {
		return o, fmt.Errorf("--timeout must be more than 0, got %v", s.Timeout)
	}
	if s.Budget < 0 {
		return o, fmt.Errorf("--budget must be 0 (no cap) or more, got %d", s.Budget)
	}
	if s.Budget == 0 {
		o.Budget = -1 // the flag's 0 is "no cap"
	}
	return o, nil
}
