package retrieve

import "github.com/recallhq/recall/store"

// WithIndexCache returns opts with Persist or Stamped set to the copy of
// the index st keeps, if it keeps one: a store.IndexCache (a bolt file
// keeps it in itself) as Persist, else a store.StampedIndexCache (a
// folder, in its cache folder, checked file by file) as Stamped. A store that
// keeps neither leaves opts as they are. With it, the next process over
// st loads the index instead of analysing every entry (see the package
// doc, "Persisted index").
func WithIndexCache(opts Options, st store.Store) Options {
	if c, ok := st.(store.IndexCache); ok {
		opts.Persist = c
	} else if c, ok := st.(store.StampedIndexCache); ok {
		opts.Stamped = c
	}
	return opts
}
