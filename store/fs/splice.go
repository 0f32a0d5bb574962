package fs

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/recallhq/recall/store"
)

// Writing over a note that is already there. A note in a folder is often
// the user's own (an Obsidian vault), its front matter written by hand or
// by other tools: key order, quoting, comments, `date: 2024-01-05`,
// `price: 4.50`. A write through recall keeps that text byte for byte and
// changes only the lines of the keys whose values change: spliceFile
// takes the old front matter apart by top-level key (yaml.v3 gives each
// key's line) and replaces, removes or adds only those keys' lines. The
// result is parsed back and compared with the metadata wanted; anything
// the splice cannot do exactly (a key not at the start of its line, a
// value that reads back otherwise) falls back to the canonical form of
// renderFile, which is what a new note gets. A front matter whose keys
// keep their values stays byte for byte whatever its layout, and one
// written as a flow mapping at the top is edited value by value where
// each stands (spliceflow.go).

// fmDoc is a front matter taken apart: the lines of its YAML (each with
// its line break) and, per top-level key in order, its name, value node
// and the lines it spans.
type fmDoc struct {
	lines []string
	keys  []fmKey
	crlf  bool
}

type fmKey struct {
	name       string
	key, value *yaml.Node
	first, end int // lines [first, end) of lines: the key's line to its value's last
}

// parseFMDoc takes fm (the YAML between the delimiter lines, starting
// with the break of the opening line, as splitFrontMatter returns it)
// apart; ok is false when it is not a block mapping of keys that each
// start a line.
func parseFMDoc(fm []byte) (d fmDoc, ok bool) {
	d.crlf = bytes.HasPrefix(fm, []byte("\r\n"))
	text := string(fm)
	// lines[0] is the break after the opening "---"; YAML line n is lines[n-1].
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			d.lines = append(d.lines, text)
			break
		}
		d.lines = append(d.lines, text[:i+1])
		text = text[i+1:]
	}
	dec := yaml.NewDecoder(bytes.NewReader(fm))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return d, errors.Is(err, io.EOF) // empty or comments only: nothing to take apart
	}
	if len(doc.Content) == 0 {
		return d, true
	}
	root := doc.Content[0]
	if isNull(root) {
		return d, true
	}
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 {
		return d, false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Column != 1 || k.Line < 1 || k.Line > len(d.lines) {
			return d, false
		}
		d.keys = append(d.keys, fmKey{name: k.Value, key: k, value: v, first: k.Line - 1})
	}
	for i := range d.keys {
		limit := len(d.lines)
		if i+1 < len(d.keys) {
			limit = d.keys[i+1].first
		}
		// The value ends at the last line before the next key that is
		// neither blank nor a comment at the start of a line (a block
		// value's own lines are indented): the comments above the next key
		// are that key's.
		end := limit
		for end > d.keys[i].first+1 && skippable(d.lines[end-1]) {
			end--
		}
		d.keys[i].end = end
	}
	return d, true
}

// skippable reports whether a line of front matter holds no value: blank,
// or a comment starting the line.
func skippable(line string) bool {
	t := strings.TrimRight(line, "\r\n")
	return strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#")
}

// metaValue is what m holds for a front matter key, and whether it holds it.
// A value kept under store.UnparsedKeys is that key's value, as its text
// (keptText), where a file writes it (keptValue); store.UnparsedKeys
// itself is no key of a file.
func metaValue(m store.Meta, key string) (any, bool) {
	if text, ok := keptValue(m, key); ok {
		return keptText(text), true
	}
	if key == store.UnparsedKeys {
		return nil, false
	}
	switch key {
	case keyTags:
		return m.Tags, len(m.Tags) > 0
	case keyCreated:
		return m.Created, !m.Created.IsZero()
	case keyUpdated:
		return m.Updated, !m.Updated.IsZero()
	case keyDate:
		if !m.Date.IsZero() {
			return m.Date, true
		}
	}
	v, ok := m.Extra[key]
	return v, ok
}

// keptText is the text of a value kept under store.UnparsedKeys.
type keptText string

