package importer

import (
	"context"

	"github.com/recallhq/recall/store"
)

// Import writes the plan as `recall import` does. with opens the store,
// runs its function over it and closes it (location.WithChosen, say); it
// is called only when the plan has items, so reading an input that holds
// nothing to import creates no store. report, when set, gets the counts
// once they are known: after the write, failed or not, and at once for a
// plan with no items; not when the store could not be opened, which
// leaves no counts to report. Import returns the error of with (the
// write's, or the store's), else the verdict of Outcome.
func (p *Plan) Import(ctx context.Context, with func(func(store.Store) error) error, opts WriteOptions, report func(*Plan, Report)) error {
	var rep Report
	if len(p.Items) > 0 {
		opened := false
		err := with(func(st store.Store) error {
			opened = true
			var werr error
			rep, werr = p.Write(ctx, st, opts)
			return werr
		})
		if err != nil && !opened {
			return err // the store cannot be opened (locked, say): no counts to report
		}
		if err != nil {
			if report != nil {
				report(p, rep)
			}
			return err
		}
	}
	if report != nil {
		report(p, rep)
	}
	return p.Outcome(rep)
}
