package fs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
)

// AllSorted yields exactly what All yields (entries, and the error items
// of files it cannot map or read), in identity order, on random trees of
// files written directly: names with bytes below '/', CJK, nested
// categories, root notes, a folder named _root, a folder named like a
// note, a folder whose name breaks the rules, broken front matter,
// symbolic links, attachments and dot files.
func TestAllSortedIsAllInOrder(t *testing.T) {
	segs := []string{"a", "a b", "a-b", "a.b", "a+", "a(1)", "ab", "A", "x.md", "_root", "三亚", "海边 2", "c,d", "it's", "z&y", "$x", "%"}
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 27))
			root := t.TempDir()
			write := func(path, body string) {
				if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			var dirs = []string{root}
			for range 40 {
				parent := dirs[rng.IntN(len(dirs))]
				if strings.Count(strings.TrimPrefix(parent, root), string(filepath.Separator)) >= 3 {
					continue
				}
				dirs = append(dirs, filepath.Join(parent, segs[rng.IntN(len(segs))]))
			}
			for range 150 {
				dir := dirs[rng.IntN(len(dirs))]
				name := segs[rng.IntN(len(segs))]
				switch rng.IntN(12) {
				case 0:
					write(filepath.Join(dir, name+".md"), "---\ntags: [unclosed\n---\nbroken")
				case 1:
					write(filepath.Join(dir, name+".png"), "attachment")
				case 2:
					write(filepath.Join(dir, "."+name+".md"), "hidden")
				case 3:
					os.MkdirAll(dir, 0o777)
					os.Symlink(root, filepath.Join(dir, "link "+name))
				case 4:
					write(filepath.Join(dir, "bad\x01name", name+".md"), "below a folder that is no category")
				default:
					write(filepath.Join(dir, name+".md"), "---\ntags: [t]\n---\nnote "+name+" in "+dir)
				}
			}
			s, err := Open(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			render := func(e store.Entry, err error) string {
				if err != nil {
					return "error " + err.Error()
				}
				return fmt.Sprintf("%s\x00%s\x00%s\x00%v", e.Category, e.Name, e.Content, e.Meta.Tags)
			}
			var all, sorted []string
			for e, err := range s.All(ctx) {
				all = append(all, render(e, err))
			}
			var prev store.Key
			entries, errs := 0, 0
			for e, err := range s.AllSorted(ctx) {
				sorted = append(sorted, render(e, err))
				if err != nil {
					errs++
					continue
				}
				if entries > 0 && (prev.Category > e.Category || prev.Category == e.Category && prev.Name >= e.Name) {
					t.Errorf("AllSorted yielded %s after %s", e.Key(), prev)
				}
				prev = e.Key()
				entries++
			}
			if entries < 20 || errs == 0 {
				t.Fatalf("tree too plain: %d entries, %d errors", entries, errs)
			}
			slices.Sort(all)
			slices.Sort(sorted)
			if !slices.Equal(all, sorted) {
				t.Fatalf("AllSorted and All differ:\nAll:\n%s\nAllSorted:\n%s", strings.Join(all, "\n"), strings.Join(sorted, "\n"))
			}
		})
	}
}
