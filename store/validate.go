package store

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Limits of SPEC §1.
const (
	// MaxNameBytes bounds one segment (a name, or one level of a category),
	// in bytes of its NFC form.
	MaxNameBytes = 200
	// MaxCategoryDepth bounds how many segments a category has.
	MaxCategoryDepth = 8
	MaxContentBytes  = 1 << 20
	// MaxMetaBytes bounds an entry's metadata (tags and extra fields) as
	// the JSON text of the tags list plus that of the extra object: the
	// size of a folder store's front matter. Backends that can hold more
	// (PostgreSQL) refuse to write more, and say how much they serve.
	MaxMetaBytes = 256 << 10
)

// forbiddenRunes break links ([[a:b|c#d^e]]) or file names on some
// platform. Control characters and NUL are refused besides.
const forbiddenRunes = `/\:[]|#^<>"?*`

// FieldError reports which field of an entry is invalid and why. It wraps
// ErrInvalid.
type FieldError struct {
	Field  string // "category", "name", "content", "tags" (Value: the tag) or "meta"
	Value  string // the offending value, truncated for display
	Reason string
}

func (e *FieldError) Error() string {
	switch e.Field {
	case "content":
		return fmt.Sprintf("invalid content: %s", e.Reason)
	case "tags":
		return fmt.Sprintf("invalid tags: tag %q %s", e.Value, e.Reason)
	}
	return fmt.Sprintf("invalid %s %q: %s", e.Field, e.Value, e.Reason)
}

func (e *FieldError) Unwrap() error { return ErrInvalid }

// Normalize returns e with its category and name in Unicode NFC, the form
// identities are stored and compared in (SPEC §1). Content is untouched.
// Backends normalise what they are given; callers that compare identities
// themselves normalise first.
func Normalize(e Entry) Entry {
	e.Category, e.Name = NormalizeKey(e.Category, e.Name)
	return e
}

// NormalizeKey returns category and name in Unicode NFC. Invalid UTF-8 is
// returned unchanged, so that validation still reports it.
func NormalizeKey(category, name string) (string, string) {
	return nfc(category), nfc(name)
}

func nfc(s string) string {
	if !utf8.ValidString(s) || norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// Validate checks an entry that is about to be written against the rules
// of SPEC §1. Category and name are checked in their NFC form (what a
// backend stores); an entry in another normal form is valid. Each tag
// must pass ValidateTag. Meta.Extra must not hold tags, created or updated
// (the fields of those names) and what it keeps under UnparsedKeys must be
// of that key's form.
func Validate(e Entry) error {
	if err := ValidateCategory(e.Category); err != nil {
		return err
	}
	if err := ValidateName("name", e.Name); err != nil {
		return err
	}
	for _, t := range e.Meta.Tags {
		if err := ValidateTag(t); err != nil {
			return err
		}
	}
	if err := checkExtra(e.Meta); err != nil {
		return err
	}
	return ValidateContent(e.Content)
}

// BlankTag reports whether tag names nothing: empty, only white space,
// or '#' alone (Obsidian's tag is the text after '#'; a template that
// fills in no tag leaves "" or "#"). A folder store reads such a front
// matter tag as no tag, and ValidateTag refuses it.
func BlankTag(tag string) bool {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(tag), "#")) == ""
}

// ValidateTag checks one tag: valid UTF-8, not blank (BlankTag: empty,
// only white space or '#' alone), and free of control characters (a tag is printed in listings, and an
// escape sequence in one must not reach a terminal). The error is a
// *FieldError for field "tags" (the field of the request or file that
// holds the list), whose message names the tag: invalid tags: tag " "
// must not be empty.
func ValidateTag(tag string) error {
	switch {
	case !utf8.ValidString(tag):
		return fieldError("tags", tag, "is not valid UTF-8")
	case BlankTag(tag):
		return fieldError("tags", tag, "must not be empty")
	}
	for _, r := range tag {
		if unicode.IsControl(r) {
			return fieldError("tags", tag, "contains "+describeRune(r)+", which is not allowed")
		}
	}
	return nil
}

