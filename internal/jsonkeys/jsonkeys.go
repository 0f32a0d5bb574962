// Package jsonkeys is recall's one rule for the keys of JSON it reads
// from outside (HTTP bodies, MCP tool arguments and frames, JSONL import
// lines): a key appears at most once in an object, and the keys of an
// object decoded into a struct are spelled exactly as its fields.
//
// encoding/json lets a repeated key win silently and matches field names
// case-insensitively, so {"content":"a","Content":"b"} would store "b";
// recall refuses both rather than guess which the sender meant.
package jsonkeys

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Error is a key the rule refuses, or nesting beyond the bound.
type Error struct {
	// Path is where the object is: "" for the top-level one, "meta",
	// "meta.a", "meta.list[]".
	Path string
	// Key is the key at fault; "" for nesting too deep.
	Key string
	// Reason is "appears twice", "is not a known field: keys are
	// case-sensitive (did you mean …?)" or "nested more than N levels deep".
	Reason string
}

func (e *Error) Error() string {
	switch {
	case e.Key == "" && e.Path != "":
		// Nesting is reported at the top-level key it is under.
		top := e.Path
		if i := strings.IndexAny(top, ".["); i > 0 {
			top = top[:i]
		}
		return top + ": " + e.Reason
	case e.Key == "":
		return e.Reason
	case e.Path != "":
		return fmt.Sprintf("%s: key %q %s", e.Path, e.Key, e.Reason)
	default:
		return fmt.Sprintf("key %q %s", e.Key, e.Reason)
	}
}

// Check walks the JSON text raw. It refuses a key that appears twice in
// one object, anywhere; a key of the top-level object that is a case
// variant of one of fields ("Content" for "content": encoding/json would
// take it for that field), other unknown keys being the decoder's to
// refuse (DisallowUnknownFields); and, when maxDepth > 0, nesting deeper than
// maxDepth (the top-level value is level 1). Syntax errors are not its
// business: it returns nil at the first one and leaves them to the
// decoder, which words them better.
func Check(raw []byte, fields []string, maxDepth int) error {
	type frame struct {
		obj     bool
		wantKey bool
		path    string
		key     string // the last key read
		keys    map[string]bool
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF, or a syntax error the decoder will report
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.wantKey {
			k, isKey := tok.(string)
			if !isKey { // the object's closing brace
				stack = stack[:len(stack)-1]
				continue
			}
			if top.keys[k] {
				return &Error{Path: top.path, Key: k, Reason: "appears twice"}
			}
			if len(stack) == 1 && !slices.Contains(fields, k) {
				for _, f := range fields {
					if strings.EqualFold(f, k) {
						return &Error{Key: k, Reason: fmt.Sprintf("is not a known field: keys are case-sensitive (did you mean %q?)", f)}
					}
				}
			}
			top.keys[k] = true
			top.key, top.wantKey = k, false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			path := ""
			switch {
			case top != nil && top.obj && top.path == "":
				path = top.key
			case top != nil && top.obj:
				path = top.path + "." + top.key
			case top != nil:
				path = top.path + "[]"
			}
			if maxDepth > 0 && len(stack)+1 > maxDepth {
				return &Error{Path: path, Reason: fmt.Sprintf("nested more than %d levels deep", maxDepth)}
			}
			if top != nil && top.obj {
				top.wantKey = true
			}
			stack = append(stack, &frame{obj: tok == json.Delim('{'), wantKey: tok == json.Delim('{'), path: path, keys: map[string]bool{}})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		default:
			if top != nil && top.obj {
				top.wantKey = true
			}
		}
	}
}
