package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/cachetest"
	"github.com/recallhq/recall/internal/zipsafe"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// testVault is a small Obsidian vault that exercises every case of issue
// 11: names with each punctuation SPEC §1 allows, emoji and Chinese, three
// levels of folders, notes at the root, every link form (aliases, headings,
// blocks, embeds, paths, exact and bare names, an ambiguous name, a missing
// one, links into the note itself, links in code), attachments (a real PNG
// and a PDF), .obsidian/, .trash/ and a hidden file. The repository keeps
// it in testdata/vault with the names a module zip cannot hold escaped
// (package zipsafe); TestMain makes the real tree.
var testVault string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "testvault-")
	if err == nil {
		testVault = filepath.Join(dir, "vault")
		err = zipsafe.CopyTree(filepath.Join("testdata", "vault"), testVault)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "test vault:", err)
		os.Exit(1)
	}
	code := cachetest.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// testVaultNotes are its notes, as category:name, sorted (see init).
var testVaultNotes = []string{
	"ideas:50% done; maybe!",
	"ideas:🌊 Beach",
	RootCategory + ":Home",
	RootCategory + ":Inbox",
	"people:Alice",
	"people:Bob",
	"people:Tom's notes",
	"projects/harbor:Hello, world",
	"trips/2024/spring:Kyoto Trip",
	"trips/2024/spring:三亚之行",
	"trips/2024:Summary ~draft",
	"work:Bob",
	"work:Budget (2025)",
	"work:C++",
	"work:Q&A",
}

// Whatever the store accepts, nothing is lost: every note is an item or a
// skip with a reason, and the rest is ignored and counted.
func TestTestVaultNothingLost(t *testing.T) {
	p, err := ReadVault(ctx, testVault, VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Items) + len(p.Skipped); n != len(testVaultNotes) {
		t.Errorf("%d items + %d skipped, want %d notes", len(p.Items), len(p.Skipped), len(testVaultNotes))
	}
	if w := (Ignored{Obsidian: 3, Trash: 1, Hidden: 1, Attachments: 2}); p.Ignored != w {
		t.Errorf("ignored %+v, want %+v", p.Ignored, w)
	}
}

func TestTestVaultPlan(t *testing.T) {
	p, err := ReadVault(ctx, testVault, VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Skipped {
		t.Errorf("skipped %s", s)
	}
	got := keysOf(p.Items)
	slices.Sort(got)
	if !slices.Equal(got, testVaultNotes) {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(testVaultNotes, "\n"))
	}
	for _, it := range p.Items {
		m := it.Entry.Meta
		switch it.Entry.Key().String() {
		case RootCategory + ":Home":
			if !slices.Equal(m.Tags, []string{"index", "home"}) || !m.Created.Equal(time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("Home meta %+v", m)
			}
			if a, _ := m.Extra["aliases"].([]any); !slices.Equal(a, []any{"Start", "Dashboard"}) {
				t.Errorf("Home aliases %v", m.Extra["aliases"])
			}
			if strings.HasPrefix(it.Entry.Content, "---") {
				t.Error("front matter in content")
			}
		case "work:Budget (2025)":
			if !slices.Equal(m.Tags, []string{"money", "work"}) || !m.Updated.Equal(time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC)) {
				t.Errorf("Budget meta %+v", m)
			}
		}
		if m.Created.IsZero() || m.Updated.IsZero() {
			t.Errorf("%s: created %v, updated %v: file times fill what front matter lacks", it.Entry.Key(), m.Created, m.Updated)
		}
	}
}

// The vault imported into each backend: every note present, every link
// Obsidian resolves resolved, nothing else; a second import writes nothing.
func TestTestVaultImport(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			p, err := ReadVault(ctx, testVault, VaultOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := p.Write(ctx, st, WriteOptions{})
			if err != nil || rep.Added != len(testVaultNotes) || len(rep.Rejected) != 0 {
				t.Fatalf("write: %+v, %v", rep, err)
			}
			if got := storedKeys(t, st); !slices.Equal(got, testVaultNotes) {
				t.Errorf("stored:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(testVaultNotes, "\n"))
			}
			checkVaultLinks(t, st)

			rev := revision(t, st)
			p, err = ReadVault(ctx, testVault, VaultOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err = p.Write(ctx, st, WriteOptions{})
			if err != nil || rep.Unchanged != len(testVaultNotes) || rep.Imported() != 0 {
				t.Errorf("second import: %+v, %v", rep, err)
			}
			if r := revision(t, st); r != rev {
				t.Errorf("revision moved from %d to %d", rev, r)
			}
		})
	}
}

