package retrieve_test

import (
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// A bolt file's copy is Persist, a folder's Stamped; the other options
// are kept.
func TestWithIndexCache(t *testing.T) {
	b, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	f, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	an := index.Default()
	if o := retrieve.WithIndexCache(retrieve.Options{Analyzer: an}, b); o.Persist == nil || o.Stamped != nil || o.Analyzer != an {
		t.Errorf("bolt: Persist %v, Stamped %v, Analyzer kept %v", o.Persist, o.Stamped, o.Analyzer == an)
	}
	if o := retrieve.WithIndexCache(retrieve.Options{Analyzer: an}, f); o.Stamped == nil || o.Persist != nil || o.Analyzer != an {
		t.Errorf("folder: Persist %v, Stamped %v, Analyzer kept %v", o.Persist, o.Stamped, o.Analyzer == an)
	}
}
