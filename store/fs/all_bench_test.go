package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAll reads a folder of 10,000 entries of 1 KB (warm page cache):
// what a cold start of a command pays before building the index.
func BenchmarkAll(b *testing.B) {
	root := b.TempDir()
	body := strings.Repeat("memory notes about the sea. ", 40)[:1000]
	for i := range 10_000 {
		p := filepath.Join(root, fmt.Sprintf("c%d", i%8), fmt.Sprintf("n%05d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := Open(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		n := 0
		for _, err := range s.All(ctx) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 10_000 {
			b.Fatal(n)
		}
	}
}
