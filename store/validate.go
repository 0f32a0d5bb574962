package store

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of SPEC §1.
const (
	MaxNameBytes    = 200
	MaxContentBytes = 1 << 20
)

// FieldError reports which field of an entry is invalid and why. It wraps
// ErrInvalid.
type FieldError struct {
	Field  string // "category", "name" or "content"
	Value  string // the offending value, truncated for display
	Reason string
}

func (e *FieldError) Error() string {
	if e.Field == "content" {
		return fmt.Sprintf("invalid content: %s", e.Reason)
	}
	return fmt.Sprintf("invalid %s %q: %s", e.Field, e.Value, e.Reason)
}

func (e *FieldError) Unwrap() error { return ErrInvalid }

// Validate checks an entry against the rules of SPEC §1.
func Validate(e Entry) error {
	if err := ValidateName("category", e.Category); err != nil {
		return err
	}
	if err := ValidateName("name", e.Name); err != nil {
		return err
	}
	return ValidateContent(e.Content)
}

// ValidateKey checks category and name.
func ValidateKey(category, name string) error {
	if err := ValidateName("category", category); err != nil {
		return err
	}
	return ValidateName("name", name)
}

// ValidateName checks a category or a name; field names it in the error.
// Allowed: letters of any script, marks, digits, space, '-', '_', '.'.
func ValidateName(field, s string) error {
	fail := func(reason string) error {
		v := s
		if len(v) > 60 {
			v = v[:60] + "…"
		}
		return &FieldError{Field: field, Value: v, Reason: reason}
	}
	switch {
	case s == "":
		return fail("must not be empty")
	case len(s) > MaxNameBytes:
		return fail(fmt.Sprintf("is %d bytes, the limit is %d", len(s), MaxNameBytes))
	case !utf8.ValidString(s):
		return fail("is not valid UTF-8")
	case s == "." || s == "..":
		return fail("must not be . or ..")
	case s[0] == '.':
		return fail("must not start with '.'")
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r), unicode.IsNumber(r):
		case r == ' ', r == '-', r == '_', r == '.':
		default:
			return fail(fmt.Sprintf("contains %s, which is not allowed (use letters, digits, space, '-', '_', '.')", describeRune(r)))
		}
	}
	return nil
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
	case strings.ContainsRune(`/\:[]|`, r):
		return fmt.Sprintf("%q", r)
	default:
		return fmt.Sprintf("%q (%U)", r, r)
	}
}
