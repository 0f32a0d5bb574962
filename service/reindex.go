package service

import (
	"context"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// ReindexReport is what Reindex did.
type ReindexReport struct {
	retrieve.BuildStats
	// Took is how long the build took, the store's walk included.
	Took time.Duration
	// Validity is the validity of the new index (which entries supersede
	// which, and its problems); nil when no snapshot could be taken.
	Validity *retrieve.Validity
	// Unparsed are the entries read whose front matter the store kept
	// verbatim (store.UnparsedFrontMatter) or whose values it kept unread
	// (store.UnparsedKeys), in walk order, without their
	// content: what render.WriteFrontMatterWarnings warns about, as
	// `recall ls --long` and `recall import` do.
	Unparsed []store.Entry
}

// Reindex builds st's index from every entry with the analyzer an, as
// `recall reindex` does, and saves it in the store (retrieve.WithIndexCache)
// for the next process to load. It returns once the copy is saved.
func Reindex(ctx context.Context, st store.Store, an *index.Analyzer) (ReindexReport, error) {
	start := time.Now()
	var unparsed []store.Entry
	opts := retrieve.Options{Analyzer: an, OnRead: func(e store.Entry) {
		_, whole := e.Meta.Extra[store.UnparsedFrontMatter]
		if _, kept := e.Meta.Extra[store.UnparsedKeys]; whole || kept {
			e.Content = ""
			unparsed = append(unparsed, e)
		}
	}}
	eng := retrieve.New(st, retrieve.WithIndexCache(opts, st))
	defer eng.Close() // waits for the copy the build saves
	stats, err := eng.Rebuild(ctx)
	rep := ReindexReport{BuildStats: stats, Took: time.Since(start), Unparsed: unparsed}
	if err != nil {
		return rep, err
	}
	if snap, err := eng.Snapshot(ctx); err == nil {
		rep.Validity = eng.Validity(snap)
	}
	return rep, nil
}