// sameValue reports whether a key's old and new values are the same
// metadata, so that its lines can stay as they are.
func sameValue(key string, a, b any) bool {
	switch x := a.(type) {
	case []string:
		y, ok := b.([]string)
		return ok && slices.Equal(x, y)
	case time.Time:
		y, ok := b.(time.Time)
		if !ok || !x.Equal(y) {
			return false
		}
		if key == keyDate {
			return store.IsDateOnly(x) == store.IsDateOnly(y)
		}
		// The same instant in another offset is another text, which Put
		// writes as given.
		_, ox := x.Zone()
		_, oy := y.Zone()
		return ox == oy
	}
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// keyRank orders keys as renderFile does: tags, created, updated, date,
// then the others by name.
func keyRank(k string) (int, string) {
	switch k {
	case keyTags:
		return 0, ""
	case keyCreated:
		return 1, ""
	case keyUpdated:
		return 2, ""
	case keyDate:
		return 3, ""
	}
	return 4, k
}

func rankLess(a, b string) bool {
	ra, na := keyRank(a)
	rb, nb := keyRank(b)
	return ra < rb || ra == rb && na < nb
}

// renderKey renders one top-level key with its value as renderFile would,
// as lines ending in breaks; like is the old value's node, whose style (a
// bare date, quotes) and line comment a changed time keeps.
func renderKey(m store.Meta, key string, like *yaml.Node) (string, error) {
	if text, ok := keptValue(m, key); ok {
		return strings.ReplaceAll(text, "\r\n", "\n"), nil
	}
	one := store.Meta{}
	switch key {
	case keyTags:
		one.Tags = m.Tags
	case keyCreated:
		one.Created = m.Created
	case keyUpdated:
		one.Updated = m.Updated
	case keyDate:
		if !m.Date.IsZero() {
			one.Date = m.Date
			break
		}
		fallthrough
	default:
		one.Extra = map[string]any{key: m.Extra[key]}
	}
	if like != nil && like.Kind == yaml.ScalarNode && (key == keyCreated || key == keyUpdated) {
		// Keep the note's way of writing its times: a bare date stays a
		// bare date, quotes stay.
		t := one.Created
		if key == keyUpdated {
			t = one.Updated
		}
		v := t.Format(time.RFC3339Nano)
		if isBareDate(like.Value) {
			v = t.UTC().Format(time.DateOnly)
		}
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: v, Style: like.Style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle), LineComment: like.LineComment}
		if n.Style == 0 {
			n.Tag = "!!timestamp"
		}
		return encodeMapping(key, n)
	}
	b, err := renderFileYAML(one, "")
	if err != nil {
		return "", err
	}
	s := strings.TrimPrefix(string(b), delimiter+"\n")
	return strings.TrimSuffix(s, delimiter+"\n"), nil
}

// dayOf is t's day (in UTC) at midnight UTC, as a bare date reads; zero
// stays zero.
func dayOf(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	y, mo, d := t.UTC().Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
}

func isBareDate(s string) bool {
	_, err := time.Parse("2006-1-2", s)
	return err == nil
}