// CleanTags checks each tag with ValidateTag and drops repeats, keeping
// the first spelling's position: the rule of every entry point (CLI,
// HTTP, MCP, import). nil stays nil, so that "no tags given" and "no
// tags" stay apart.
func CleanTags(tags []string) ([]string, error) {
	if tags == nil {
		return nil, nil
	}
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		if err := ValidateTag(t); err != nil {
			return nil, err
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// ValidateKey checks an identity that is looked up, deleted or listed
// rather than written. It is Validate's rules minus two that entries
// written by older versions of recall may break: a segment may end in '.'
// or a space and may be a Windows device name. So an old entry stays
// readable and removable, while Put refuses to create such a name.
func ValidateKey(category, name string) error {
	if err := checkCategory(category, false); err != nil {
		return err
	}
	return checkSegment("name", name, name, false)
}

// ValidateCategory checks a category for writing: 1 to MaxCategoryDepth
// segments joined by '/', each following the rules of a name.
func ValidateCategory(category string) error { return checkCategory(category, true) }

// ValidateName checks a name for writing; field names it in the error.
// For field "category" it checks a category (see ValidateCategory), so
// that callers can validate either with one function.
//
// A name is one segment: non-empty valid UTF-8, at most MaxNameBytes in
// NFC, any printable character of any script except
// / \ : [ ] | # ^ < > " ? * (and NUL and control characters); not "." or
// "..", not starting with '.', not ending with '.' or a space, not a
// Windows device name (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9, in any
// case, with or without an extension).
func ValidateName(field, s string) error {
	if field == "category" {
		return ValidateCategory(s)
	}
	return checkSegment(field, s, s, true)
}

func fieldError(field, value, reason string) error {
	if len(value) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(value[cut]) {
			cut--
		}
		value = value[:cut] + "…"
	}
	return &FieldError{Field: field, Value: value, Reason: reason}
}

func checkCategory(category string, strict bool) error {
	if category == "" {
		return fieldError("category", category, "must not be empty")
	}
	segs := strings.Split(category, "/")
	if len(segs) > MaxCategoryDepth {
		return fieldError("category", category,
			fmt.Sprintf("has %d levels, the limit is %d", len(segs), MaxCategoryDepth))
	}
	for _, seg := range segs {
		if seg == "" {
			return fieldError("category", category, "has an empty level (a leading, trailing or doubled '/')")
		}
		if err := checkSegment("category", category, seg, strict); err != nil {
			return err
		}
	}
	return nil
}

// checkSegment checks one segment seg of value (the whole field, for the
// error). strict adds the rules that only new names must follow.
func checkSegment(field, value, seg string, strict bool) error {
	fail := func(reason string) error {
		if seg != value {
			reason = fmt.Sprintf("level %q %s", seg, reason)
		}
		return fieldError(field, value, reason)
	}
	if !utf8.ValidString(seg) {
		return fail("is not valid UTF-8")
	}
	seg = nfc(seg)
	switch {
	case seg == "":
		return fail("must not be empty")
	case len(UnescapeName(seg)) > MaxNameBytes:
		// Counted as written: the escapes of the name mapping (name.go)
		// do not make a name too long that a file system holds.
		return fail(fmt.Sprintf("is %d bytes, the limit is %d", len(UnescapeName(seg)), MaxNameBytes))
	case seg == "." || seg == "..", UnescapeName(seg) == "." || UnescapeName(seg) == "..":
		return fail("must not be . or ..")
	case seg[0] == '.':
		return fail("must not start with '.'")
	}
	for _, r := range seg {
		if !allowedRune(r) {
			return fail(fmt.Sprintf("contains %s, which is not allowed (refused: / \\ : [ ] | # ^ < > \" ? * and control characters)", describeRune(r)))
		}
	}
	if !strict {
		return nil
	}
	switch seg[len(seg)-1] {
	case '.':
		return fail("must not end with '.' (Windows drops it)")
	case ' ':
		return fail("must not end with a space (Windows drops it)")
	}
	if IsDeviceName(seg) {
		return fail("is a Windows device name")
	}
	return nil
}

// allowedRune reports whether r may appear in a segment: printable
// characters of any script (letters, marks, digits, punctuation, symbols,
// emoji), any space separator, and the zero-width joiners emoji sequences
// and some scripts need; not the characters of forbiddenRunes.
func allowedRune(r rune) bool {
	switch {
	case r < 0x80:
		return r >= 0x20 && r != 0x7f && !strings.ContainsRune(forbiddenRunes, r)
	case r == 0x200c, r == 0x200d: // ZWNJ, ZWJ
		return true
	case unicode.Is(unicode.Zs, r):
		return true
	default:
		return unicode.IsPrint(r)
	}
}

// IsDeviceName reports whether a file or folder called seg would name a
// Windows device: CON, PRN, AUX, NUL, COM1–COM9 or LPT1–LPT9 (also with
// the superscript digits ¹ ² ³), in any case, alone or followed by an
// extension (NUL.txt), with trailing spaces before the extension ignored,
// as Windows ignores them.
func IsDeviceName(seg string) bool {
	base, _, _ := strings.Cut(seg, ".")
	base = strings.TrimRight(base, " ")
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(base) < 4 {
		return false
	}
	prefix := strings.ToUpper(base[:3])
	if prefix != "COM" && prefix != "LPT" {
		return false
	}
	switch base[3:] {
	case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// ValidateContent checks that content is valid UTF-8 within the size limit.
func ValidateContent(s string) error {
	if len(s) > MaxContentBytes {
		return &FieldError{Field: "content", Reason: fmt.Sprintf("is %d bytes, the limit is %d", len(s), MaxContentBytes)}
	}
	if !utf8.ValidString(s) {
		i := 0
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return &FieldError{Field: "content", Reason: fmt.Sprintf("is not valid UTF-8 (first bad byte at offset %d)", i)}
	}
	return nil
}

func describeRune(r rune) string {
	switch {
	case r == 0:
		return "a NUL byte"
	case unicode.IsControl(r):
		return fmt.Sprintf("control character %U", r)
	case r < 0x80:
		return fmt.Sprintf("%q", r)
	default:
		return fmt.Sprintf("%q (%U)", r, r)
	}
}
