package render

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
