// Command vaultlinks measures how many of the note-to-note links that
// Obsidian resolves in a vault recall resolves to the same note
// (docs/benchmarks.md, "Links as Obsidian resolves them").
//
//	go run ./bench/vaultlinks /tmp/ohv/en /tmp/ohv/zh
//
// Its Obsidian side is written apart from recall's resolver, from
// Obsidian's documented behaviour and its metadata cache's resolver
// (getLinkpathDest): it lists every file of the vault (attachments too, as
// Obsidian's file lookup does), reads each note's links (wiki-links and
// markdown links outside code, and front matter properties that are one
// quoted wiki-link) and resolves them over the files. A link counts when
// Obsidian's answer is a note (.md). Where Obsidian's answer depends on
// the order it loaded files in (two candidates tie on path length), the
// link counts as resolved by Obsidian and is reported as a tie.
//
// Its recall side opens the vault as a folder store (the index cache in a
// temporary directory) and asks GET /v1/links of every entry, the way a
// client does; so the same program measures any revision of recall.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf16"

	"go.yaml.in/yaml/v3"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
	"github.com/recallhq/recall/web"
)

func main() {
	verbose := flag.Bool("v", false, "list every link recall misses or resolves elsewhere")
	flag.Parse()
	for _, dir := range flag.Args() {
		if err := measure(dir, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "vaultlinks:", err)
			os.Exit(1)
		}
	}
}

// link is one link of a note as Obsidian resolves it.
type link struct {
	source, raw, target string // vault paths; target "" when unresolved
	tie, property       bool
}

func measure(dir string, verbose bool) error {
	files, err := vaultFiles(dir)
	if err != nil {
		return err
	}
	obs := obsidianLinks(dir, files)
	got, notes, err := recallLinks(dir)
	if err != nil {
		return err
	}
	var noteLinks, same, other, missed, ties, property, self int
	for _, l := range obs {
		if !strings.HasSuffix(strings.ToLower(l.target), ".md") {
			continue
		}
		if l.target == l.source {
			// Into the note itself ([[This note#Heading]]): recall resolves
			// it to the note and, having nothing to inject, leaves it out
			// of /v1/links; counted apart.
			self++
			continue
		}
		noteLinks++
		if l.tie {
			ties++
		}
		if l.property {
			property++
		}
		r, ok := got[l.source+"\x00"+l.raw]
		switch {
		case ok && r == l.target:
			same++
		case ok && r != "":
			other++
			if verbose {
				fmt.Printf("  OTHER %s: %s → recall %s, Obsidian %s\n", l.source, l.raw, r, l.target)
			}
		default:
			missed++
			if verbose {
				fmt.Printf("  MISSED %s: %s → Obsidian %s\n", l.source, l.raw, l.target)
			}
		}
	}
	fmt.Printf("%s: %d notes (recall read %d); %d links Obsidian resolves to another note (%d of them property links, %d ties on path length), %d into the note itself; recall: %d same note (%.1f%%), %d another note, %d unresolved\n",
		dir, countNotes(files), notes, noteLinks, property, ties, self, same, 100*float64(same)/float64(max(noteLinks, 1)), other, missed)
	return nil
}

func countNotes(files []string) int {
	n := 0
	for _, f := range files {
		if strings.HasSuffix(strings.ToLower(f), ".md") {
			n++
		}
	}
	return n
}

// vaultFiles lists the vault's files as Obsidian sees them: every file
// outside dot folders, slash-separated paths from the top.
func vaultFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

