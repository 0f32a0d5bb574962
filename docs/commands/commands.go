// Package commands is the manual of the recall command line: one markdown
// page per command (add.md, retrieve.md, ...; recall.md for recall
// itself). The command prints its page as its --help, and readers of the
// repository read the same page here, so the two cannot drift apart.
//
// # Page format
//
// A page is, in order:
//
//   - a title line, "# recall" or "# recall NAME";
//   - a blank line and the one-line summary (cobra's Short);
//   - the help text (cobra's Long): everything up to the first line that
//     starts with "## ", with the lines that only open or close a code
//     fence (```text, ```) left out, so that indented tables render as
//     preformatted text here and print unchanged in a terminal;
//   - optionally "## Examples" and one ```sh fenced block, printed as the
//     command's examples (each line indented by two spaces, as cobra
//     shows them);
//   - optionally further "## " sections, which are for readers of the
//     page only.
package commands

import (
	"embed"
	"errors"
	"fmt"
	"strings"
)

//go:embed *.md
var pages embed.FS

// Page is one command's help, in the fields cobra.Command takes.
type Page struct {
	Short   string
	Long    string
	Example string
}

// Lookup returns the page of the command name ("recall" for the root).
func Lookup(name string) (Page, error) {
	b, err := pages.ReadFile(name + ".md")
	if err != nil {
		return Page{}, fmt.Errorf("no page for command %q", name)
	}
	p, err := Parse(string(b))
	if err != nil {
		return Page{}, fmt.Errorf("%s.md: %w", name, err)
	}
	return p, nil
}

// Names lists the commands that have a page, "recall" among them.
func Names() []string {
	entries, _ := pages.ReadDir(".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".md"); ok {
			names = append(names, n)
		}
	}
	return names
}

// Parse reads one page (see the package doc for its format).
func Parse(text string) (Page, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "# recall") || lines[1] != "" || lines[2] == "" {
		return Page{}, errors.New(`want a "# recall ..." title, a blank line and a one-line summary`)
	}
	p := Page{Short: lines[2]}
	rest := lines[3:]
	end := len(rest)
	for i, l := range rest {
		if strings.HasPrefix(l, "## ") {
			end = i
			break
		}
	}
	var long []string
	for _, l := range rest[:end] {
		if !isFence(l) {
			long = append(long, l)
		}
	}
	p.Long = strings.Trim(strings.Join(long, "\n"), "\n")
	if end < len(rest) && rest[end] == "## Examples" {
		ex := rest[end+1:]
		for len(ex) > 0 && ex[0] == "" {
			ex = ex[1:]
		}
		if len(ex) == 0 || ex[0] != "```sh" {
			return Page{}, errors.New("## Examples: want a ```sh fenced block")
		}
		close := -1
		for i, l := range ex[1:] {
			if l == "```" {
				close = i + 1
				break
			}
		}
		if close < 0 {
			return Page{}, errors.New("## Examples: the ```sh block is not closed")
		}
		p.Example = strings.Join(ex[1:close], "\n")
	}
	return p, nil
}

// isFence reports whether l only opens or closes a code fence.
func isFence(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "```") && !strings.Contains(l[3:], "`") && !strings.Contains(l, " ")
}
