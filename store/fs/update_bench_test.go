package fs

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// updateBenchNotes are a note recall wrote ("own") and one written by hand.
var updateBenchNotes = []struct{ name, file string }{
	{"own", "---\ntags:\n  - travel\ncreated: 2024-03-01T09:30:00Z\nupdated: 2024-03-02T18:00:00Z\nmood: sunny\n---\nThe sea at Sanya is very blue.\n"},
	{"hand", "---\n# by hand\ntitle: \"Trip: Sanya\"   # quoted\naliases: [Sanya, 三亚]\ndate: 2024-01-05\nprice: 4.50\n" +
		"nested:\n  a: 1\n  list:\n    - x\n    - {y: 2}\ntags:\n  - travel\n  - 海边\nmood: 'sunny'\n---\nThe sea at Sanya is very blue.\n"},
}

// BenchmarkUpdateAppend: an append through Update (what `recall append`
// does) to a note that recall wrote ("own": created, updated, tags, one
// extra key) and to one written by hand ("hand": comments, quoting, a
// bare date, nested values, keys in no canonical order). Each op writes
// the file (temp file, fsync, rename, fsync of the folder), so the times
// are mostly the disk's; what a write over a note costs beyond that is
// reading and taking apart its old front matter.
//
//	go test -run '^$' -bench UpdateAppend -benchtime 300x ./store/fs/
func BenchmarkUpdateAppend(b *testing.B) {
	for _, c := range updateBenchNotes {
		b.Run(c.name, func(b *testing.B) {
			root := b.TempDir()
			s, err := Open(root, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			path := filepath.Join(root, "trips", "sanya.md")
			writeFileB(b, path, c.file)
			fn := func(old store.Entry, _ bool) (store.Entry, error) {
				e := old
				e.Meta.Updated = time.Time{}
				e.Content += "x"
				return e, nil
			}
			b.ResetTimer()
			for range b.N {
				if err := s.Update(ctx, "trips", "sanya", fn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRenderOver is the CPU part of BenchmarkUpdateAppend: the file
// a write over the note would write, rendered (renderLocked), nothing
// written.
//
//	go test -run '^$' -bench RenderOver -benchtime 20000x ./store/fs/
func BenchmarkRenderOver(b *testing.B) {
	for _, c := range updateBenchNotes {
		b.Run(c.name, func(b *testing.B) {
			root := b.TempDir()
			s, err := Open(root, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			writeFileB(b, filepath.Join(root, "trips", "sanya.md"), c.file)
			e, err := s.Get(ctx, "trips", "sanya")
			if err != nil {
				b.Fatal(err)
			}
			e.Meta.Updated = time.Time{}
			e.Content += "x"
			b.ResetTimer()
			for range b.N {
				if _, err := s.renderLocked(e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func writeFileB(b *testing.B, path, data string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
}