var (
	wikiRE = regexp.MustCompile(`\[\[([^\[\]\n]+)\]\]`)
	mdRE   = regexp.MustCompile(`\[([^\[\]\n]*)\]\((<[^>\n]+>|[^\s()]+)(?:\s+"[^"\n]*")?\)`)
	fence  = regexp.MustCompile("^ {0,3}(```|~~~)")
	quoted = regexp.MustCompile(`^(?: {0,3}> ?)+`)
	scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// obsidianLinks reads and resolves every note's links, each distinct raw
// link of a note once.
func obsidianLinks(dir string, files []string) []link {
	lookup := map[string][]string{} // lower-cased file name → paths
	for _, f := range files {
		lookup[strings.ToLower(path.Base(f))] = append(lookup[strings.ToLower(path.Base(f))], f)
	}
	var out []link
	for _, src := range files {
		if !strings.HasSuffix(strings.ToLower(src), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(src)))
		if err != nil {
			continue
		}
		props, body := splitFrontMatter(string(b))
		seen := map[string]bool{}
		add := func(raw, linkpath string, property bool) {
			if seen[raw] {
				return
			}
			seen[raw] = true
			t, tie := resolve(lookup, linkpath, src)
			out = append(out, link{source: src, raw: raw, target: t, tie: tie, property: property})
		}
		for _, p := range props {
			add(p, wikiPath(p[2:len(p)-2]), true)
		}
		// Links are found in the text with its code blanked, and read as
		// written (code inside a link's label is text).
		masked := stripCode(body)
		for _, m := range wikiRE.FindAllStringSubmatchIndex(masked, -1) {
			add(body[m[0]:m[1]], wikiPath(body[m[2]:m[3]]), false)
		}
		for _, m := range mdRE.FindAllStringSubmatchIndex(masked, -1) {
			dest := strings.Trim(body[m[4]:m[5]], "<>")
			if scheme.MatchString(dest) || strings.HasPrefix(dest, "//") {
				continue
			}
			if u, err := url.PathUnescape(dest); err == nil {
				dest = u
			}
			if i := strings.IndexByte(dest, '#'); i >= 0 {
				dest = dest[:i]
			}
			if dest == "" {
				continue
			}
			add(body[m[0]:m[1]], dest, false)
		}
	}
	return out
}

// wikiPath is the link path of a wiki-link's inside: before '|' and '#'.
func wikiPath(inner string) string {
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		inner = strings.TrimSuffix(inner[:i], `\`)
	}
	if i := strings.IndexByte(inner, '#'); i >= 0 {
		inner = inner[:i]
	}
	return strings.TrimSpace(inner)
}

// splitFrontMatter returns the property links (values, or list items,
// that are one quoted wiki-link) and the body after the front matter.
func splitFrontMatter(s string) (props []string, body string) {
	s = strings.TrimPrefix(s, "\ufeff")
	if !strings.HasPrefix(s, "---\n") && !strings.HasPrefix(s, "---\r\n") {
		return nil, s
	}
	rest := s[strings.IndexByte(s, '\n')+1:]
	end := regexp.MustCompile(`(?m)^---\s*$`).FindStringIndex(rest)
	if end == nil {
		return nil, s
	}
	var m map[string]any
	if yaml.Unmarshal([]byte(rest[:end[0]]), &m) == nil {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		one := regexp.MustCompile(`^!?\[\[[^\[\]\n]+\]\]$`)
		for _, k := range keys {
			if k == "aliases" || k == "alias" {
				continue
			}
			vals := []any{m[k]}
			if l, ok := m[k].([]any); ok {
				vals = l
			}
			for _, v := range vals {
				if s, ok := v.(string); ok && one.MatchString(strings.TrimSpace(s)) {
					props = append(props, strings.TrimPrefix(strings.TrimSpace(s), "!"))
				}
			}
		}
	}
	return props, rest[end[1]:]
}

// stripCode blanks fenced blocks and inline code spans, keeping every
// offset. As CommonMark has it (and Obsidian's own help vault relies on:
// a ````md block showing a ```mermaid one): a fence is closed only by a
// fence of the same character at least as long, with nothing after it; a
// fence may open inside a block quote ("> ```"); an inline span opened by
// n backticks is closed by the next run of exactly n (“ a`b “). Spans
// are looked for within a line only.
func stripCode(s string) string {
	lines := strings.Split(s, "\n")
	in := ""
	for i, l := range lines {
		q := quoted.FindString(l) // the block quote markers, if any
		if m := fence.FindStringSubmatch(l[len(q):]); m != nil {
			rest := strings.TrimLeft(l[len(q):], " ")
			run := rest[:len(rest)-len(strings.TrimLeft(rest, m[1][:1]))]
			opens := in == "" && (m[1][0] == '~' || !strings.Contains(rest[len(run):], "`"))
			closes := in != "" && run[0] == in[0] && len(run) >= len(in) && strings.TrimSpace(rest[len(run):]) == ""
			switch {
			case opens:
				in = run
			case closes:
				in = ""
			}
			if opens || closes {
				lines[i] = strings.Repeat(" ", len(l))
				continue
			}
		}
		if in != "" {
			lines[i] = strings.Repeat(" ", len(l))
			continue
		}
		lines[i] = blankSpans(l)
	}
	return strings.Join(lines, "\n")
}

// resolve is Obsidian's metadata cache resolution of linkpath written in
// the note at source: the candidates are the files of the link's file name
// (as written if it has an extension, else with ".md"), case ignored; one
// candidate for a bare name is the answer; then a relative path
// ("./", "../") from the source's folder, then a path from the top, must
// match a candidate's path exactly; a path starting with "/" stops there;
// else the candidates whose path ends with the link's, those whose path
// starts with the source's folder first, each group by path length
// (UTF-16). tie reports that the first two of the chosen group have the
// same length, which Obsidian breaks by its load order.
func resolve(lookup map[string][]string, linkpath, source string) (target string, tie bool) {
	n := strings.ToLower(linkpath)
	name := path.Base(n)
	var cands []string
	if strings.Contains(name, ".") {
		cands = lookup[name]
	}
	if cands == nil {
		n = strings.ToLower(linkpath + ".md")
		name = path.Base(n)
		cands = lookup[name]
	}
	if cands == nil {
		return "", false
	}
	if name == n && len(cands) == 1 {
		return cands[0], false
	}
	dir := strings.ToLower(parent(source))
	if strings.HasPrefix(n, "./") || strings.HasPrefix(n, "../") {
		n = strings.TrimPrefix(n, "./")
		if strings.HasPrefix(linkpath, "./") && !strings.HasPrefix(linkpath, "./../") {
			n = join(dir, n)
		} else {
			for strings.HasPrefix(n, "../") {
				n = n[3:]
				dir = parent(dir)
			}
			n = join(dir, n)
		}
		for _, c := range cands {
			if strings.ToLower(c) == n {
				return c, false
			}
		}
	}
	n = strings.TrimPrefix(n, "/")
	for _, c := range cands {
		if strings.ToLower(c) == n {
			return c, false
		}
	}
	if strings.HasPrefix(linkpath, "/") {
		return "", false
	}
	var near, far []string
	for _, c := range cands {
		lc := strings.ToLower(c)
		if strings.HasSuffix(lc, n) {
			if strings.HasPrefix(lc, dir) {
				near = append(near, c)
			} else {
				far = append(far, c)
			}
		}
	}
	g := near
	if len(g) == 0 {
		g = far
	}
	if len(g) == 0 {
		return "", false
	}
	u16 := func(s string) int { return len(utf16.Encode([]rune(s))) }
	sort.SliceStable(g, func(i, j int) bool { return u16(g[i]) < u16(g[j]) })
	return g[0], len(g) > 1 && u16(g[0]) == u16(g[1])
}

// blankSpans blanks the inline code spans of one line: a run of n
// backticks up to the next run of exactly n.
func blankSpans(l string) string {
	b := []byte(l)
	run := func(i int) int {
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		return n
	}
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := run(i)
		end := -1
		for j := i + n; j < len(b); {
			if b[j] != '`' {
				j++
				continue
			}
			m := run(j)
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			i += n
			continue
		}
		for k := i; k < end; k++ {
			b[k] = ' '
		}
		i = end
	}
	return string(b)
}

