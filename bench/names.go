package bench

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

// escapeMark starts an escape: the mark and two upper-case hex digits stand
// for one byte of the id. '_' is allowed in names, reads as a separator and
// keeps the tokenizer's view of the name close to the id's (it is not a
// letter, so it splits words as '<' or ':' would have).
const escapeMark = '_'

// EntryName maps a document id to an entry name that passes
// store.ValidateName, reversibly (DocID undoes it). Ids that are already
// valid names map to themselves unless they contain '_' followed by two
// upper-case hex digits. Every other byte of a rune a name may not hold
// (SPEC §1: '/', ':', '<', '?' and so on), a leading '.', a trailing '.'
// or space, and the first letter of a Windows device name (CON, …) becomes
// "_XX", its byte in upper-case hex, as in URL percent-encoding:
//
//	<dbpedia:Foo_Bar>  →  _3Cdbpedia_3AFoo_Bar_3E
//	drcd-1147-5        →  drcd-1147-5
//	foo_1A             →  foo_5F1A
func EntryName(id string) (string, error) {
	if id == "" {
		return "", fmt.Errorf("%w: empty id", ErrName)
	}
	if !utf8.ValidString(id) {
		return "", fmt.Errorf("%w: id %q is not valid UTF-8", ErrName, id)
	}
	var b strings.Builder
	b.Grow(len(id))
	for i, r := range id {
		size := utf8.RuneLen(r)
		switch {
		case r == escapeMark && literalFollows(id[i+1:]):
			escapeBytes(&b, id[i:i+1])
		case i == 0 && r == '.', !nameRune(r):
			escapeBytes(&b, id[i:i+size])
		default:
			b.WriteRune(r)
		}
	}
	name := b.String()
	// A name may not end in '.' or a space, nor be a Windows device name.
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		last := name[len(name)-1:]
		name = name[:len(name)-1]
		var e strings.Builder
		escapeBytes(&e, last)
		name += e.String()
	}
	if store.IsDeviceName(name) {
		var e strings.Builder
		escapeBytes(&e, name[:1])
		name = e.String() + name[1:]
	}
	if len(name) > store.MaxNameBytes {
		return "", fmt.Errorf("%w: id %q is %d bytes once escaped, the limit is %d", ErrName, id, len(name), store.MaxNameBytes)
	}
	return name, nil
}

// DocID undoes EntryName.
func DocID(name string) (string, error) {
	if !strings.ContainsRune(name, escapeMark) {
		return name, nil
	}
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == escapeMark && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]) {
			b.WriteByte(unhex(name[i+1])<<4 | unhex(name[i+2]))
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	id := b.String()
	if !utf8.ValidString(id) {
		return "", fmt.Errorf("%w: %q decodes to invalid UTF-8", ErrName, name)
	}
	return id, nil
}

// literalFollows reports whether the two runes after a literal escape mark
// would be read as hex digits by DocID, so that the mark must be escaped
// itself. Only runes written literally count: an escaped rune starts with
// the mark, which is not a hex digit.
func literalFollows(rest string) bool {
	if len(rest) < 2 || !isHex(rest[0]) || !isHex(rest[1]) {
		return false
	}
	// Hex digits are ASCII letters and digits, always written literally.
	return true
}

// nameRune reports whether store.ValidateName accepts r inside a name.
func nameRune(r rune) bool {
	return store.ValidateName("name", "x"+string(r)+"x") == nil
}

func escapeBytes(b *strings.Builder, s string) {
	const digits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		b.WriteByte(escapeMark)
		b.WriteByte(digits[s[i]>>4])
		b.WriteByte(digits[s[i]&0x0f])
	}
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}
