package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/recallhq/recall/store"
)

func TestReadContent(t *testing.T) {
	if s, err := store.ReadContent(strings.NewReader("héllo\n"), "stdin"); err != nil || s != "héllo\n" {
		t.Errorf("ReadContent = %q, %v", s, err)
	}
	if s, err := store.ReadContent(strings.NewReader(strings.Repeat("x", store.MaxContentBytes)), "stdin"); err != nil || len(s) != store.MaxContentBytes {
		t.Errorf("at the limit: %d bytes, %v", len(s), err)
	}
	_, err := store.ReadContent(strings.NewReader(strings.Repeat("x", store.MaxContentBytes+1)), "big.md")
	var fe *store.FieldError
	if !errors.As(err, &fe) || fe.Field != "content" || !strings.Contains(err.Error(), "big.md is larger than the limit") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := store.ReadContent(iotest.ErrReader(errors.New("broken pipe")), "stdin"); err == nil || err.Error() != "read stdin: broken pipe" {
		t.Errorf("a failed read: %v", err)
	}
	dir := t.TempDir() // reading a folder fails with an error that names it
	f, err := os.Open(filepath.Join(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := store.ReadContent(f, dir); err == nil || strings.HasPrefix(err.Error(), "read "+dir+": read") {
		t.Errorf("a folder: %v, want the file's own error, not wrapped twice", err)
	}
}