func parent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func join(dir, rest string) string {
	if dir == "" {
		return rest
	}
	return dir + "/" + rest
}

// recallLinks opens the vault as a folder store and returns, for every
// entry's distinct link, the vault path recall resolves it to ("" when
// unresolved), keyed by source path and raw link.
func recallLinks(dir string) (map[string]string, int, error) {
	cache, err := os.MkdirTemp("", "vaultlinks")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(cache)
	os.Setenv("RECALL_CACHE_DIR", cache)
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		return nil, 0, err
	}
	defer st.Close()
	eng := retrieve.New(st, retrieve.Options{})
	mux := http.NewServeMux()
	mux.Handle("GET /v1/links/{category}/{name}", web.Links(eng))
	out := map[string]string{}
	notes := 0
	// An identity's file path: its names as written (a note named "L*"
	// has the identity "L%2A", README "Every note a folder holds").
	vaultPath := func(category, name string) string {
		name = store.UnescapeName(name) + ".md"
		if category == fsstore.RootCategory {
			return name
		}
		return store.CategoryPath(category) + "/" + name
	}
	for e, err := range st.All(context.Background()) {
		if err != nil {
			continue // an unreadable note: its links are missed
		}
		notes++
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/links/"+url.PathEscape(e.Category)+"/"+url.PathEscape(e.Name), nil))
		var res web.LinksResult
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &res) != nil {
			continue
		}
		src := vaultPath(e.Category, e.Name)
		for _, l := range res.Links {
			t := ""
			if l.Resolved {
				t = vaultPath(l.Category, l.Name)
			}
			out[src+"\x00"+l.Raw] = t
		}
	}
	return out, notes, nil
}
