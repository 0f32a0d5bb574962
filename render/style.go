package render

import "github.com/recallhq/recall/progress"

// Style applies modest emphasis (bold, dim) when Color is on, and nothing
// otherwise. Turn Color on only for a terminal that wants it: recall does
// when stdout is a terminal, NO_COLOR is unset and TERM is not "dumb".
type Style struct{ Color bool }

func (s Style) bold(x string) string { return s.wrap("\x1b[1m", x) }
func (s Style) dim(x string) string  { return s.wrap("\x1b[2m", x) }

func (s Style) wrap(code, x string) string {
	if !s.Color || x == "" {
		return x
	}
	return code + x + "\x1b[0m"
}

// StyleFor is the style of human output to w: colour only on a terminal,
// and never when NO_COLOR is set (https://no-color.org) or the terminal
// is dumb, getenv looking up the environment.
func StyleFor(w any, getenv func(string) string) Style {
	return Style{Color: progress.IsTerminal(w) && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"}
}
