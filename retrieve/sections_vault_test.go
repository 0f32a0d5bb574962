package retrieve

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
	es, err := loadVault(root)
	if err != nil {
		t.Fatal(err)
	}
	// The section scorer's term counts are the analyzer's, on real text.
	an := index.Default()
	for _, e := range es {
		toks := an.Tokens(e.Content)
		terms := slices.Compact(slices.Sorted(slices.Values(toks)))
		for i := 0; i < len(terms); i += 3 {
			sub := terms[i : i+1]
			tf := []int{0}
			want := 0
			for _, tok := range toks {
				if tok == sub[0] {
					want++
				}
			}
			if n := an.NewTermCounter(sub).Count(e.Content, tf); n != len(toks) || tf[0] != want {
				t.Fatalf("%s: term %q counted %d, want %d (|D| %d of %d)", e.Name, sub[0], tf[0], want, n, len(toks))
			}
		}
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

// loadVault reads the markdown notes under root as entries of one
// category, front matter cut off, names with characters SPEC §1 forbids
// mapped to '-', a name already taken or an empty note skipped.
func loadVault(root string) ([]store.Entry, error) {
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
	return es, err
}

// BenchmarkSectionsHelpVault: the heading questions of the vault, each
// asked with and without WholeEntries in alternation (whole-p50-ns
// against sections-p50-ns):
//
//	RECALL_HELP_VAULT=/tmp/ohv/en go test -run XXX -bench SectionsHelpVault -benchtime 4000x ./retrieve/
func BenchmarkSectionsHelpVault(b *testing.B) {
	root := os.Getenv("RECALL_HELP_VAULT")
	if root == "" {
		b.Skip("set RECALL_HELP_VAULT to a folder of markdown notes")
	}
	es, err := loadVault(root)
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for _, e := range es {
		for _, s := range section.Split(e.Content) {
			if len(s.Path) > 0 && len(strings.Fields(s.Path[len(s.Path)-1])) >= 2 {
				qs = append(qs, s.Path[len(s.Path)-1])
			}
		}
	}
	eng := New(newMemStore(es...), Options{})
	defer eng.Close()
	ctx := context.Background()
	if _, err := eng.Retrieve(ctx, Request{Query: "warm"}); err != nil {
		b.Fatal(err)
	}
	var whole, secs []time.Duration
	i := 0
	for b.Loop() {
		q := qs[i%len(qs)]
		for _, w := range []bool{i%2 == 0, i%2 != 0} {
			t0 := time.Now()
			if _, err := eng.Retrieve(ctx, Request{Query: q, NoTime: true, WholeEntries: w}); err != nil {
				b.Fatal(err)
			}
			if d := time.Since(t0); w {
				whole = append(whole, d)
			} else {
				secs = append(secs, d)
			}
		}
		i++
	}
	slices.Sort(whole)
	slices.Sort(secs)
	w, s := float64(whole[len(whole)/2].Nanoseconds()), float64(secs[len(secs)/2].Nanoseconds())
	b.ReportMetric(w, "whole-p50-ns")
	b.ReportMetric(s, "sections-p50-ns")
	b.ReportMetric(s/w, "sections/whole")
}
