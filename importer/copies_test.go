package importer

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// TestReimportCopyUnchanged: a vault copied (cp -a: new birth times), or
// cloned (git: new modification times too), and imported again into the
// same store is unchanged: "unchanged" is decided by content and
// metadata, not by file times, and created never moves later (issue 24).
// A note whose content changed is updated, its created kept.
func TestReimportCopyUnchanged(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses cp -a")
	}
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			vault := filepath.Join(parent, "vault")
			writeFile(t, filepath.Join(vault, "a", "plain.md"), "No front matter.")
			writeFile(t, filepath.Join(vault, "a", "tagged.md"), "---\ntags: [t]\nmood: sunny\n---\nTagged, no times.")
			writeFile(t, filepath.Join(vault, "a", "timed.md"), "---\ncreated: 2020-01-02T03:04:05Z\nupdated: 2021-01-02T03:04:05Z\n---\nTimes of its own.")
			long := time.Now().Add(-48 * time.Hour)
			for _, n := range []string{"plain", "tagged", "timed"} {
				if err := os.Chtimes(filepath.Join(vault, "a", n+".md"), long, long); err != nil {
					t.Fatal(err)
				}
			}
			imp := func(dir string) Report {
				t.Helper()
				p, err := ReadVault(ctx, dir, VaultOptions{})
				if err != nil {
					t.Fatal(err)
				}
				rep, err := p.Write(ctx, st, WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			if rep := imp(vault); rep.Added != 3 {
				t.Fatalf("first import: %+v", rep)
			}
			first := map[string]store.Entry{}
			for _, n := range []string{"plain", "tagged", "timed"} {
				e, err := st.Get(ctx, "a", n)
				if err != nil {
					t.Fatal(err)
				}
				first[n] = e
			}
			rev := revision(t, st)

			time.Sleep(20 * time.Millisecond) // so that a copy's birth time is later
			copied := filepath.Join(parent, "copy")
			if out, err := exec.Command("cp", "-a", vault, copied).CombinedOutput(); err != nil {
				t.Fatalf("cp -a: %v %s", err, out)
			}
			if rep := imp(copied); rep.Unchanged != 3 || rep.Imported() != 0 {
				t.Errorf("re-import of a cp -a copy: %+v", rep)
			}
			// A clone: every file's modification time is now.
			cloned := filepath.Join(parent, "clone")
			if out, err := exec.Command("cp", "-r", vault, cloned).CombinedOutput(); err != nil {
				t.Fatalf("cp -r: %v %s", err, out)
			}
			now := time.Now()
			for _, n := range []string{"plain", "tagged", "timed"} {
				if err := os.Chtimes(filepath.Join(cloned, "a", n+".md"), now, now); err != nil {
					t.Fatal(err)
				}
			}
			if rep := imp(cloned); rep.Unchanged != 3 || rep.Imported() != 0 {
				t.Errorf("re-import of a clone: %+v", rep)
			}
			if r := revision(t, st); r != rev {
				t.Errorf("revision moved from %d to %d", rev, r)
			}
			// An edit in the clone is an update; created stays where it was.
			writeFile(t, filepath.Join(cloned, "a", "plain.md"), "No front matter, edited.")
			if rep := imp(cloned); rep.Updated != 1 || rep.Unchanged != 2 {
				t.Errorf("re-import after an edit: %+v", rep)
			}
			for n, was := range first {
				e, err := st.Get(ctx, "a", n)
				if err != nil {
					t.Fatal(err)
				}
				if !e.Meta.Created.Equal(was.Meta.Created) {
					t.Errorf("%s: created moved from %v to %v", n, was.Meta.Created, e.Meta.Created)
				}
			}
		})
	}
}

// TestCopyCreatedNotAfterUpdated: a copied vault (cp -a keeps modification
// times, not birth times) imported into a fresh store, and a note whose
// front matter gives updated but no created: created is never later than
// the note's own modification time or updated (issue 24: on main it was
// the copy's birth time, later than updated).
func TestCopyCreatedNotAfterUpdated(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			vault := filepath.Join(t.TempDir(), "vault")
			writeFile(t, filepath.Join(vault, "a", "plain.md"), "No front matter.")
			writeFile(t, filepath.Join(vault, "a", "updated.md"), "---\nupdated: 2021-01-02T03:04:05Z\n---\nAn updated time of its own.")
			long := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
			for _, n := range []string{"plain", "updated"} {
				if err := os.Chtimes(filepath.Join(vault, "a", n+".md"), long, long); err != nil {
					t.Fatal(err)
				}
			}
			p, err := ReadVault(ctx, vault, VaultOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep, err := p.Write(ctx, st, WriteOptions{}); err != nil || rep.Added != 2 {
				t.Fatalf("import: %+v %v", rep, err)
			}
			for n, want := range map[string]time.Time{"plain": long, "updated": time.Date(2021, 1, 2, 3, 4, 5, 0, time.UTC)} {
				e, err := st.Get(ctx, "a", n)
				if err != nil {
					t.Fatal(err)
				}
				if !e.Meta.Created.Equal(want) || e.Meta.Created.After(e.Meta.Updated) {
					t.Errorf("%s: created %v, updated %v; want created %v", n, e.Meta.Created, e.Meta.Updated, want)
				}
			}
		})
	}
}
