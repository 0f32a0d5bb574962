package retrieve_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// BenchmarkRetrieveVault: the default retrieve (limit 10, budget 800,
// links on, warm index, bolt) over a folder of markdown notes, asked each
// heading of two words or more that the notes hold, in rotation. It uses
// only APIs older than issue 24 (names mapped here as the section
// harness maps them), so that the same file measures main against a
// later revision on the Obsidian help vault:
//
//	RECALL_HELP_VAULT=/tmp/ohv/en go test -run '^$' -bench RetrieveVault -benchtime 3000x ./retrieve/
func BenchmarkRetrieveVault(b *testing.B) {
	root := os.Getenv("RECALL_HELP_VAULT")
	if root == "" {
		b.Skip("set RECALL_HELP_VAULT to a folder of markdown notes")
	}
	var es []store.Entry
	var qs []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		body := string(raw)
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
		fence := false
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
				fence = !fence
			}
			if h := strings.TrimLeft(l, "#"); !fence && len(h) < len(l) && len(l)-len(h) <= 6 && strings.HasPrefix(h, " ") && len(strings.Fields(h)) >= 2 {
				qs = append(qs, strings.TrimSpace(h))
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	st := openBenchEntries(b, es)
	defer st.Close()
	ctx := context.Background()
	eng := retrieve.New(st, retrieve.Options{})
	defer eng.Close()
	if _, err := eng.Retrieve(ctx, retrieve.Request{Query: "warm"}); err != nil {
		b.Fatal(err)
	}
	timed(b, func(i int) {
		if _, err := eng.Retrieve(ctx, retrieve.Request{Query: qs[i%len(qs)]}); err != nil {
			b.Fatal(err)
		}
	})
}
