package importer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/recallhq/recall/store"
)

// forbidden are the characters SPEC §1 keeps out of names: they break
// links or file names.
const forbidden = `/\:[]|#^<>"?*`

// SuggestName returns a name close to s that the store accepts, for
// reports ("rename it to ..."); "" when s is already acceptable or no
// acceptable name could be derived. Each run of forbidden characters
// becomes one '-', control characters are dropped, leading dots and
// trailing dots and spaces are trimmed, a Windows device name gets a '_',
// and the result is cut to the byte limit on a character boundary.
func SuggestName(s string) string {
	if store.ValidateName("name", s) == nil {
		return ""
	}
	s = norm.NFC.String(strings.ToValidUTF8(s, "-"))
	var b strings.Builder
	dash := false
	for _, r := range s {
		switch {
		case strings.ContainsRune(forbidden, r):
			if !dash {
				b.WriteByte('-')
			}
			dash = true
			continue
		case r == 0 || unicode.IsControl(r):
			continue
		}
		dash = false
		b.WriteRune(r)
	}
	out := strings.TrimLeft(strings.TrimSpace(b.String()), ".")
	if isDeviceName(out) {
		stem, ext, _ := strings.Cut(out, ".")
		out = stem + "_"
		if ext != "" {
			out += "." + ext
		}
	}
	for len(out) > store.MaxNameBytes {
		_, n := utf8.DecodeLastRuneInString(out)
		out = out[:len(out)-n]
	}
	out = strings.TrimRight(out, ". ")
	if out == "" || out == s || store.ValidateName("name", out) != nil {
		return ""
	}
	return out
}

// isDeviceName reports a Windows device name, with or without an
// extension, in any case: CON, prn.txt, COM1, LPT9.md.
func isDeviceName(s string) bool {
	stem, _, _ := strings.Cut(s, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) {
		return stem[3] >= '1' && stem[3] <= '9'
	}
	return false
}
