package retrieve

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/section"
	"github.com/recallhq/recall/store"
)

// TestSectionsHelpVault measures sections against whole entries on a
// vault of markdown notes (the official Obsidian help vault's en folder):
// for every section of a long note, two questions — its heading text, and
// the first sentence of its text without the heading — judged by whether
// the returned items (within the default budget) hold the section's text,
// whether the first item does, and the tokens injected. See
// docs/benchmarks.md, "Sections of long notes":
//
//	RECALL_HELP_VAULT=/tmp/ohv/en go test ./retrieve -run TestSectionsHelpVault -v
func TestSectionsHelpVault(t *testing.T) {
	root := os.Getenv("RECALL_HELP_VAULT")
	if root == "" {
		t.Skip("set RECALL_HELP_VAULT to a folder of markdown notes")
	}
	var es []store.Entry
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		body := string(b)
		if strings.HasPrefix(body, "---\n") {
			if end := strings.Index(body[4:], "\n---"); end >= 0 {
				body = strings.TrimLeft(body[4+end+4:], "\r\n")
			}
		}
		name := strings.Map(func(r rune) rune {
			if strings.ContainsRune(`\/:*?"<>|#^[]`, r) {
				return '-'
			}
			return r
		}, strings.TrimSuffix(filepath.Base(p), ".md"))
		name = strings.Trim(name, ". ")
		if seen[name] || store.ValidateName("name", name) != nil || strings.TrimSpace(body) == "" {
			return nil
		}
		seen[name] = true
		es = append(es, store.Entry{Category: "help", Name: name, Content: body})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	eng := New(newMemStore(es...), Options{})
	ctx := context.Background()
	type question struct {
		q, note, want string // want: the section's text
		path          string
	}
	var heads, bodies []question
	long := 0
	for _, e := range es {
		if index.EstTokens(e.Name+"\n"+e.Content) <= 200 {
			continue
		}
		secs := section.Split(e.Content)
		if len(secs) < 2 {
			continue
		}
		long++
		for _, s := range secs {
			text := strings.TrimRight(s.Text, " \t\r\n")
			if len(s.Path) == 0 || index.EstTokens(text) < 20 {
				continue
			}
			h := s.Path[len(s.Path)-1]
			if len(strings.Fields(h)) >= 2 {
				heads = append(heads, question{q: h, note: e.Name, want: text, path: s.Name()})
			}
			// The first sentence of the text after the heading line.
			rest := text[strings.IndexByte(text+"\n", '\n'):]
			rest = strings.TrimSpace(rest)
			if i := strings.IndexAny(rest, ".\n"); i > 0 {
				rest = rest[:i]
			}
			if len(strings.Fields(rest)) >= 5 {
				bodies = append(bodies, question{q: rest, note: e.Name, want: text, path: s.Name()})
			}
		}
	}
	t.Logf("%d notes, %d long sectioned notes (over 200 tokens), %d heading questions, %d body questions", len(es), long, len(heads), len(bodies))
	run := func(set string, qs []question, whole bool, min int) {
		sectionMin = min
		defer func() { sectionMin = SectionMinTokens }()
		var in, first, noteFirst, tokens, items, overs, exact int
		for _, q := range qs {
			res, err := eng.Retrieve(ctx, Request{Query: q.q, NoTime: true, WholeEntries: whole})
			if err != nil {
				t.Fatal(err)
			}
			tokens += res.BudgetUsed
			items += len(res.Items)
			if res.BudgetUsed > DefaultBudget {
				overs++
			}
			for i, it := range res.Items {
				if it.Source == SourceHit && it.Name == q.note && strings.Contains(it.Content, q.want) {
					in++
					if i == 0 {
						first++
					}
					if it.Section == q.path {
						exact++
					}
					break
				}
			}
			if len(res.Items) > 0 && res.Items[0].Name == q.note {
				noteFirst++
			}
		}
		n := float64(len(qs))
		mode := "whole entries"
		if !whole {
			mode = fmt.Sprintf("sections over %d", min)
		}
		t.Logf("%-8s %-18s answer in budget %.3f, first item %.3f, right note first %.3f, exact section %.3f, tokens %.0f, items %.1f, over budget %.3f",
			set, mode, float64(in)/n, float64(first)/n, float64(noteFirst)/n, float64(exact)/n, float64(tokens)/n, float64(items)/n, float64(overs)/n)
	}
	for _, set := range []struct {
		name string
		qs   []question
	}{{"heading", heads}, {"body", bodies}} {
		run(set.name, set.qs, true, SectionMinTokens)
		for _, min := range []int{200, 400, 800} {
			run(set.name, set.qs, false, min)
		}
	}
}
