package fs

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/recallhq/recall/store"
)

// Front matter keys recall interprets; every other key lands in Meta.Extra.
const (
	keyTags    = "tags"
	keyCreated = "created"
	keyUpdated = "updated"
	keyDate    = "date"
)

const delimiter = "---"

// maxMetaDepth bounds how deeply metadata values may nest: deeper than
// yaml's parser reads (10000 flow levels plus block indents), so whatever a
// file holds can be written back.
const maxMetaDepth = 20000

// parseFile splits a file into its metadata and its content. A file that
// does not open with a "---" line, or whose front matter is never closed
// by a second "---" line, has no front matter: all of it is content.
// Errors concern the front matter only and carry a line number counted
// from the top of the file.
//
// Front matter that does not parse (YAML that strict YAML refuses, such
// as "excerpt: a: b" or a template's "{{title}}", a key written twice) is
// not an error: the note is read with the block kept verbatim, delimiter
// lines included, as the one metadata key store.UnparsedFrontMatter, and
// its body as content (see UnparsedProblem for why it did not parse). In
// valid YAML, a value of tags, created or updated that recall cannot read
// ("created: undefined", a template's "<% tp.date.now() %>") is kept as
// its text under store.UnparsedKeys, and every other key is read as usual
// (see UnparsedWarnings).
func parseFile(b []byte) (store.Meta, string, error) {
	fm, body, ok := splitFrontMatter(b)
	if !ok {
		return store.Meta{}, string(b), nil
	}
	m, err := parseMetaLenient(fm, true)
	if err != nil {
		block := string(b[:len(b)-len(body)])
		return store.Meta{Extra: map[string]any{store.UnparsedFrontMatter: block}}, string(body), nil
	}
	return m, string(body), nil
}

// UnparsedProblem says why the front matter block kept verbatim in
// m (see parseFile) does not parse: "" when m holds none.
func UnparsedProblem(m store.Meta) string {
	block, ok := unparsedBlock(m)
	if !ok {
		return ""
	}
	fm, _, _ := splitFrontMatter([]byte(block))
	if _, err := parseMeta(fm); err != nil {
		return "front matter: " + err.Error()
	}
	return ""
}

// UnparsedWarnings is the one rule of what recall says about a note whose
// front matter it could not read in full (`recall ls --long`, `recall
// reindex`, `recall import`): one text per problem, naming the key, the
// value and the file's line, and what recall did about it. A block kept
// verbatim (store.UnparsedFrontMatter) gives "front matter: <why>; kept
// verbatim, read without its properties"; each value kept under
// store.UnparsedKeys gives "front matter: created: line 2: \"undefined\"
// is not a time such as 2024-03-01T09:30:00Z; kept as written, the value
// is ignored". nil for a note read whole.
func UnparsedWarnings(m store.Meta) []string {
	if p := UnparsedProblem(m); p != "" {
		return []string{p + "; kept verbatim, read without its properties"}
	}
	var out []string
	for _, p := range UnparsedKeyProblems(m) {
		out = append(out, p+"; kept as written, the value is ignored")
	}
	return out
}

// UnparsedKeyProblems says, for each value m keeps under
// store.UnparsedKeys (in the order tags, created, updated), why recall
// cannot read it: "front matter: created: line 2: \"undefined\" is not a
// time such as 2024-03-01T09:30:00Z".
func UnparsedKeyProblems(m store.Meta) []string {
	vals, err := store.UnparsedValues(m)
	if err != nil || len(vals) == 0 {
		return nil
	}
	var out []string
	for _, k := range []string{keyTags, keyCreated, keyUpdated} {
		v, ok := vals[k]
		if !ok {
			continue
		}
		why := "cannot be read"
		if _, err := parseMeta([]byte(v.YAML)); err != nil {
			why = shiftLine(strings.TrimPrefix(err.Error(), k+": "), v.Line-1)
		}
		if !strings.Contains(why, `"`) {
			// An error about the value's shape names the shape: add the value.
			text := strings.TrimSpace(strings.TrimPrefix(strings.ReplaceAll(v.YAML, "\r\n", "\n"), k+":"))
			why += " (" + strconv.Quote(text) + ")"
		}
		out = append(out, "front matter: "+k+": "+why)
	}
	return out
}

