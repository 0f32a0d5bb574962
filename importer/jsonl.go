package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/internal/jsonkeys"
	"github.com/recallhq/recall/store"
)

// Limits of a JSONL line.
const (
	// MaxLineBytes bounds one line: the largest content JSON-escaped (a CJK
	// character may become a 6-byte \uXXXX) with room for metadata.
	MaxLineBytes = 8 * store.MaxContentBytes
	// MaxMetaBytes bounds the JSON text of one line's meta object, and
	// MaxMetaDepth how deeply it nests (the line's own object is level 1,
	// meta level 2), so that no line makes a store render megabytes of
	// front matter out of a few kilobytes of brackets.
	MaxMetaBytes = 64 << 10
	MaxMetaDepth = 32
)

// Meta keys with a meaning; every other key lands in store.Meta.Extra.
const (
	metaTags    = "tags"
	metaCreated = "created"
	metaUpdated = "updated"
	metaDate    = "date"
)

// ReadJSONL reads entries, one JSON object per line, into a Plan:
//
//	{"category": "trips", "name": "三亚之行", "content": "…", "meta": {"tags": ["海边"], "created": "2024-03-02T09:15:00Z", "mood": "sunny"}}
//
// meta is optional and holds tags (a list of strings, or one string),
// created and updated (RFC 3339 times or bare dates, midnight UTC) and any
// other keys. name tells reports where a line came from ("data.jsonl:3").
// Blank lines are ignored and a leading byte order mark is allowed. A line
// is skipped, with the reason, when it is not one JSON object, holds a key
// twice (anywhere, meta included) or a key other than the four, spelled
// exactly (jsonkeys: the rule of the HTTP API and the MCP tools too), misses
// category, name or content, holds a lone UTF-16 surrogate ("\ud800",
// which is no text) or invalid UTF-8, has an empty tag, or a meta beyond
// MaxMetaBytes or MaxMetaDepth. Repeated tags are dropped, the first kept.
// The error is for the stream as a whole (a read error, ctx cancelled).
func ReadJSONL(ctx context.Context, r io.Reader, name string) (*Plan, error) {
	p := newPlan()
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, tooLong, err := readLine(br, MaxLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: line %d: %w", name, n, err)
		}
		eof := errors.Is(err, io.EOF)
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a BOM some editors write
		}
		where := fmt.Sprintf("%s:%d", name, n)
		switch {
		case tooLong:
			p.skip(where, fmt.Errorf("line is longer than %d bytes", MaxLineBytes), "")
		case len(bytes.TrimSpace(line)) == 0:
			// Blank lines, a trailing one included, are not items.
		default:
			if e, err := ParseRecord(line); err != nil {
				p.skip(where, err, "")
			} else {
				p.add(where, e)
			}
		}
		if eof {
			return p, nil
		}
	}
}

// readLine returns the next line without its "\n" or "\r\n". A line
// longer than max is consumed and reported as tooLong instead of being
// held in memory. err is io.EOF with the last line of the stream.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 { // +2: the line break is not content
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, tooLong, err
	}
}

// recordFields are a line's keys, spelled exactly (jsonkeys.Check).
var recordFields = []string{"category", "name", "content", "meta"}

// record is one line. Pointers tell a missing field from an empty one.
type record struct {
	Category *string         `json:"category"`
	Name     *string         `json:"name"`
	Content  *string         `json:"content"`
	Meta     json.RawMessage `json:"meta"`
}

