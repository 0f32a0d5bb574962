package setup_test

import (
	"errors"
	"testing"

	"github.com/recallhq/recall/setup"
)

func TestEmbedEmbedder(t *testing.T) {
	emb, opts, err := setup.Embed{Batch: 8, Concurrency: 3}.Embedder(setup.Config{Embedder: "hash", Getenv: env()})
	if err != nil || emb == nil || opts.BatchSize != 8 || opts.Concurrency != 3 {
		t.Fatalf("hash: %v %+v %v", emb, opts, err)
	}
	for _, tt := range []struct {
		e       setup.Embed
		c       setup.Config
		setting string
	}{
		{setup.Embed{Batch: 0, Concurrency: 1}, setup.Config{Embedder: "hash"}, "--batch"},
		{setup.Embed{Batch: 1, Concurrency: 0}, setup.Config{Embedder: "hash"}, "--batch"},
		{setup.Embed{Batch: 1, Concurrency: 1}, setup.Config{}, "--embedder"},
		{setup.Embed{Batch: 1, Concurrency: 1}, setup.Config{Embedder: "nope"}, "--embedder"},
	} {
		tt.c.Getenv = env()
		_, _, err := tt.e.Embedder(tt.c)
		var se *setup.Error
		if !errors.As(err, &se) || se.Setting != tt.setting {
			t.Errorf("%+v %+v: %v, want a %s error", tt.e, tt.c, err, tt.setting)
		}
	}
}