// shiftLine adds by to the line number that msg starts with ("line 2:
// ..."), the line of a kept value's text, to give the file's.
func shiftLine(msg string, by int) string {
	rest, ok := strings.CutPrefix(msg, "line ")
	num, tail, ok2 := strings.Cut(rest, ":")
	n, err := strconv.Atoi(num)
	if !ok || !ok2 || err != nil {
		return msg
	}
	return "line " + strconv.Itoa(n+by) + ":" + tail
}

// keepUnparsed keeps the value v of key k, which recall cannot read, in
// m under store.UnparsedKeys: the key's lines of fm as the file wrote them
// (d, when fm is a block mapping it can take apart), else the key and
// value as YAML writes them. ok is false when that text does not stand
// alone (an alias of an anchor elsewhere): the front matter is then kept
// whole.
func keepUnparsed(m *store.Meta, d *fmDoc, k, v *yaml.Node) (ok bool) {
	text := ""
	if d != nil {
		for _, fk := range d.keys {
			if fk.key == k || fk.first == k.Line-1 && fk.name == k.Value {
				text = strings.Join(d.lines[fk.first:fk.end], "")
				break
			}
		}
	}
	if text == "" {
		s, err := encodeMapping(k.Value, v)
		if err != nil {
			return false
		}
		text = s
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if !keptTextOK(k.Value, text) {
		return false
	}
	if m.Extra == nil {
		m.Extra = make(map[string]any)
	}
	kept, _ := m.Extra[store.UnparsedKeys].(map[string]any)
	if kept == nil {
		kept = make(map[string]any)
		m.Extra[store.UnparsedKeys] = kept
	}
	kept[k.Value] = map[string]any{"yaml": text, "line": k.Line}
	return true
}

// keptValue returns the text m keeps under store.UnparsedKeys for the
// front matter key, when that is what a file writes for it: for created
// and updated whenever m keeps one (the entry's times then live outside
// the file), for tags unless m.Tags is set (the caller's tags replace it).
func keptValue(m store.Meta, key string) (string, bool) {
	if key != keyTags && key != keyCreated && key != keyUpdated {
		return "", false
	}
	if _, ok := m.Extra[store.UnparsedKeys]; !ok {
		return "", false
	}
	if key == keyTags && len(m.Tags) > 0 {
		return "", false
	}
	vals, err := store.UnparsedValues(m)
	if err != nil {
		return "", false
	}
	v, ok := vals[key]
	return v.YAML, ok
}

// checkKept checks that each value m keeps under store.UnparsedKeys is
// YAML a front matter can hold as it is: one key, the one it is kept for,
// at the start of its line.
func checkKept(m store.Meta) error {
	vals, err := store.UnparsedValues(m)
	if err != nil {
		return &metaError{store.UnparsedKeys, err.Error()}
	}
	for k, v := range vals {
		if !keptTextOK(k, v.YAML) {
			return &metaError{store.UnparsedKeys, fmt.Sprintf("%s: %q is not one YAML key %q and its value", k, v.YAML, k)}
		}
	}
	return nil
}

// keptTextOK reports whether text is YAML that a front matter holds as
// it is, alone: one key, key, at the start of its line.
func keptTextOK(key, text string) bool {
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(text))
	if dec.Decode(&doc) != nil || dec.Decode(new(yaml.Node)) != io.EOF {
		return false
	}
	return len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode && doc.Content[0].Style&yaml.FlowStyle == 0 &&
		len(doc.Content[0].Content) == 2 && doc.Content[0].Content[0].Value == key && doc.Content[0].Content[0].Column == 1 &&
		doc.Content[0].Content[0].Line == 1
}

