package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/recallhq/recall/internal/jsonkeys"
)

// DecodeParams decodes one JSON object of arguments into the struct v
// points to, strictly and with messages a person can read: valid UTF-8
// and no unpaired surrogate escapes (ErrSurrogate; encoding/json would
// quietly replace either), no key twice in one object and no case variant
// of a field's name (jsonkeys: the rule of JSONL import too; encoding/json
// would let one win silently), no unknown fields, the right JSON type per
// field, nothing after the object. Its errors are *ParamError naming the
// field when there is one; one about the whole object has no Field. The HTTP API and the MCP tools both use it.
func DecodeParams(raw []byte, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	if !utf8.Valid(raw) {
		return &ParamError{Reason: "not valid UTF-8"}
	}
	if err := CheckJSONText(raw); err != nil {
		return &ParamError{Reason: err.Error(), Err: ErrSurrogate}
	}
	if err := jsonkeys.Check(raw, jsonFields(v), 0); err != nil {
		var ke *jsonkeys.Error
		if errors.As(err, &ke) && ke.Path == "" {
			return &ParamError{Field: ke.Key, Reason: ke.Reason}
		}
		return &ParamError{Reason: err.Error()}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err, v)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &ParamError{Reason: "more than one JSON value"}
	}
	return nil
}

// decodeError rewrites encoding/json's errors, which speak of Go types,
// into what the client sent wrong, naming the field.
func decodeError(err error, v any) *ParamError {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &ParamError{Reason: "not valid JSON: it ends too early"}
	case errors.As(err, &syn):
		return &ParamError{Reason: fmt.Sprintf("not valid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))}
	case errors.As(err, &typ):
		if typ.Field == "" {
			return &ParamError{Reason: fmt.Sprintf("a JSON %s, want an object", typ.Value)}
		}
		want := typ.Type
		if ft, ok := fieldType(v, typ.Field); ok {
			want = ft // for a list, the list's type, not its element's
		}
		return &ParamError{Field: typ.Field, Reason: fmt.Sprintf("must be %s, got a JSON %s", jsonTypeName(want), typ.Value)}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return &ParamError{Field: name, Reason: fmt.Sprintf("is not a known field (known: %s)", strings.Join(jsonFields(v), ", "))}
	}
	return &ParamError{Reason: strings.TrimPrefix(err.Error(), "json: ")}
}

// jsonTypeName names the JSON a Go type decodes from.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(jsonTypeName(t.Elem()), "a "), "an ") + "s"
	default:
		return "an object"
	}
}

// jsonFields lists the JSON field names of the struct v points to.
func jsonFields(v any) []string {
	var names []string
	for f := range structFields(v) {
		names = append(names, f)
	}
	return names
}

// fieldType is the type of the field of v's struct named name in JSON.
func fieldType(v any, name string) (reflect.Type, bool) {
	for f, t := range structFields(v) {
		if f == name {
			return t, true
		}
	}
	return nil, false
}

// structFields yields the JSON names and types of the fields of the
// struct v points to.
func structFields(v any) iter.Seq2[string, reflect.Type] {
	return func(yield func(string, reflect.Type) bool) {
		t := reflect.TypeOf(v)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				if !yield(name, f.Type) {
					return
				}
			}
		}
	}
}