// The vault opened directly as a folder store sees the same notes (root
// notes in RootCategory) and resolves the same links.
func TestTestVaultAsFolderStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(testVault)); err != nil {
		t.Fatal(err)
	}
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got := storedKeys(t, st); !slices.Equal(got, testVaultNotes) {
		t.Errorf("folder store sees:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(testVaultNotes, "\n"))
	}
	checkVaultLinks(t, st)
}

// checkVaultLinks retrieves each linking note alone (a word only it holds)
// and checks what its links inject and leave unresolved.
func checkVaultLinks(t *testing.T, st store.Store) {
	t.Helper()
	root := RootCategory
	cases := []struct {
		query, hit string
		links      []string
		unresolved []string
	}{
		{"lighthousekeeper", root + ":Home", []string{
			"people:Alice", "trips/2024/spring:Kyoto Trip", "trips/2024/spring:三亚之行", "work:Budget (2025)",
			"work:Q&A", "work:Bob", root + ":Inbox", "people:Tom's notes", "work:C++", "projects/harbor:Hello, world",
			"ideas:50% done; maybe!", "trips/2024:Summary ~draft", "ideas:🌊 Beach",
			// Home's [[Bob]] (people/Bob.md, work/Bob.md) is work:Bob, the
			// shorter path, as in Obsidian; it was unresolved before issue 24.
		}, []string{"[[Missing note]]"}},
		{"seagull", root + ":Inbox", []string{root + ":Home"}, nil},
		{"bees", "people:Alice", []string{"people:Bob"}, nil}, // its own folder's Bob
		{"marmalade", "people:Tom's notes", []string{"people:Alice"}, nil},
		{"sessions", "work:Bob", []string{"work:Q&A"}, nil},
		{"zeppelin", "work:Q&A", []string{"work:Bob"}, nil},
		{"walrus", "work:C++", nil, nil}, // an embedded image by path
		{"accordion", "work:Budget (2025)", nil, nil},
		{"program", "projects/harbor:Hello, world", []string{root + ":Home"}, nil},
		{"tofu", "trips/2024/spring:Kyoto Trip", []string{"trips/2024/spring:三亚之行"}, nil},
		{"民宿", "trips/2024/spring:三亚之行", []string{"trips/2024/spring:Kyoto Trip"}, nil},
		{"draft", "trips/2024:Summary ~draft", []string{"trips/2024/spring:Kyoto Trip", "trips/2024/spring:三亚之行"}, nil},
		{"kazoo", "ideas:50% done; maybe!", []string{"ideas:🌊 Beach"}, nil},
		{"cabin", "ideas:🌊 Beach", []string{"ideas:50% done; maybe!"}, nil},
	}
	eng := retrieve.New(st, retrieve.Options{})
	for _, c := range cases {
		res, err := eng.Retrieve(ctx, retrieve.Request{Query: c.query, Limit: 1, Budget: retrieve.Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		var hit string
		var links []string
		for _, it := range res.Items {
			k := it.Category + ":" + it.Name
			if it.Source == retrieve.SourceHit {
				hit = k
			} else {
				links = append(links, k)
			}
		}
		if hit != c.hit || !slices.Equal(links, c.links) || !slices.Equal(res.UnresolvedLinks, c.unresolved) {
			t.Errorf("%q: hit %s, links %q, unresolved %q\nwant hit %s, links %q, unresolved %q",
				c.query, hit, links, res.UnresolvedLinks, c.hit, c.links, c.unresolved)
		}
	}
}

func init() { slices.Sort(testVaultNotes) }