// renderKept is renderFile for metadata that keeps values under
// store.UnparsedKeys: every key as renderFile writes it, in its order,
// but a kept value's text as it was. ok is false when m keeps none.
func renderKept(m store.Meta, content string) (b []byte, ok bool, err error) {
	if _, has := m.Extra[store.UnparsedKeys]; !has {
		return nil, false, nil
	}
	var buf bytes.Buffer
	buf.WriteString(delimiter + "\n")
	keys := []string{keyTags, keyCreated, keyUpdated, keyDate}
	extra := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if k != store.UnparsedKeys && (k != keyDate || !m.Date.IsZero()) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range append(keys, extra...) {
		if text, ok := keptValue(m, k); ok {
			buf.WriteString(strings.ReplaceAll(text, "\r\n", "\n"))
			continue
		}
		if _, has := metaValue(m, k); !has {
			continue
		}
		s, err := renderKey(m, k, nil)
		if err != nil {
			return nil, true, err
		}
		buf.WriteString(s)
	}
	buf.WriteString(delimiter + "\n")
	buf.WriteString(content)
	return buf.Bytes(), true, nil
}

// unparsedBlock returns the verbatim front matter m holds: a string under
// store.UnparsedFrontMatter that is a front matter block that does not
// parse. Any other value under that key is an ordinary key.
func unparsedBlock(m store.Meta) (string, bool) {
	block, ok := m.Extra[store.UnparsedFrontMatter].(string)
	if !ok {
		return "", false
	}
	fm, body, ok := splitFrontMatter([]byte(block))
	if !ok || len(body) != 0 {
		return "", false
	}
	if _, err := parseMeta(fm); err == nil {
		return "", false
	}
	return block, true
}

// renderUnparsed writes a note whose front matter was kept verbatim: the
// block byte for byte, then content. It refuses metadata that the block
// cannot hold (tags, a date, other keys): recall cannot edit YAML it cannot
// read. Created and updated are not written (the note had none it could
// read). ok is false when m holds no verbatim block.
func renderUnparsed(m store.Meta, content string) (b []byte, ok bool, err error) {
	block, ok := unparsedBlock(m)
	if !ok {
		return nil, false, nil
	}
	if len(m.Tags) > 0 || !m.Date.IsZero() || len(m.Extra) > 1 {
		return nil, true, &metaError{"front matter", "is not valid YAML (" + UnparsedProblem(m) + "), so recall keeps it verbatim and cannot add tags, a date or keys to it; fix it by hand first"}
	}
	if !strings.HasSuffix(block, "\n") && content != "" {
		block += "\n" // the block ended the file
	}
	return append([]byte(block), content...), true, nil
}

// splitFrontMatter returns the YAML between the delimiter lines and the
// body after the closing one. fm keeps the line break of the opening line,
// so YAML line numbers match the file's.
func splitFrontMatter(b []byte) (fm, body []byte, ok bool) {
	if !bytes.HasPrefix(b, []byte(delimiter+"\n")) && !bytes.HasPrefix(b, []byte(delimiter+"\r\n")) {
		return nil, nil, false
	}
	rest := b[len(delimiter):]
	// Each pass looks at the line that starts right after rest[i].
	for i := bytes.IndexByte(rest, '\n'); i >= 0; {
		start := i + 1
		end := len(rest) // the line may be the file's last, without a break
		next := -1
		if j := bytes.IndexByte(rest[start:], '\n'); j >= 0 {
			end = start + j
			next = end
		}
		line := bytes.TrimSuffix(rest[start:end], []byte("\r"))
		if string(line) == delimiter {
			if next < 0 {
				return rest[:start], nil, true
			}
			return rest[:start], rest[next+1:], true
		}
		i = next
	}
	return nil, nil, false
}

// parseMeta reads front matter strictly: a value recall cannot read is an
// error.
func parseMeta(fm []byte) (store.Meta, error) { return parseMetaLenient(fm, false) }

