package store

import (
	"strings"
	"unicode/utf8"
)

// The name mapping (SPEC §1, "Names a file system holds"): a folder of
// notes may hold file and folder names that SPEC §1 refuses for new
// entries ("What is it?", "Q3: plan", "Notes…" cut to "Notes."). Such a
// name is still a note: its identity is EscapeName of the name as
// written, and the file it lives in is UnescapeName of the identity.
//
// EscapeName writes each character that makes a name unacceptable as
// '%' and two upper-case hex digits of its byte: the characters
// / \ : [ ] | # ^ < > " ? * anywhere, control characters and NUL
// anywhere, a '.' at the start, a '.' or space at the end, and the first
// letter of a Windows device name (CON → %43ON). '/' and NUL, which no
// file name holds, are never escaped (a name with them stays invalid). A '%' that is followed
// by two digits EscapeName could have written is written %25, so that the
// mapping is reversible: UnescapeName(EscapeName(s)) == s for every s, and
// two names never share an identity. A name SPEC §1 accepts and that holds
// no such '%' sequence is its own identity, so every store written under
// the rules keeps its identities.
//
//	What is it?   ↔ What is it%3F
//	Q3: plan      ↔ Q3%3A plan
//	Notes.        ↔ Notes%2E
//	100%3A        ↔ 100%253A   (a literal "%3A")
//	100% sure     ↔ 100% sure  (no escape sequence: unchanged)

// RootCategory is the category of the notes at the top of a folder of
// notes (a vault's root): the folder store keeps them there (store/fs), an
// import gives it to them, and links see them at the top of the vault.
const RootCategory = "_root"

// escapeCodes are the bytes EscapeName may write as %HH: what
// UnescapeName decodes. Every other %HH is literal text.
var escapeCodes = func() (t [256]bool) {
	for i := 1; i < 0x20; i++ {
		t[i] = true
	}
	t[0x7f] = true
	for _, c := range forbiddenRunes + `%. ` + "CPANLcpanl" {
		t[c] = true
	}
	// No file or folder name holds '/' or NUL: a name with them is
	// refused, never mapped, so that no identity means a path.
	t['/'], t[0] = false, false
	return t
}()

const hexDigits = "0123456789ABCDEF"

// EscapeName returns the identity of a file or folder name as written
// (without ".md"): s itself when SPEC §1 accepts it, else s with the
// characters at fault escaped (see the mapping above). s is taken as
// given; callers normalise it to NFC first.
func EscapeName(s string) string {
	var b []byte // nil until something is escaped
	put := func(i int, esc bool) {
		if esc && b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		if b == nil {
			return
		}
		if esc {
			b = append(b, '%', hexDigits[s[i]>>4], hexDigits[s[i]&15])
		} else {
			b = append(b, s[i])
		}
	}
	device := IsDeviceName(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		esc := escapeCodes[c] && (c < 0x20 || c == 0x7f || strings.IndexByte(forbiddenRunes, c) >= 0) ||
			c == '%' && isEscape(s, i) ||
			i == 0 && (c == '.' || device) ||
			i == len(s)-1 && (c == '.' || c == ' ')
		put(i, esc)
	}
	if b == nil {
		return s
	}
	return string(b)
}

// isEscape reports whether s[i:] starts with a sequence UnescapeName
// decodes: '%' and two upper-case hex digits of an escape code.
func isEscape(s string, i int) bool {
	if i+2 >= len(s) || s[i] != '%' {
		return false
	}
	hi, lo := strings.IndexByte(hexDigits, s[i+1]), strings.IndexByte(hexDigits, s[i+2])
	return hi >= 0 && lo >= 0 && escapeCodes[hi<<4|lo]
}

// UnescapeName returns the name as written (the file or folder name,
// without ".md") of an identity: the inverse of EscapeName. A name without
// escape sequences is returned as it is.
func UnescapeName(name string) string {
	i := strings.IndexByte(name, '%')
	if i < 0 {
		return name
	}
	b := make([]byte, 0, len(name))
	b = append(b, name[:i]...)
	for ; i < len(name); i++ {
		if isEscape(name, i) {
			b = append(b, byte(strings.IndexByte(hexDigits, name[i+1])<<4|strings.IndexByte(hexDigits, name[i+2])))
			i += 2
			continue
		}
		b = append(b, name[i])
	}
	return string(b)
}

// NameKey returns the identity a name refers to when a user or a link
// gives it for lookup: the name itself when it needs no escape, else
// EscapeName of it. So `[[What is it?]]`, `recall get notes "What is it?"`
// and `recall get notes "What is it%3F"` all reach the note written
// "What is it?". Writes of a new entry do not go through NameKey: `recall
// add` still refuses "What is it?" (Validate).
func NameKey(name string) string {
	if !needsEscape(name) {
		return name
	}
	return EscapeName(name)
}

// CategoryKey is NameKey for each level of a category.
func CategoryKey(category string) string {
	if !needsEscape(strings.ReplaceAll(category, "/", "")) {
		return category
	}
	segs := strings.Split(category, "/")
	for i, s := range segs {
		segs[i] = NameKey(s)
	}
	return strings.Join(segs, "/")
}

// CategoryPath returns the folder path of a category: UnescapeName of each
// level. A category without escape sequences is returned as it is.
func CategoryPath(category string) string {
	if !strings.Contains(category, "%") {
		return category
	}
	segs := strings.Split(category, "/")
	for i, s := range segs {
		segs[i] = UnescapeName(s)
	}
	return strings.Join(segs, "/")
}

// DisplayKey renders a key as written: "category:name" with each level
// unescaped (UnescapeName), for people to read. Key.String is the
// identity.
func DisplayKey(k Key) string { return CategoryPath(k.Category) + ":" + UnescapeName(k.Name) }

// MappedDisplayKey is DisplayKey(k) when that differs from the identity
// (a name or category mapped by EscapeName), else "": the display_name of
// JSON answers, absent for ordinary names. A key without '%' costs no
// allocation.
func MappedDisplayKey(k Key) string {
	if strings.IndexByte(k.Name, '%') < 0 && strings.IndexByte(k.Category, '%') < 0 {
		return ""
	}
	if d := DisplayKey(k); d != k.String() {
		return d
	}
	return ""
}

// needsEscape reports whether a name holds something EscapeName escapes,
// other than a '%' sequence.
func needsEscape(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; escapeCodes[c] && (c < 0x20 || c == 0x7f || strings.IndexByte(forbiddenRunes, c) >= 0) {
			return true
		}
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	return s[0] == '.' || last == '.' || last == ' ' || IsDeviceName(s)
}
