package backup

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// Every backup format from every local backend opens (or imports) into
// the same entries; an existing destination is refused and left as it was.
func TestBackupFormats(t *testing.T) {
	want := sample()
	slices.SortFunc(want, func(a, b store.Entry) int { return compareKeys(a.Key(), b.Key()) })
	for name, st := range map[string]interface {
		store.Store
		store.Batcher
	}{"bolt": boltStore(t), "folder": folderStore(t)} {
		if err := st.PutBatch(ctx, sample()); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for dest, format := range map[string]Format{"b.db": FormatSnapshot, "b.jsonl": FormatJSONL, "b": FormatFolder} {
			if name == "folder" && format == FormatSnapshot {
				format = FormatBolt
			}
			path := filepath.Join(dir, dest)
			rep, err := Backup(ctx, st, path, Options{})
			if err != nil || rep.Format != format {
				t.Fatalf("%s → %s: %v %v", name, dest, rep.Format, err)
			}
			var got []store.Entry
			switch format {
			case FormatSnapshot, FormatBolt:
				b, err := boltstore.Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				got = entriesOf(t, b)
				b.Close()
			case FormatFolder:
				if _, err := os.Stat(filepath.Join(path, ".recall")); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s: the export folder holds .recall (%v)", name, err)
				}
				f, err := fsstore.Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				got = entriesOf(t, f)
				f.Close()
			case FormatJSONL:
				data, _ := os.ReadFile(path)
				b := boltStore(t)
				importJSONL(t, data, b)
				got = entriesOf(t, b)
			}
			sameEntries(t, name+" → "+dest, got, want)
			before, _ := os.ReadFile(path)
			if _, err := Backup(ctx, st, path, Options{}); !errors.Is(err, ErrExists) {
				t.Errorf("%s → %s again: %v, want ErrExists", name, dest, err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Errorf("%s → %s: the existing backup changed", name, dest)
			}
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "*.partial-*"))
		if len(matches) > 0 {
			t.Errorf("%s: temporaries left: %v", name, matches)
		}
	}
}

// Restore writes into an empty store only, unless Force, which leaves
// exactly the backup's entries.
func TestRestore(t *testing.T) {
	src := boltStore(t)
	if err := src.PutBatch(ctx, sample()); err != nil {
		t.Fatal(err)
	}
	dst := folderStore(t)
	rep, err := Restore(ctx, src.All(ctx), dst, RestoreOptions{})
	if err != nil || rep.Restored != len(sample()) || rep.Deleted != 0 {
		t.Fatalf("%+v %v", rep, err)
	}
	sameEntries(t, "restored", entriesOf(t, dst), entriesOf(t, src))
	extra := store.Entry{Category: "extra", Name: "x", Content: "not in the backup"}
	if err := dst.Put(ctx, extra); err != nil {
		t.Fatal(err)
	}
	changed := sample()[0]
	changed.Content = "edited after the backup"
	if err := dst.Put(ctx, changed); err != nil {
		t.Fatal(err)
	}
	rev, _ := dst.Revision(ctx)
	if _, err := Restore(ctx, src.All(ctx), dst, RestoreOptions{}); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("into a non-empty store: %v", err)
	}
	if r, _ := dst.Revision(ctx); r != rev {
		t.Error("a refused restore wrote")
	}
	rep, err = Restore(ctx, src.All(ctx), dst, RestoreOptions{Force: true})
	if err != nil || rep.Deleted != 1 {
		t.Fatalf("force: %+v %v", rep, err)
	}
	sameEntries(t, "forced", entriesOf(t, dst), entriesOf(t, src))
	// Restoring a JSONL backup's plan goes through the same path.
	var buf bytes.Buffer
	if _, err := WriteJSONL(ctx, src, &buf, Options{}); err != nil {
		t.Fatal(err)
	}
	plan, err := importer.ReadJSONL(ctx, &buf, "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	empty := boltStore(t)
	if _, err := Restore(ctx, func(yield func(store.Entry, error) bool) {
		for _, it := range plan.Items {
			if !yield(it.Entry, nil) {
				return
			}
		}
	}, empty, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	sameEntries(t, "from JSONL", entriesOf(t, empty), entriesOf(t, src))
}
