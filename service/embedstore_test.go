package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/store"

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

// EmbedAll embeds each readable entry once: a second run finds every
// vector cached; a damaged entry is counted as skipped; a store without a
// vector cache is refused.
func TestEmbedAll(t *testing.T) {
	ctx := context.Background()
	st := damagedBolt(t)
	emb, _ := hash.New(hash.Config{})
	var skipped int
	rep, err := service.EmbedAll(ctx, st, emb, service.EmbedOptions{Skip: func(error) { skipped++ }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Texts != 1 || rep.Embedded != 1 || rep.Skipped != 1 || skipped != 1 || rep.Model != emb.Model() {
		t.Fatalf("first run: %+v, %d skipped", rep, skipped)
	}
	rep, err = service.EmbedAll(ctx, st, emb, service.EmbedOptions{})
	if err != nil || rep.Embedded != 0 || rep.Cached != 1 {
		t.Fatalf("second run: %+v, %v", rep, err)
	}
	rep.Took = 1234 * time.Microsecond
	if got, want := rep.String(), emb.Model()+": 1 entries, 1 already cached, 0 embedded, 0 stale vectors dropped, 1 skipped (1ms)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if _, err := service.EmbedAll(ctx, struct{ store.Store }{st}, emb, service.EmbedOptions{}); err == nil || err.Error() != "this store cannot hold vectors" {
		t.Errorf("a store without a vector cache: %v", err)
	}
}
