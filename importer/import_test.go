package importer

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// Import opens the store only for a plan with items, reports the counts
// after a write (failed or not) but not when the store could not be
// opened, and returns Outcome's verdict.
func TestImport(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	opens := 0
	with := func(fn func(store.Store) error) error {
		opens++
		st, err := bolt.Open(path, nil)
		if err != nil {
			return err
		}
		defer st.Close()
		return fn(st)
	}
	var reports []Report
	report := func(_ *Plan, rep Report) { reports = append(reports, rep) }

	plan, err := ReadInput(ctx, strings.NewReader(`{"category":"notes","name":"a","content":"sea"}`+"\n"), "in.jsonl", true, PathOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Import(ctx, with, WriteOptions{}, report); err != nil {
		t.Fatal(err)
	}
	if opens != 1 || len(reports) != 1 || reports[0].Added != 1 {
		t.Errorf("import: %d opens, reports %+v", opens, reports)
	}

	empty, err := ReadInput(ctx, strings.NewReader(""), "in.jsonl", true, PathOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.Import(ctx, with, WriteOptions{}, report); err != nil || opens != 1 || len(reports) != 2 {
		t.Errorf("empty input: %v, %d opens, %d reports; want no open and a report", err, opens, len(reports))
	}

	locked := errors.New("store is locked")
	if err := plan.Import(ctx, func(func(store.Store) error) error { return locked }, WriteOptions{}, report); !errors.Is(err, locked) || len(reports) != 2 {
		t.Errorf("store not opened: %v, %d reports; want the error and no report", err, len(reports))
	}
	closeFailed := errors.New("close store: disk full")
	err = plan.Import(ctx, func(fn func(store.Store) error) error {
		if err := with(fn); err != nil {
			return err
		}
		return closeFailed
	}, WriteOptions{}, report)
	if !errors.Is(err, closeFailed) || len(reports) != 3 || reports[2].Unchanged != 1 {
		t.Errorf("failed after the write: %v, reports %+v; want the error after a report", err, reports)
	}
}
