package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// The JSON form of an entry (service.Entry) is shared by `get --json`,
// `ls --json` (without content) and `import` of a .jsonl file, so that what
// get prints can be imported again:
//
//	{"category":"trips","name":"三亚之行","content":"…","meta":{"tags":["海边"],"created":"2024-03-02T09:15:00Z","mood":"sunny"}}
//
// meta holds tags (a list of strings), created and updated (RFC 3339
// times), and every other key of store.Meta.Extra beside them.

// record is one line of a .jsonl import. Pointers tell a missing field
// from an empty one.
type record struct {
	Category *string        `json:"category"`
	Name     *string        `json:"name"`
	Content  *string        `json:"content"`
	Meta     map[string]any `json:"meta"`
}

// parseRecord parses one line of a .jsonl import into an entry. Its errors
// are reasons meant for a person: they name the field at fault. The entry
// is not validated beyond its JSON shape (see store.Validate).
func parseRecord(line []byte) (store.Entry, error) {
	// encoding/json would quietly turn invalid UTF-8 into U+FFFD; SPEC §1
	// wants it rejected, not mangled.
	if !utf8.Valid(line) {
		return store.Entry{}, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var r record
	if err := dec.Decode(&r); err != nil {
		return store.Entry{}, jsonReason(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return store.Entry{}, errors.New("more than one JSON value on the line")
	}
	var missing []string
	for _, f := range []struct {
		name string
		v    *string
	}{{"category", r.Category}, {"name", r.Name}, {"content", r.Content}} {
		if f.v == nil {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return store.Entry{}, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	meta, err := parseMeta(r.Meta)
	if err != nil {
		return store.Entry{}, err
	}
	return store.Entry{Category: *r.Category, Name: *r.Name, Content: *r.Content, Meta: meta}, nil
}

// jsonReason rewrites encoding/json's errors, which speak of Go types,
// into what the user wrote wrong.
func jsonReason(err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("not valid JSON: unexpected end of line")
	case errors.As(err, &syn):
		return fmt.Errorf("not valid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		want := "a string"
		if typ.Field == "meta" {
			want = "an object"
		}
		if typ.Field == "" {
			return fmt.Errorf("is a JSON %s, want an object", typ.Value)
		}
		return fmt.Errorf("%s is a JSON %s, want %s", typ.Field, typ.Value, want)
	default:
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
}

// parseMeta turns a decoded meta object into store.Meta.
func parseMeta(obj map[string]any) (store.Meta, error) {
	var m store.Meta
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		v := obj[k]
		var err error
		switch k {
		case service.MetaTags:
			m.Tags, err = parseTags(v)
		case service.MetaCreated:
			m.Created, err = parseTime(v)
		case service.MetaUpdated:
			m.Updated, err = parseTime(v)
		default:
			if m.Extra == nil {
				m.Extra = make(map[string]any)
			}
			m.Extra[k] = plainNumbers(v)
		}
		if err != nil {
			return store.Meta{}, fmt.Errorf("meta.%s: %w", k, err)
		}
	}
	return m, nil
}

// parseTags accepts a list of strings or, as people write by hand, one
// string meaning one tag.
func parseTags(v any) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{v}, nil
	case []any:
		tags := make([]string, 0, len(v))
		for i, t := range v {
			s, ok := t.(string)
			if !ok {
				return nil, fmt.Errorf("item %d is %s, want a string", i+1, jsonKind(t))
			}
			tags = append(tags, s)
		}
		return tags, nil
	default:
		return nil, fmt.Errorf("is %s, want a list of strings", jsonKind(v))
	}
}

// parseTime accepts an RFC 3339 time or a bare date (midnight UTC).
func parseTime(v any) (time.Time, error) {
	switch v := v.(type) {
	case nil:
		return time.Time{}, nil
	case string:
		for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
			if t, err := time.Parse(layout, v); err == nil {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("%q is not a time such as 2024-03-01T09:30:00Z", v)
	default:
		return time.Time{}, fmt.Errorf("is %s, want a time such as \"2024-03-01T09:30:00Z\"", jsonKind(v))
	}
}

// plainNumbers replaces json.Number (from UseNumber) by int64 when the
// number is integral and fits, else float64, so that 12345678901234567
// keeps its digits and 5 is written back as 5, not 5.0.
func plainNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) {
			return v.String()
		}
		return f
	case []any:
		for i := range v {
			v[i] = plainNumbers(v[i])
		}
		return v
	case map[string]any:
		for k := range v {
			v[k] = plainNumbers(v[k])
		}
		return v
	default:
		return v
	}
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, int64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
