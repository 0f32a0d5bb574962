package fs

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/recallhq/recall/store"
)

// Front matter written as a YAML flow mapping ("{a: 1, b: [x, y]}",
// possibly over several lines, with comments) cannot be taken apart by
// line as spliceFile does. spliceFlow edits its text where each value
// stands instead: a changed value is replaced by its flow form in place, a
// dropped key is cut with its comma, a new key goes before the closing
// brace; every other byte stays. As for the line splice, the result must
// read back as the metadata wanted, else the caller falls back to the
// canonical form.

// keepFrontMatter returns old's front matter block, byte for byte, before
// content: a write that changes no key leaves a front matter of any
// layout alone. ok is false when old has none.
func keepFrontMatter(old []byte, content string) ([]byte, bool) {
	_, body, ok := splitFrontMatter(old)
	if !ok {
		return nil, false
	}
	header := old[:len(old)-len(body)]
	b := make([]byte, 0, len(header)+len(content)+2)
	b = append(b, header...)
	if body == nil && content != "" { // the block ended the file
		if bytes.HasSuffix(bytes.TrimSuffix(header, []byte(delimiter)), []byte("\r\n")) {
			b = append(b, '\r')
		}
		b = append(b, '\n')
	}
	return append(b, content...), true
}

// flowEdit replaces fm[from:to] by text.
type flowEdit struct {
	from, to int
	text     string
}

// spliceFlow is spliceFile for a front matter fm (as splitFrontMatter
// returns it) whose top level is a flow mapping; ok is false when it is
// not one, or the edit cannot be made exactly.
func spliceFlow(old, fm []byte, oldMeta, m store.Meta, content string) ([]byte, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil || len(doc.Content) == 0 {
		return nil, false
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle == 0 {
		return nil, false
	}
	text := string(fm)
	offset := lineOffsets(text)
	pos := func(n *yaml.Node) int { return offsetOf(text, offset, n.Line, n.Column) }
	start := pos(root)
	if start < 0 || start >= len(text) || text[start] != '{' {
		return nil, false
	}
	end := flowValueEnd(text, start) // just after the closing brace
	if end < 0 {
		return nil, false
	}
	// A time the note writes as a bare date stays one: the time wanted is
	// that day (as spliceFile does).
	for i := 0; i+1 < len(root.Content); i += 2 {
		if v := root.Content[i+1]; v.Kind == yaml.ScalarNode && isBareDate(v.Value) {
			switch root.Content[i].Value {
			case keyCreated:
				m.Created = dayOf(m.Created)
			case keyUpdated:
				m.Updated = dayOf(m.Updated)
			}
		}
	}
	var edits []flowEdit
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, false
		}
		seen[k.Value] = true
		oldV, _ := metaValue(oldMeta, k.Value)
		newV, has := metaValue(m, k.Value)
		if has && sameValue(k.Value, oldV, newV) {
			continue
		}
		ks, vs := pos(k), pos(v)
		if ks < 0 || vs < 0 {
			return nil, false
		}
		ve := flowValueEnd(text, vs)
		if ve < 0 {
			return nil, false
		}
		if !has {
			edits = append(edits, cutFlowPair(text, ks, ve))
			continue
		}
		s, ok := flowValue(m, k.Value, v)
		if !ok {
			return nil, false
		}
		edits = append(edits, flowEdit{vs, ve, s})
	}
	// Keys m holds that the note does not, before the closing brace.
	var added []string
	for _, k := range []string{keyTags, keyCreated, keyUpdated, keyDate} {
		if _, has := metaValue(m, k); has && !seen[k] {
			added = append(added, k)
		}
	}
	extra := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if !seen[k] && k != store.UnparsedKeys {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	added = append(added, extra...)
	if len(added) > 0 {
		at := end - 1 // the closing brace
		for at > start+1 && strings.ContainsRune(" \t\r\n", rune(text[at-1])) {
			at--
		}
		var ins strings.Builder
		empty := at == start+1
		for _, k := range added {
			s, ok := flowPair(m, k)
			if !ok {
				return nil, false
			}
			if !empty {
				ins.WriteString(", ")
			}
			empty = false
			ins.WriteString(s)
		}
		edits = append(edits, flowEdit{at, at, ins.String()})
	}
	slices.SortFunc(edits, func(a, b flowEdit) int { return b.from - a.from })
	for i, e := range edits {
		if i > 0 && e.to > edits[i-1].from {
			return nil, false // overlapping: not an edit to make blindly
		}
		text = text[:e.from] + e.text + text[e.to:]
	}
	_, body, _ := splitFrontMatter(old)
	header := old[len(delimiter)+len(fm) : len(old)-len(body)] // the closing delimiter line
	b := make([]byte, 0, len(delimiter)+len(text)+len(header)+len(content)+2)
	b = append(b, delimiter...)
	b = append(b, text...)
	b = append(b, header...)
	if body == nil && content != "" {
		b = append(b, '\n')
	}
	b = append(b, content...)
	gotMeta, gotContent, err := parseFile(b)
	if err != nil || gotContent != content || !metaMatches(gotMeta, m) {
		return nil, false
	}
	return b, true
}

