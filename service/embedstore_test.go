package service_test

import (
	"context"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/service"
)

// The texts to embed are the indexed texts of the readable entries; a
// damaged one is reported, not embedded, and does not stop the rest.
func TestIndexedTexts(t *testing.T) {
	st := damagedBolt(t)
	var skipped []error
	texts, err := service.IndexedTexts(context.Background(), st, func(err error) { skipped = append(skipped, err) })
	if err != nil {
		t.Fatal(err)
	}
	if want := index.EntryText("ok", "harbour ok"); len(texts) != 1 || texts[0] != want {
		t.Fatalf("texts = %q, want [%q]", texts, want)
	}
	if len(skipped) != 1 {
		t.Fatalf("skipped %v, want the damaged entry", skipped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := service.IndexedTexts(ctx, st, nil); err == nil {
		t.Fatal("a cancelled read gave no error")
	}
}
