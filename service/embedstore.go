package service

import (
	"context"

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
