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
	tags := service.Visible(strings.Join(store.EntryTags(e), ","))
	if tags == "" {
		tags = "-"
	}
	date := "" // a fifth column, on dated entries only
	if !e.Meta.Date.IsZero() {
		date = "\tdate " + store.FormatDate(e.Meta.Date)
	}
	return fmt.Sprintf("%s\t%d tokens\t%s\t%s%s", store.DisplayKey(e.Key()), service.TokensEst(e), updated, tags, date)
}

// WriteItems writes a page of a listing (service.Memory.List) as `recall
// ls` does: one category:name per line, or with long the columns of
// WriteLong, read from each item's metadata.
func WriteItems(w io.Writer, items []service.ListItem, long bool) error {
	var err error
	for _, it := range items {
		key := store.DisplayKey(store.Key{Category: it.Category, Name: it.Name}) // as written: see store.EscapeName
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

// WriteList writes entries as `recall ls` does without --limit: as JSON,
// the array of service.ListItem (indented); with long, WriteLong's
// columns; else one category:name per line.
func WriteList(w io.Writer, entries []store.Entry, json, long bool) error {
	switch {
	case json:
		items := make([]service.ListItem, 0, len(entries))
		for _, e := range entries {
			items = append(items, service.ListItemOf(e))
		}
		return service.WriteJSON(w, items, "  ")
	case long:
		return WriteLong(w, entries)
	}
	for _, e := range entries {
		if _, err := fmt.Fprintln(w, store.DisplayKey(e.Key())); err != nil {
			return err
		}
	}
	return nil
}

// WritePage writes one page of a listing (service.Memory.List) as `recall
// ls --limit` does: its entries on w (JSON, or WriteItems), and, when
// there is a next page, on diag how many were shown and the --cursor that
// fetches the next.
func WritePage(w, diag io.Writer, p service.ListPage, json, long bool) error {
	var err error
	if json {
		err = service.WriteJSON(w, p.Entries, "  ")
	} else {
		err = WriteItems(w, p.Entries, long)
	}
	if err == nil && p.NextCursor != "" {
		fmt.Fprintf(diag, "%d of %d shown; next page: --cursor %s\n", len(p.Entries), p.Total, p.NextCursor)
	}
	return err
}

// Skips writes, on W, a line "skipped REASON" for each entry a command
// could not read (the reason on one line, service.OneLine), and counts
// them. The zero value with W set is ready to use.
type Skips struct {
	W io.Writer
	N int
}

// Add reports one entry that could not be read.
func (s *Skips) Add(err error) {
	s.N++
	fmt.Fprintf(s.W, "skipped %s\n", service.OneLine(err.Error()))
}

// Err is nil when nothing was skipped, else the error that ends the
// command cmd: "ls: 2 entries could not be read".
func (s *Skips) Err(cmd string) error { return SkippedErr(cmd, s.N) }

// SkippedErr is nil for n == 0, else "CMD: N entries could not be read".
func SkippedErr(cmd string, n int) error {
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s could not be read", cmd, Plural(n, "entry", "entries"))
}

// WriteCategories writes what `recall categories` prints: one line per
// category, "CATEGORY<tab>COUNT", in the order given (sorted, as
// service.Memory.Categories returns them).
func WriteCategories(w io.Writer, cats []service.CategoryCount) error {
	for _, c := range cats {
		if _, err := fmt.Fprintf(w, "%s\t%d\n", c.Category, c.Count); err != nil {
			return err
		}
	}
	return nil
}

// WriteContent writes an entry's content as `recall get` does: byte for
// byte, except that on a terminal a final line break is added when the
// content has none, so that the prompt does not start at the end of its
// last line.
func WriteContent(w io.Writer, content string, terminal bool) error {
	if terminal && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	_, err := io.WriteString(w, content)
	return err
}