// parseMetaLenient reads front matter; keep keeps a value of tags, created
// or updated that recall cannot read under store.UnparsedKeys instead of
// failing.
func parseMetaLenient(fm []byte, keep bool) (store.Meta, error) {
	var m store.Meta
	var doc0 *fmDoc // fm taken apart, once a value is kept
	dec := yaml.NewDecoder(bytes.NewReader(fm))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) { // blank or only comments
			return m, nil
		}
		return m, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return m, fmt.Errorf("line %d: holds more than one YAML document", more.Line)
	} else if !errors.Is(err, io.EOF) {
		return m, err
	}
	if len(doc.Content) == 0 {
		return m, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return m, nil
	}
	if root.Kind != yaml.MappingNode {
		return m, fmt.Errorf("line %d: is %s, want a mapping of keys to values", root.Line, kindName(root))
	}
	seen := make(map[string]bool, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return m, fmt.Errorf("line %d: key is %s, want a string", k.Line, kindName(k))
		}
		if seen[k.Value] {
			return m, fmt.Errorf("line %d: key %q appears twice", k.Line, k.Value)
		}
		seen[k.Value] = true
		if k.Value == store.UnparsedKeys {
			// Recall's own key for what it keeps unread: a note that
			// writes it itself is kept whole, not taken for recall's.
			return m, fmt.Errorf("line %d: key %q is the one recall keeps unreadable values under; rename it", k.Line, k.Value)
		}
		var err error
		switch k.Value {
		case keyTags:
			m.Tags, err = parseTags(v)
		case keyCreated:
			m.Created, err = parseTime(v)
		case keyUpdated:
			m.Updated, err = parseTime(v)
		case keyDate:
			// A date or a time is the entry's event date. Anything else
			// (free text, a list) stays a key recall does not interpret,
			// as it was before recall read dates: never a guessed date.
			if t, terr := parseTime(v); terr == nil && !t.IsZero() {
				m.Date = t
				break
			}
			fallthrough
		default:
			var x any
			if err = v.Decode(&x); err == nil {
				if m.Extra == nil {
					m.Extra = make(map[string]any)
				}
				m.Extra[k.Value] = x
			}
		}
		if err != nil && keep && (k.Value == keyTags || k.Value == keyCreated || k.Value == keyUpdated) {
			if doc0 == nil {
				d, ok := parseFMDoc(fm)
				if !ok {
					d = fmDoc{}
				}
				doc0 = &d
			}
			if keepUnparsed(&m, doc0, k, v) {
				continue
			}
		}
		if err != nil {
			return m, fmt.Errorf("%s: %w", k.Value, err)
		}
	}
	return m, nil
}

// parseTags accepts a list of scalars or, as people write by hand, a
// single scalar meaning one tag. A blank tag ("", spaces, or "#" alone,
// as a template leaves behind) is no tag, as in Obsidian.
func parseTags(n *yaml.Node) ([]string, error) {
	switch {
	case isNull(n):
		return nil, nil
	case n.Kind == yaml.ScalarNode:
		if store.BlankTag(n.Value) {
			return nil, nil
		}
		return []string{n.Value}, nil
	case n.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("line %d: is %s, want a list of tags", n.Line, kindName(n))
	}
	tags := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		switch {
		case isNull(item): // "- " with nothing after it
		case item.Kind == yaml.ScalarNode && store.BlankTag(item.Value):
		case item.Kind == yaml.ScalarNode:
			tags = append(tags, item.Value)
		default:
			return nil, fmt.Errorf("line %d: tag is %s, want a string", item.Line, kindName(item))
		}
	}
	return tags, nil
}

// timeLayouts are tried in order: what Put writes first, then the YAML
// timestamp forms people type (short fields, a space instead of 'T', a
// bare date meaning midnight UTC). A time without a zone is UTC, with a
// 'T' as with a space: Obsidian's and Templater's "YYYY-MM-DDTHH:mm:ss"
// is the form most vault notes carry.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999Z07:00",
	"2006-1-2T15:4:5.999999999",
	"2006-1-2t15:4:5.999999999",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2 15:4Z07:00",
	"2006-1-2T15:4Z07:00",
	"2006-1-2 15:4",
	"2006-1-2T15:4",
	"2006-1-2",
}

