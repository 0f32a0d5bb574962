package importer

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/zipsafe"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// Import loses nothing that a folder store opened on the vault reads
// (issue 24): testdata/oddvault holds a name with each character SPEC §1
// refuses for new entries, names ending in '.' and in a space, a folder
// with ':', and front matter strict YAML refuses (a value with ": ", a
// markdown link, template placeholders, an unclosed quote, tabs, CRLF).
// On main 17 of its 20 notes were skipped. Into a folder store, each note
// lands in a file of its own name, its unparsed front matter byte for byte.
func TestImportOddVault(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the file system refuses these names")
	}
	vault := filepath.Join(t.TempDir(), "vault")
	if err := zipsafe.CopyTree(filepath.Join("testdata", "oddvault"), vault); err != nil {
		t.Fatal(err)
	}
	inPlace, err := fsstore.Open(vault, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := storedKeys(t, inPlace)
	inPlace.Close()
	if len(want) != 20 {
		t.Fatalf("in place: %d notes %q, want 20", len(want), want)
	}
	p, err := ReadVault(ctx, vault, VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Skipped) != 0 || len(p.Warnings) != 6 {
		t.Errorf("skipped %v, warnings %v; want none skipped and 6 warnings", p.Skipped, p.Warnings)
	}
	for _, w := range p.Warnings {
		if !strings.Contains(w.Where, string(filepath.Separator)+"yaml"+string(filepath.Separator)) || !strings.Contains(w.Reason, "kept verbatim") {
			t.Errorf("warning %v", w)
		}
	}
	for name, st := range stores(t) {
		rep, err := p.Write(ctx, st, WriteOptions{})
		if err != nil || rep.Added != 20 || len(rep.Rejected) != 0 {
			t.Fatalf("%s: %+v, %v", name, rep, err)
		}
		if got := storedKeys(t, st); !slices.Equal(got, want) {
			t.Errorf("%s: imported %q\nin place %q", name, got, want)
		}
		e, err := st.Get(ctx, "yaml", "crlf")
		if block := e.Meta.Extra[store.UnparsedFrontMatter]; err != nil || block != "---\r\n# a comment\r\nexcerpt: a: b\r\n---\r\n" {
			t.Errorf("%s: yaml:crlf block %q, %v", name, block, err)
		}
		if name != "fs" {
			continue
		}
		root, _ := st.(*fsstore.Store).Path("Questions", "What is it%3F")
		root = filepath.Dir(filepath.Dir(root))
		for _, rel := range []string{"Questions/What is it?.md", "Readwise/Cut title..md", "Readwise/Trailing .md", "Odd: folder/inside.md"} {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				t.Errorf("fs: %v", err)
			}
		}
		src, _ := os.ReadFile(filepath.Join(vault, "yaml", "template.md"))
		dst, _ := os.ReadFile(filepath.Join(root, "yaml", "template.md"))
		if string(src) != string(dst) {
			t.Errorf("fs: template.md imported as %q, want %q", dst, src)
		}
	}
}
