package setup

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

func TestByName(t *testing.T) {
	ran := 0
	run := func(err error) func() error { return func() error { ran++; return err } }
	// A name as written that maps to an identity reaches the store.
	if err := ByName("Questions", "What is it?", run(nil)); err != nil || ran != 1 {
		t.Errorf("What is it?: %v, ran %d", err, ran)
	}
	// With no store, its own error, as before the mapping.
	missing := fmt.Errorf("x: %w", location.ErrNotExist)
	if err := ByName("trips", "[[x]]", run(missing)); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), `invalid name "[[x]]"`) {
		t.Errorf("[[x]] without a store: %v", err)
	}
	if err := ByName("trips", "x", run(missing)); !errors.Is(err, location.ErrNotExist) {
		t.Errorf("a valid name without a store: %v", err)
	}
	// Invalid both ways: not run.
	ran = 0
	if err := ByName("trips", "a/b", run(nil)); !errors.Is(err, store.ErrInvalid) || ran != 0 {
		t.Errorf("a/b: %v, ran %d", err, ran)
	}
}
