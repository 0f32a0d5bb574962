package service

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

// Sentinel errors, wrapped with context; test them with errors.Is. Invalid
// arguments are *ParamError or *store.FieldError (both name the field), and
// a missing entry wraps store.ErrNotFound.
var (
	// ErrUnavailable is wrapped when the store cannot answer at all (closed,
	// its folder gone): a server reports it as 503.
	ErrUnavailable = errors.New("store unavailable")
	// ErrNoMatch is wrapped by Edit when the text to replace is not in the
	// entry.
	ErrNoMatch = errors.New("text not found in the entry")
	// ErrAmbiguous is wrapped by Edit when the text to replace occurs more
	// than once.
	ErrAmbiguous = errors.New("text occurs more than once in the entry")
	// ErrExists is wrapped by Add with IfAbsent when the entry exists.
	ErrExists = errors.New("entry already exists")
)

// existsError is the error of an Add with IfAbsent over an existing entry.
func existsError(category, name string) error {
	return fmt.Errorf("%s: %w; nothing was written", store.Key{Category: category, Name: name}, ErrExists)
}

// ParamError is an argument out of range. Field names it as the HTTP API
// and the MCP tools spell it ("limit", "budget_tokens").
type ParamError struct {
	Field  string
	Reason string
	// Err, when set, is a sentinel the error also matches (ErrNoMatch).
	Err error
}

func (e *ParamError) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + " " + e.Reason
}

// Unwrap returns the sentinel, when there is one, else store.ErrInvalid.
func (e *ParamError) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return store.ErrInvalid
}

func paramf(field, format string, args ...any) *ParamError {
	return &ParamError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// notFound is the error for a missing entry. The backends' own messages
// carry the operation ("get x:y: entry not found"), which is noise to a
// caller that already knows it.
func notFound(category, name string) error {
	return fmt.Errorf("%s: %w", store.Key{Category: category, Name: name}, store.ErrNotFound)
}

// plural writes a count with its noun: "1 entry", "2 entries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// OneLine makes a diagnostic safe to print on a terminal or in a log: a
// multi-line message (a YAML error, say) is folded into one line, and
// bytes that came from a damaged file or row rather than from recall
// cannot act on the terminal: every other control or non-printing
// character is written as its Go escape (\x1b, \u202e) and every byte
// that is not UTF-8 as \xNN. Printable text of any script is kept.
func OneLine(s string) string {
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return escapeNonPrint(strings.Join(lines, " "))
}

func escapeNonPrint(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (!unicode.IsPrint(r) && r != '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' || unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
