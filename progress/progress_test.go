package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Progress is for people: a buffer, a file or a pipe gets no bar and no
// bytes, so logs and captured output stay clean.
func TestNothingOffTerminal(t *testing.T) {
	var b bytes.Buffer
	if bar := New(&b, 10, "importing"); bar != nil {
		t.Fatal("New gave a bar for a buffer")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&b) {
		t.Fatal("IsTerminal is true for a file or a buffer")
	}
	p := &Phases{W: f}
	for _, desc := range []string{"load", "load", "build"} {
		for i := 0; i <= 3; i++ {
			p.Update(desc, i, 3)
		}
	}
	p.Finish()
	p.Finish() // twice is harmless
	if fi, err := f.Stat(); err != nil || fi.Size() != 0 {
		t.Fatalf("Phases wrote %v bytes to a file (%v)", fi.Size(), err)
	}
}