func parseTime(n *yaml.Node) (time.Time, error) {
	if isNull(n) {
		return time.Time{}, nil
	}
	if n.Kind != yaml.ScalarNode {
		return time.Time{}, fmt.Errorf("line %d: is %s, want a time such as 2024-03-01T09:30:00Z", n.Line, kindName(n))
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, n.Value); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("line %d: %q is not a time such as 2024-03-01T09:30:00Z", n.Line, n.Value)
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	default:
		return "a scalar"
	}
}

// needsFrontMatter reports whether content, written bare, could be taken
// for front matter when read back.
func needsFrontMatter(content string) bool { return strings.HasPrefix(content, delimiter) }

// metaError names the metadata key that cannot be written, and why.
type metaError struct{ key, reason string }

func (e *metaError) Error() string { return e.key + ": " + e.reason }

// checkMeta reports metadata the file format cannot round-trip.
func checkMeta(m store.Meta) error {
	for _, t := range m.Tags {
		if !utf8.ValidString(t) {
			return &metaError{keyTags, fmt.Sprintf("tag %q is not valid UTF-8", t)}
		}
		if store.BlankTag(t) { // it would read back as no tag
			return &metaError{keyTags, fmt.Sprintf("tag %q is blank", t)}
		}
	}
	for k := range m.Extra {
		switch {
		case k == keyTags || k == keyCreated || k == keyUpdated:
			return &metaError{k, "is reserved in Extra; use the Meta field of that name"}
		case k == keyDate && !m.Date.IsZero():
			return &metaError{k, "is both Meta.Date and a key of Extra"}
		case !utf8.ValidString(k):
			return &metaError{k, "key is not valid UTF-8"}
		case k == store.UnparsedKeys:
			if err := checkKept(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// renderFile is the inverse of parseFile. It writes front matter when there
// is metadata, and also when content itself begins with "---", so that
// content always reads back byte for byte. Keys come in a fixed order:
// tags, created, updated, date, then the extra keys sorted.
func renderFile(m store.Meta, content string) ([]byte, error) {
	if b, ok, err := renderUnparsed(m, content); ok {
		return b, err
	}
	if m.IsZero() && !needsFrontMatter(content) {
		return []byte(content), nil
	}
	if err := checkMeta(m); err != nil {
		return nil, err
	}
	if b, ok, err := renderKept(m, content); ok {
		return b, err
	}
	if b, ok := renderTimesOnly(m, content); ok {
		return b, nil
	}
	return renderFileYAML(m, content)
}

// renderTimesOnly is renderFile for the most common metadata, created and
// updated and nothing else (what Put stamps on an entry that brings none),
// written directly instead of through the YAML encoder, which costs more
// than the rest of a write. The bytes are exactly those of renderFileYAML
// (TestRenderTimesOnly compares them); ok is false for other metadata.
func renderTimesOnly(m store.Meta, content string) (b []byte, ok bool) {
	if len(m.Tags) > 0 || len(m.Extra) > 0 || !m.Date.IsZero() || !plainTime(m.Created) || !plainTime(m.Updated) {
		return nil, false
	}
	b = make([]byte, 0, len(content)+2*len(delimiter+"\n")+2*len("updated: 2006-01-02T15:04:05.999999999-07:00\n"))
	b = append(b, delimiter+"\n"...)
	if !m.Created.IsZero() {
		b = append(b, keyCreated+": "...)
		b = m.Created.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '\n')
	}
	if !m.Updated.IsZero() {
		b = append(b, keyUpdated+": "...)
		b = m.Updated.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '\n')
	}
	b = append(b, delimiter+"\n"...)
	return append(b, content...), true
}

// plainTime reports whether the YAML encoder writes t as its RFC 3339 form,
// unquoted: zero (absent) or a year of four digits.
func plainTime(t time.Time) bool {
	return t.IsZero() || t.Year() >= 1000 && t.Year() <= 9999
}

// renderFileYAML is renderFile through the YAML encoder.
func renderFileYAML(m store.Meta, content string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(delimiter + "\n")
	if !m.IsZero() {
		root := &yaml.Node{Kind: yaml.MappingNode}
		add := func(key string, v any) error {
			n, err := toNode(v, 0)
			if err != nil {
				return &metaError{key, err.Error()}
			}
			root.Content = append(root.Content, stringNode(key), n)
			return nil
		}
		if len(m.Tags) > 0 {
			if err := add(keyTags, m.Tags); err != nil {
				return nil, err
			}
		}
		if !m.Created.IsZero() {
			if err := add(keyCreated, m.Created); err != nil {
				return nil, err
			}
		}
		if !m.Updated.IsZero() {
			if err := add(keyUpdated, m.Updated); err != nil {
				return nil, err
			}
		}
		if !m.Date.IsZero() {
			if store.IsDateOnly(m.Date) {
				// A bare YAML date, as people write it: it reads back as
				// the same day.
				root.Content = append(root.Content, stringNode(keyDate),
					&yaml.Node{Kind: yaml.ScalarNode, Value: store.FormatDate(m.Date)})
			} else if err := add(keyDate, m.Date); err != nil {
				return nil, err
			}
		}
		keys := make([]string, 0, len(m.Extra))
		for k := range m.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := add(k, m.Extra[k]); err != nil {
				return nil, err
			}
		}
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(root); err != nil {
			return nil, &metaError{"front matter", err.Error()}
		}
		if err := enc.Close(); err != nil {
			return nil, &metaError{"front matter", err.Error()}
		}
	}
	buf.WriteString(delimiter + "\n")
	buf.WriteString(content)
	return buf.Bytes(), nil
}

// toNode builds the YAML for a metadata value. Strings, lists and
// string-keyed maps are built here rather than by yaml's encoder, which
// writes some strings (a tab before a line break, say) in a block style its
// own parser rejects, and floats such as 4.0 as ints. Other values (ints,
// bools, times, structs, marshalers) go through it.
// depth stops a value that contains itself.
func toNode(v any, depth int) (*yaml.Node, error) {
	if depth > maxMetaDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxMetaDepth)
	}
	switch v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case yaml.Marshaler, encoding.TextMarshaler, []byte: // time.Time among them
		return encodeNode(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		if s := rv.String(); utf8.ValidString(s) { // else yaml writes it as !!binary
			return stringNode(s), nil
		}
	case reflect.Float64:
		return floatNode(rv.Float(), 64), nil
	case reflect.Float32:
		return floatNode(rv.Float(), 32), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return toNode(nil, depth)
		}
		return toNode(rv.Elem().Interface(), depth+1)
	case reflect.Slice, reflect.Array:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := range rv.Len() {
			n, err := toNode(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, n)
		}
		return seq, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range keys {
			if !utf8.ValidString(k) {
				return nil, fmt.Errorf("key %q is not valid UTF-8", k)
			}
			n, err := toNode(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			m.Content = append(m.Content, stringNode(k), n)
		}
		return m, nil
	}
	return encodeNode(v)
}