// ParseRecord parses one JSONL line into an entry (see ReadJSONL for the
// rules). Its errors are reasons meant for a person: they name the field
// at fault. The identity and content are not validated (store.Validate
// does that).
func ParseRecord(line []byte) (store.Entry, error) {
	// encoding/json would quietly turn invalid UTF-8 and lone surrogates
	// into U+FFFD, and let a repeated key win silently; SPEC §1 wants bad
	// text rejected, not mangled.
	if !utf8.Valid(line) {
		return store.Entry{}, errors.New("not valid UTF-8")
	}
	if at, esc, ok := loneSurrogate(line); ok {
		return store.Entry{}, fmt.Errorf("%s at byte %d is half of a UTF-16 surrogate pair, not text", esc, at)
	}
	if err := jsonkeys.Check(line, recordFields, MaxMetaDepth); err != nil {
		return store.Entry{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
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
	meta, err := parseMetaJSON(r.Meta)
	if err != nil {
		return store.Entry{}, err
	}
	return store.Entry{Category: *r.Category, Name: *r.Name, Content: *r.Content, Meta: meta}, nil
}

// loneSurrogate finds a \u escape of a UTF-16 surrogate that is not half
// of a high-low pair. JSON allows backslashes only inside strings, so a
// scan of the raw bytes sees every escape ("\\u" is an escaped backslash
// followed by a u, and is skipped as such).
func loneSurrogate(b []byte) (at int, esc string, ok bool) {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if i+1 >= len(b) || b[i+1] != 'u' {
			i++ // the escaped character, which may be a backslash
			continue
		}
		r, valid := hex4(b, i+2)
		if !valid {
			continue // a syntax error, reported by the decoder
		}
		switch {
		case 0xD800 <= r && r < 0xDC00:
			if i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				if r2, valid := hex4(b, i+8); valid && 0xDC00 <= r2 && r2 < 0xE000 {
					i += 11
					continue
				}
			}
			return i, string(b[i : i+6]), true
		case 0xDC00 <= r && r < 0xE000:
			return i, string(b[i : i+6]), true
		}
		i += 5
	}
	return 0, "", false
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		r <<= 4
		switch {
		case '0' <= c && c <= '9':
			r |= rune(c - '0')
		case 'a' <= c && c <= 'f':
			r |= rune(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
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
		switch {
		case typ.Field == "meta":
			want = "an object"
		case typ.Type != nil:
			switch typ.Type.Kind() {
			case reflect.Map, reflect.Struct:
				want = "an object"
			case reflect.Slice, reflect.Array:
				want = "a list"
			case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64:
				want = "a number"
			case reflect.Bool:
				want = "a boolean"
			}
		}
		if typ.Field == "" {
			return fmt.Errorf("is a JSON %s, want an object", typ.Value)
		}
		return fmt.Errorf("%s is a JSON %s, want %s", typ.Field, typ.Value, want)
	default:
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
}

// parseMetaJSON turns a line's meta (absent, null or an object) into
// store.Meta, bounded before anything is built from it.
func parseMetaJSON(raw json.RawMessage) (store.Meta, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return store.Meta{}, nil
	}
	if len(raw) > MaxMetaBytes {
		return store.Meta{}, fmt.Errorf("meta is %d bytes of JSON, the limit is %d", len(raw), MaxMetaBytes)
	}
	if raw[0] != '{' {
		kind := map[byte]string{'"': "string", '[': "array", 't': "bool", 'f': "bool"}[raw[0]]
		if kind == "" {
			kind = "number"
		}
		return store.Meta{}, fmt.Errorf("meta is a JSON %s, want an object", kind)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return store.Meta{}, jsonReason(err)
	}
	var m store.Meta
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		v := obj[k]
		var err error
		switch k {
		case metaTags:
			if m.Tags, err = parseTags(v); err == nil {
				m.Tags, err = cleanTags(m.Tags)
			}
		case metaCreated:
			m.Created, err = parseTime(v)
		case metaUpdated:
			m.Updated, err = parseTime(v)
		case metaDate:
			// The event date, "2024-05-03" or RFC 3339. Any other value
			// stays a key recall does not interpret (as a folder store's
			// front matter keeps it), so an export of such a store
			// imports unchanged; a date is never guessed.
			if t, terr := parseTime(v); terr == nil && !t.IsZero() {
				m.Date = t
				break
			}
			fallthrough
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
	if err := store.CheckValidity(m); err != nil {
		if fe, ok := errors.AsType[*store.FieldError](err); ok {
			return store.Meta{}, fmt.Errorf("meta.%s: %q %s", fe.Field, fe.Value, fe.Reason)
		}
		return store.Meta{}, err
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

// cleanTags applies store.CleanTags, the rule of every entry point, and
// names the item of the list that breaks it.
func cleanTags(tags []string) ([]string, error) {
	out, err := store.CleanTags(tags)
	if err != nil {
		for i, t := range tags {
			var fe *store.FieldError
			if errors.As(store.ValidateTag(t), &fe) {
				return nil, fmt.Errorf("item %d %s", i+1, fe.Reason)
			}
		}
	}
	return out, err
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
