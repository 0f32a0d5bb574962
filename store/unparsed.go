package store

import (
	"fmt"
	"slices"
	"strings"
)

// UnparsedKeys is the Meta.Extra key under which a folder store (and an
// import of a folder) keeps the front matter keys recall interprets —
// tags, created, updated — whose value it cannot read ("created:
// undefined", a template's "created: <% tp.date.now() %>", "tags: {a:
// b}"), when the rest of the front matter is valid YAML. The note keeps
// every other key; such a value means nothing to recall (the note has no
// tags, created or updated from its file) and its text is kept as it was:
// a write through recall leaves its lines byte for byte, and a folder
// store writes it back where a backend holds the entry's own value (an
// exported note gets the line it was imported with, not bolt's time). A
// Meta.Tags that is set replaces a kept tags value (the caller asked for
// those tags); Created and Updated never replace a kept value in a file.
//
// Its value is a map from the front matter key to a map of "yaml", the
// key's text as the file wrote it (its lines, each ending in "\n"), and
// "line", the file's line of the key (counted from the opening "---",
// line 1): see UnparsedValues.
const UnparsedKeys = "unparsed_keys"

// unparsedKeyNames are the keys UnparsedKeys may hold.
var unparsedKeyNames = []string{"tags", "created", "updated"}

// UnparsedValue is one key kept under UnparsedKeys.
type UnparsedValue struct {
	YAML string // the key's lines as the file wrote them, "created: undefined\n"
	Line int    // the file's line of the key
}

// UnparsedValues returns what m keeps under UnparsedKeys by front matter
// key: nil when it keeps nothing. The error says how a value is not of
// that form (Validate refuses such an entry).
func UnparsedValues(m Meta) (map[string]UnparsedValue, error) {
	raw, ok := m.Extra[UnparsedKeys]
	if !ok {
		return nil, nil
	}
	obj, ok := raw.(map[string]any)
	if !ok || len(obj) == 0 {
		return nil, fmt.Errorf("%s: want a map of tags, created or updated to {yaml, line}", UnparsedKeys)
	}
	out := make(map[string]UnparsedValue, len(obj))
	for k, v := range obj {
		if !slices.Contains(unparsedKeyNames, k) {
			return nil, fmt.Errorf("%s: key %q is not one of tags, created, updated", UnparsedKeys, k)
		}
		fields, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %s: want {yaml, line}", UnparsedKeys, k)
		}
		text, ok := fields["yaml"].(string)
		if !ok || !strings.HasPrefix(text, k+":") || !strings.HasSuffix(text, "\n") {
			return nil, fmt.Errorf("%s: %s: yaml must be the key's lines, %q and its value, ending in a line break", UnparsedKeys, k, k+":")
		}
		line, ok := intValue(fields["line"])
		if !ok || line < 1 || line > MaxMetaBytes {
			return nil, fmt.Errorf("%s: %s: line must be a number from 1 to %d", UnparsedKeys, k, MaxMetaBytes)
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s: %s: holds keys besides yaml and line", UnparsedKeys, k)
		}
		out[k] = UnparsedValue{YAML: text, Line: line}
	}
	return out, nil
}

func intValue(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case uint64:
		return int(x), x <= 1<<31
	case float64:
		return int(x), x == float64(int(x))
	}
	return 0, false
}

// checkExtra refuses Extra keys that would shadow a field of Meta (tags,
// created, updated: every JSON form of an entry writes the field under
// that name) and an UnparsedKeys value of the wrong form.
func checkExtra(m Meta) error {
	for _, k := range unparsedKeyNames {
		if _, ok := m.Extra[k]; ok {
			return &FieldError{Field: "meta", Value: k, Reason: "is reserved in Extra; use the Meta field of that name"}
		}
	}
	if _, err := UnparsedValues(m); err != nil {
		return &FieldError{Field: "meta", Value: UnparsedKeys, Reason: err.Error()}
	}
	return nil
}