// floatNode writes a float so that it reads back as one: yaml's encoder
// writes 4.0 as "4", which reads back as an int (and -0.0 as "-0", which
// reads back as 0).
func floatNode(f float64, bits int) *yaml.Node {
	var s string
	switch {
	case math.IsNaN(f):
		s = ".nan"
	case math.IsInf(f, 1):
		s = ".inf"
	case math.IsInf(f, -1):
		s = "-.inf"
	default:
		s = strconv.FormatFloat(f, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
}

// stringNode is a scalar that always reads back as the string s. Strings
// with control characters are double-quoted, where YAML escapes them.
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.IndexFunc(s, needsEscape) >= 0 {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func needsEscape(r rune) bool {
	switch r {
	case '\n':
		return false
	case '\uFEFF', '\u0085', '\u2028', '\u2029': // BOM and YAML 1.1 line breaks
		return true
	}
	return unicode.IsControl(r) || !unicode.IsPrint(r) && !unicode.IsSpace(r)
}

// encodeNode lets yaml encode v, turning the panics it raises for values it
// cannot represent (funcs, channels) into errors, so Put reports them
// instead of crashing.
func encodeNode(v any) (n *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot be written as YAML: %v", r)
		}
	}()
	n = new(yaml.Node)
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return n, nil
}
