package service

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/retrieve"
)

// WriteResultJSON writes a retrieve result the one way recall prints it:
// `recall retrieve --json` and the HTTP API's POST /v1/retrieve both use
// it, so a script can switch between them and get the same bytes.
//
// The bytes are those of WriteJSON(w, res, "  ") (encoding/json, two-space
// indent, no HTML escaping). appendResultJSON produces them directly, about
// ten times faster than encoding/json's marshal-then-indent, which matters
// to a server answering thousands of retrieves a second. Should
// retrieve.Result or retrieve.Item ever gain a field appendResultJSON does
// not know, or a score not be a finite number, encoding/json does the work
// instead, so the output stays right either way; a test keeps the two
// identical.
func WriteResultJSON(w io.Writer, res *retrieve.Result) error {
	return WithResultJSON(res, func(b []byte) error {
		_, err := w.Write(b)
		return err
	})
}

// WithResultJSON encodes res as WriteResultJSON writes it and passes the
// bytes to fn, which must not keep them: the buffer is reused. fn is not
// called when res cannot be encoded.
func WithResultJSON(res *retrieve.Result, fn func([]byte) error) error {
	buf := resultBufs.Get().(*[]byte)
	b, ok := appendResultJSON((*buf)[:0], res)
	if cap(b) <= maxPooledResult { // one huge result must not stay pinned
		*buf = b
		defer resultBufs.Put(buf)
	}
	if ok {
		return fn(b)
	}
	var slow bytes.Buffer
	if err := WriteJSON(&slow, res, "  "); err != nil {
		return err
	}
	return fn(slow.Bytes())
}

// maxPooledResult bounds the buffers kept for reuse.
const maxPooledResult = 256 << 10

var resultBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// resultFields and itemFields are the JSON fields, in order, that
// appendResultJSON writes.
var (
	resultFields = []string{"items", "budget_used", "embedding_used", "unresolved_links", "dropped,omitzero", "time_range,omitempty"}
	itemFields   = []string{"source", "category", "name", "display_name,omitempty", "section,omitempty", "content", "score", "bm25_score,omitempty",
		"cos_score,omitempty", "via,omitempty", "matched_terms,omitzero", "tokens_est", "date,omitempty", "outside_range,omitempty",
		"superseded_by,omitempty", "supersedes,omitempty", "expired,omitempty", "collapsed,omitempty"}
	refFields       = []string{"category", "name"}
	timeRangeFields = []string{"from,omitzero", "to,omitzero", "text,omitempty"}
)

// knownShape reports whether the result types still have exactly the
// exported fields appendResultJSON writes (encoding/json skips the
// unexported ones, such as the room Engine.RetrieveTo reuses).
var knownShape = sync.OnceValue(func() bool {
	tags := func(t reflect.Type) []string {
		var out []string
		for f := range t.Fields() {
			if f.IsExported() {
				out = append(out, f.Tag.Get("json"))
			}
		}
		return out
	}
	return slices.Equal(tags(reflect.TypeFor[retrieve.Result]()), resultFields) &&
		slices.Equal(tags(reflect.TypeFor[retrieve.Item]()), itemFields) &&
		slices.Equal(tags(reflect.TypeFor[retrieve.Ref]()), refFields) &&
		slices.Equal(tags(reflect.TypeFor[retrieve.TimeRange]()), timeRangeFields)
})

// appendResultJSON appends res as WriteJSON(w, res, "  ") writes it, and
// reports false when it cannot (see WriteResultJSON).
func appendResultJSON(b []byte, res *retrieve.Result) ([]byte, bool) {
	if res == nil || !knownShape() {
		return b, false
	}
	ok := true
	b = append(b, "{\n  \"items\": "...)
	b = appendItems(b, res.Items, 1, &ok)
	b = append(b, ",\n  \"budget_used\": "...)
	b = strconv.AppendInt(b, int64(res.BudgetUsed), 10)
	b = append(b, ",\n  \"embedding_used\": "...)
	b = strconv.AppendBool(b, res.EmbeddingUsed)
	b = append(b, ",\n  \"unresolved_links\": "...)
	b = appendStrings(b, res.UnresolvedLinks, 1)
	if res.Dropped != nil {
		b = append(b, ",\n  \"dropped\": "...)
		b = appendItems(b, res.Dropped, 1, &ok)
	}
	if tr := res.TimeRange; tr != nil {
		b = append(b, ",\n  \"time_range\": {"...)
		first := true
		field := func(name string) {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = newline(b, 2)
			b = append(b, '"')
			b = append(b, name...)
			b = append(b, "\": "...)
		}
		if !tr.From.IsZero() {
			field("from")
			b = appendJSONTime(b, tr.From, &ok)
		}
		if !tr.To.IsZero() {
			field("to")
			b = appendJSONTime(b, tr.To, &ok)
		}
		if tr.Text != "" {
			field("text")
			b = appendJSONString(b, tr.Text)
		}
		if first {
			b = append(b, '}')
		} else {
			b = newline(b, 1)
			b = append(b, '}')
		}
	}
	b = append(b, "\n}\n"...)
	return b, ok
}

