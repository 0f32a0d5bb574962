package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// WriteLong writes entries as `recall ls --long` does, one per line in
// the order given, with tab-separated columns: category:name, the
// estimated tokens (as retrieve counts them), the updated date (UTC) and
// the tags, "-" for a missing date or no tags.
func WriteLong(w io.Writer, entries []store.Entry) error {
	for _, e := range entries {
		if _, err := fmt.Fprintf(w, "%s\n", longLine(e)); err != nil {
			return err
		}
	}
	return nil
}

// longLine is one line of WriteLong, without its line break.
func longLine(e store.Entry) string {
	updated := "-"
	if !e.Meta.Updated.IsZero() {
		updated = e.Meta.Updated.UTC().Format(time.DateOnly)
	}
	tags := service.Visible(strings.Join(e.Meta.Tags, ","))
	if tags == "" {
		tags = "-"
	}
	date := "" // a fifth column, on dated entries only
	if !e.Meta.Date.IsZero() {
		date = "\tdate " + store.FormatDate(e.Meta.Date)
	}
	return fmt.Sprintf("%s\t%d tokens\t%s\t%s%s", e.Key(), service.TokensEst(e), updated, tags, date)
}

// WriteItems writes a page of a listing (service.Memory.List) as `recall
// ls` does: one category:name per line, or with long the columns of
// WriteLong, read from each item's metadata.
func WriteItems(w io.Writer, items []service.ListItem, long bool) error {
	var err error
	for _, it := range items {
		key := store.Key{Category: it.Category, Name: it.Name}.String()
		if !long {
			_, err = fmt.Fprintln(w, key)
		} else {
			updated, tags := "-", "-"
			if u, ok := it.Meta[service.MetaUpdated].(string); ok && len(u) >= 10 {
				updated = u[:10]
			}
			if t, ok := it.Meta[service.MetaTags].([]string); ok && len(t) > 0 {
				tags = service.Visible(strings.Join(t, ","))
			}
			date := ""
			if d, ok := it.Meta[service.MetaDate].(string); ok {
				date = "\tdate " + d
			}
			_, err = fmt.Fprintf(w, "%s\t%d tokens\t%s\t%s%s\n", key, it.TokensEst, updated, tags, date)
		}
		if err != nil {
			break
		}
	}
	return err
}
