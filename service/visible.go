package service

import (
	"fmt"
	"strings"
	"unicode"
)

// Visible escapes the control characters of s (C0, DEL and C1, as \xNN;
// tabs stay), so that stored text printed to a terminal (an escape
// sequence in a hand-edited file's tag or front matter, echoed by a
// listing or an error message) cannot drive it. Text without control
// characters is returned as it is.
func Visible(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) { // all below 0x100
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func hidden(r rune) bool { return r != '\t' && unicode.IsControl(r) }