// newline starts a line at the given depth of two-space indentation.
func newline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

func appendItems(b []byte, items []retrieve.Item, depth int, ok *bool) []byte {
	if items == nil {
		return append(b, "null"...)
	}
	if len(items) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = newline(b, depth+1)
		b = appendItem(b, &items[i], depth+1, ok)
	}
	b = newline(b, depth)
	return append(b, ']')
}

func appendItem(b []byte, it *retrieve.Item, depth int, ok *bool) []byte {
	field := func(b []byte, name string, first bool) []byte {
		if !first {
			b = append(b, ',')
		}
		b = newline(b, depth+1)
		b = append(b, '"')
		b = append(b, name...)
		return append(b, "\": "...)
	}
	b = append(b, '{')
	b = field(b, "source", true)
	b = appendJSONString(b, string(it.Source))
	b = field(b, "category", false)
	b = appendJSONString(b, it.Category)
	b = field(b, "name", false)
	b = appendJSONString(b, it.Name)
	if it.DisplayName != "" {
		b = field(b, "display_name", false)
		b = appendJSONString(b, it.DisplayName)
	}
	if it.Section != "" {
		b = field(b, "section", false)
		b = appendJSONString(b, it.Section)
	}
	b = field(b, "content", false)
	b = appendJSONString(b, it.Content)
	b = field(b, "score", false)
	b = appendJSONFloat(b, it.Score, ok)
	if it.BM25Score != nil {
		b = field(b, "bm25_score", false)
		b = appendJSONFloat(b, *it.BM25Score, ok)
	}
	if it.CosScore != nil {
		b = field(b, "cos_score", false)
		b = appendJSONFloat(b, *it.CosScore, ok)
	}
	if it.Via != nil {
		b = field(b, "via", false)
		b = append(b, '{')
		b = newline(b, depth+2)
		b = append(b, "\"category\": "...)
		b = appendJSONString(b, it.Via.Category)
		b = append(b, ',')
		b = newline(b, depth+2)
		b = append(b, "\"name\": "...)
		b = appendJSONString(b, it.Via.Name)
		b = newline(b, depth+1)
		b = append(b, '}')
	}
	if it.MatchedTerms != nil {
		b = field(b, "matched_terms", false)
		b = appendStrings(b, it.MatchedTerms, depth+1)
	}
	b = field(b, "tokens_est", false)
	b = strconv.AppendInt(b, int64(it.TokensEst), 10)
	if it.Date != "" {
		b = field(b, "date", false)
		b = appendJSONString(b, it.Date)
	}
	if it.OutsideRange {
		b = field(b, "outside_range", false)
		b = append(b, "true"...)
	}
	if it.SupersededBy != "" {
		b = field(b, "superseded_by", false)
		b = appendJSONString(b, it.SupersededBy)
	}
	if len(it.Supersedes) > 0 {
		b = field(b, "supersedes", false)
		b = appendStrings(b, it.Supersedes, depth+1)
	}
	if it.Expired {
		b = field(b, "expired", false)
		b = append(b, "true"...)
	}
	if len(it.Collapsed) > 0 {
		b = field(b, "collapsed", false)
		b = appendStrings(b, it.Collapsed, depth+1)
	}
	b = newline(b, depth)
	return append(b, '}')
}

func appendStrings(b []byte, ss []string, depth int) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	if len(ss) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = newline(b, depth+1)
		b = appendJSONString(b, s)
	}
	b = newline(b, depth)
	return append(b, ']')
}

// appendJSONTime formats t as encoding/json does (RFC 3339 with
// nanoseconds); a year JSON's form cannot hold clears ok.
func appendJSONTime(b []byte, t time.Time, ok *bool) []byte {
	if y := t.Year(); y < 0 || y > 9999 {
		*ok = false
		return b
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendJSONFloat formats f as encoding/json does (ES6 number style). A
// value JSON cannot hold clears ok, so that encoding/json reports it.
func appendJSONFloat(b []byte, f float64, ok *bool) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		*ok = false
		return b
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendJSONString quotes s as encoding/json does without HTML escaping:
// '"', '\\' and control characters escaped, invalid UTF-8 as \ufffd, and
// U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
