package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/cache"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// IndexedTexts returns the indexed text of every entry of st
// (index.EntryText: what retrieve looks vectors up by), in the order All
// yields them: the texts to give a vector cache's Sync, as `recall embed`
// does. An entry that cannot be read is passed to skipped (when not nil)
// and left out; a cancelled ctx ends the read with its error.
func IndexedTexts(ctx context.Context, st store.Store, skipped func(error)) ([]string, error) {
	var texts []string
	for e, err := range st.All(ctx) {
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			if skipped != nil {
				skipped(err)
			}
			continue
		}
		texts = append(texts, index.EntryText(e.Name, e.Content))
	}
	return texts, nil
}

// EmbedOptions tune EmbedAll. The zero value is the cache's defaults.
type EmbedOptions struct {
	// BatchSize and Concurrency are the cache's (cache.Options).
	BatchSize, Concurrency int
	// Progress, when set, is called as batches finish (cache.Cache.Sync).
	Progress func(done, total int)
	// Skip, when set, receives each entry that cannot be read.
	Skip func(error)
}

// EmbedReport is what EmbedAll did.
type EmbedReport struct {
	cache.SyncStats
	Model   string        // the vector cache's model identity
	Skipped int           // entries that could not be read
	Took    time.Duration // the whole run
}

// String is the summary `recall embed` prints.
func (r EmbedReport) String() string {
	return fmt.Sprintf("%s: %d entries, %d already cached, %d embedded, %d stale vectors dropped, %d skipped (%s)",
		r.Model, r.Texts, r.Cached, r.Embedded, r.Pruned, r.Skipped, r.Took.Round(time.Millisecond))
}

// EmbedAll fills st's vector cache with emb's vectors for every entry
// that has none (`recall embed`): unchanged entries are never embedded
// again, vectors of texts no entry has any more are dropped. Every batch
// done is kept, so a run cut short (ctx, an embedder error) goes on where
// it stopped when run again; the error says so.
func EmbedAll(ctx context.Context, st store.Store, emb embed.Embedder, opts EmbedOptions) (EmbedReport, error) {
	start := time.Now()
	be, ok := st.(cache.Backend)
	if !ok {
		return EmbedReport{}, errors.New("this store cannot hold vectors")
	}
	var rep EmbedReport
	texts, err := IndexedTexts(ctx, st, func(err error) {
		rep.Skipped++
		if opts.Skip != nil {
			opts.Skip(err)
		}
	})
	if err != nil {
		return rep, err
	}
	c := cache.New(emb, be, cache.Options{BatchSize: opts.BatchSize, Concurrency: opts.Concurrency})
	rep.Model = c.Model()
	rep.SyncStats, err = c.Sync(ctx, texts, opts.Progress)
	rep.Took = time.Since(start)
	switch {
	case err != nil && ctx.Err() != nil:
		return rep, fmt.Errorf("interrupted after embedding %d of %d; run it again to continue", rep.Embedded, rep.Texts-rep.Cached)
	case err != nil:
		return rep, fmt.Errorf("embed with %s: %w (%d embedded before the error are kept)", rep.Model, err, rep.Embedded)
	}
	return rep, nil
}