// encodeMapping renders key: n as a one-key block mapping.
func encodeMapping(key string, n *yaml.Node) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{stringNode(key), n}}); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// spliceFile renders m and content over old, the bytes of the file they
// replace, keeping old's front matter text except for the keys whose
// values change; ok is false when it cannot, and the caller renders the
// canonical form. oldMeta is old parsed.
func spliceFile(old []byte, oldMeta, m store.Meta, content string) (b []byte, ok bool) {
	if _, unparsed := unparsedBlock(oldMeta); unparsed {
		return nil, false // kept verbatim by renderFile, or refused
	}
	fm, _, hasFM := splitFrontMatter(old)
	if !hasFM {
		return nil, false
	}
	if metaMatches(oldMeta, m) {
		// No key changes: the front matter stays as it is, whatever its
		// layout (spliceflow.go).
		if b, ok := keepFrontMatter(old, content); ok {
			if gotMeta, gotContent, err := parseFile(b); err == nil && gotContent == content && metaMatches(gotMeta, m) {
				return b, true
			}
		}
	}
	d, ok := parseFMDoc(fm)
	if !ok {
		return spliceFlow(old, fm, oldMeta, m, content) // a flow mapping at the top, or no splice
	}
	out := make([]string, 0, len(d.lines)+4)
	seen := make(map[string]bool, len(d.keys))
	canonical := slices.IsSortedFunc(d.keys, func(a, b fmKey) int {
		switch {
		case rankLess(a.name, b.name):
			return -1
		case rankLess(b.name, a.name):
			return 1
		}
		return 0
	})
	// A time the note writes as a bare date stays one: the time wanted is
	// that day.
	for _, k := range d.keys {
		if k.value.Kind != yaml.ScalarNode || !isBareDate(k.value.Value) {
			continue
		}
		switch k.name {
		case keyCreated:
			m.Created = dayOf(m.Created)
		case keyUpdated:
			m.Updated = dayOf(m.Updated)
		}
	}
	// Keys m holds that the note does not, in renderFile's order.
	var added []string
	for _, k := range []string{keyTags, keyCreated, keyUpdated, keyDate} {
		if _, has := metaValue(m, k); has {
			added = append(added, k)
		}
	}
	extra := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if k != store.UnparsedKeys {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	added = append(added, extra...)
	for _, k := range d.keys {
		seen[k.name] = true
	}
	added = slices.DeleteFunc(added, func(k string) bool { return seen[k] })

	fix := func(s string) string {
		if d.crlf {
			return strings.ReplaceAll(s, "\n", "\r\n")
		}
		return s
	}
	next := 0 // lines before next are copied
	for _, k := range d.keys {
		// In a note already in renderFile's order, new keys go where
		// renderFile would put them.
		if canonical {
			for len(added) > 0 && rankLess(added[0], k.name) {
				s, err := renderKey(m, added[0], nil)
				if err != nil {
					return nil, false
				}
				out = append(out, d.lines[next:k.first]...)
				next = k.first
				out = append(out, fix(s))
				added = added[1:]
			}
		}
		oldV, _ := metaValue(oldMeta, k.name)
		newV, has := metaValue(m, k.name)
		switch {
		case has && sameValue(k.name, oldV, newV):
			continue // its lines are copied with the rest
		case !has:
			out = append(out, d.lines[next:k.first]...)
			next = k.end
		default:
			s, err := renderKey(m, k.name, k.value)
			if err != nil {
				return nil, false
			}
			out = append(out, d.lines[next:k.first]...)
			out = append(out, fix(s))
			next = k.end
		}
	}
	out = append(out, d.lines[next:]...)
	for _, k := range added {
		s, err := renderKey(m, k, nil)
		if err != nil {
			return nil, false
		}
		out = append(out, fix(s))
	}
	var buf bytes.Buffer
	buf.WriteString(delimiter)
	for _, l := range out {
		buf.WriteString(l)
	}
	if buf.Len() > 0 && !bytes.HasSuffix(buf.Bytes(), []byte("\n")) {
		buf.WriteString(fix("\n"))
	}
	buf.WriteString(fix(delimiter + "\n"))
	buf.WriteString(content)
	b = buf.Bytes()
	// Trust nothing: the splice must read back as m and content exactly.
	gotMeta, gotContent, err := parseFile(b)
	if err != nil || gotContent != content || !metaMatches(gotMeta, m) {
		return nil, false
	}
	return b, true
}

// metaMatches reports whether a and b hold the same metadata, as sameValue
// compares each key.
func metaMatches(a, b store.Meta) bool {
	keys := map[string]bool{keyTags: true, keyCreated: true, keyUpdated: true, keyDate: true}
	for k := range a.Extra {
		keys[k] = true
	}
	for k := range b.Extra {
		keys[k] = true
	}
	delete(keys, store.UnparsedKeys) // its values are those of the keys it keeps
	for k := range keys {
		va, ha := metaValue(a, k)
		vb, hb := metaValue(b, k)
		if ha != hb || ha && !sameValue(k, va, vb) {
			return false
		}
	}
	return true
}