// cutFlowPair is the edit that removes the pair key: value spanning
// text[ks:ve] from a flow mapping, with the comma after it, or for the
// last pair the comma before it.
func cutFlowPair(text string, ks, ve int) flowEdit {
	j := ve
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if j < len(text) && text[j] == ',' {
		j++
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		return flowEdit{ks, j, ""}
	}
	i := ks
	for i > 0 && strings.ContainsRune(" \t\r\n", rune(text[i-1])) {
		i--
	}
	if i > 0 && text[i-1] == ',' {
		i--
	}
	return flowEdit{i, ve, ""}
}

// flowValue renders m's value for key in flow style, one line, as
// renderKey renders it in block style (a time in the note's own form);
// like is the old value, whose quoting a changed string keeps.
func flowValue(m store.Meta, key string, like *yaml.Node) (string, bool) {
	v, ok := flowNode(m, key, like)
	if !ok {
		return "", false
	}
	s, ok := encodeFlow(&yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{v}})
	if !ok || !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// flowPair renders key: value in flow style for a key the note lacks.
func flowPair(m store.Meta, key string) (string, bool) {
	v, ok := flowNode(m, key, nil)
	if !ok {
		return "", false
	}
	s, ok := encodeFlow(&yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{stringNode(key), v}})
	if !ok || !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// flowNode is the node of m's value for key as renderKey writes it, made
// flow style throughout and without comments (the note's own stay where
// they are).
func flowNode(m store.Meta, key string, like *yaml.Node) (*yaml.Node, bool) {
	block, err := renderKey(m, key, like)
	if err != nil {
		return nil, false
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(block), &doc) != nil || len(doc.Content) == 0 || len(doc.Content[0].Content) != 2 {
		return nil, false
	}
	v := doc.Content[0].Content[1]
	var flow func(n *yaml.Node)
	flow = func(n *yaml.Node) {
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
			n.Style = yaml.FlowStyle
		}
		if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			n.Style = yaml.DoubleQuotedStyle
		}
		for _, c := range n.Content {
			flow(c)
		}
	}
	flow(v)
	if like != nil && like.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && v.Tag == "!!str" &&
		like.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 && v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 {
		v.Style = like.Style & (yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle)
	}
	return v, true
}

// encodeFlow encodes a flow collection on one line.
func encodeFlow(n *yaml.Node) (string, bool) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if enc.Encode(n) != nil || enc.Close() != nil {
		return "", false
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	return s, !strings.Contains(s, "\n")
}

// lineOffsets returns where each line of text starts: line n (from 1) at
// offsets[n-1].
func lineOffsets(text string) []int {
	offs := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			offs = append(offs, i+1)
		}
	}
	return offs
}

// offsetOf is the byte offset of yaml.v3's line and column (from 1, the
// column counted in characters); -1 when out of range.
func offsetOf(text string, offsets []int, line, col int) int {
	if line < 1 || line > len(offsets) || col < 1 {
		return -1
	}
	i := offsets[line-1]
	for c := 1; c < col; c++ {
		if i >= len(text) || text[i] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return i
}

// flowValueEnd returns the end of the flow value that starts at text[i]:
// a quoted scalar to its closing quote, a collection to its closing
// bracket (quotes and comments inside skipped), a plain scalar to the
// next ',', ']', '}', comment or line end, trailing blanks left out; -1
// when it does not end.
func flowValueEnd(text string, i int) int {
	if i >= len(text) {
		return -1
	}
	switch text[i] {
	case '"', '\'':
		return quotedEnd(text, i)
	case '[', '{':
		depth := 0
		for j := i; j < len(text); {
			switch c := text[j]; {
			case c == '"' || c == '\'':
				e := quotedEnd(text, j)
				if e < 0 {
					return -1
				}
				j = e
				continue
			case c == '#' && j > 0 && strings.ContainsRune(" \t\n", rune(text[j-1])):
				for j < len(text) && text[j] != '\n' {
					j++
				}
				continue
			case c == '[' || c == '{':
				depth++
			case c == ']' || c == '}':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
			j++
		}
		return -1
	}
	j := i
	for j < len(text) && !strings.ContainsRune(",]}\r\n", rune(text[j])) && !(text[j] == '#' && j > i && (text[j-1] == ' ' || text[j-1] == '\t')) {
		j++
	}
	for j > i && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	return j
}

// quotedEnd returns the end of the quoted scalar that starts at text[i],
// just after its closing quote; -1 when it does not close.
func quotedEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q && q == '\'' && j+1 < len(text) && text[j+1] == '\'':
			j++
		case text[j] == q:
			return j + 1
		}
	}
	return -1
}
