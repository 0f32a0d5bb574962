package service

import "errors"

// ErrSurrogate is returned by CheckJSONText for a JSON string holding an
// unpaired UTF-16 surrogate escape ("\ud800"). encoding/json would turn
// it into U+FFFD; recall rejects text it would have to mangle (SPEC §1).
var ErrSurrogate = errors.New(`a JSON string holds an unpaired UTF-16 surrogate escape (such as "\ud800"), which is not text`)

// CheckJSONText reports ErrSurrogate when a JSON document's strings hold
// an escape that encoding/json would replace by U+FFFD: a high surrogate
// \uD800–\uDBFF not followed by a low one, or a low one \uDC00–\uDFFF
// alone. Other malformed JSON is left to the decoder.
func CheckJSONText(raw []byte) error {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(raw) {
				return nil
			}
			if raw[i+1] != 'u' {
				i++
				continue
			}
			r, ok := hex4(raw, i+2)
			if !ok {
				i++
				continue
			}
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return ErrSurrogate
			case r >= 0xD800 && r <= 0xDBFF:
				if i+11 < len(raw)+0 && raw[i+6] == '\\' && raw[i+7] == 'u' {
					if lo, ok := hex4(raw, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						i += 11
						continue
					}
				}
				return ErrSurrogate
			}
			i += 5
		}
	}
	return nil
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
