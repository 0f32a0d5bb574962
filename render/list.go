package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recallhq/recall/retrieve"
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
	date := "" // a fifth column, on dated entries only
	if !e.Meta.Date.IsZero() {
		date = store.FormatDate(e.Meta.Date)
	}
	return columns(store.DisplayKey(e.Key()), service.TokensEst(e), e.Meta.Updated, store.EntryTags(e), date)
}

// columns joins the columns of `recall ls --long` as both paths write
// them (WriteLong, WriteItems): the updated date in UTC, "-" for a
// missing date or no tags, and "date D" only when date is not empty.
func columns(key string, tokens int, updated time.Time, tags []string, date string) string {
	up := "-"
	if !updated.IsZero() {
		up = updated.UTC().Format(time.DateOnly)
	}
	tagText := service.Visible(strings.Join(tags, ","))
	if tagText == "" {
		tagText = "-"
	}
	if date != "" {
		date = "\tdate " + date
	}
	return fmt.Sprintf("%s\t%d tokens\t%s\t%s%s", key, tokens, up, tagText, date)
}

// WriteItems writes a page of a listing (service.Memory.List) as `recall
// ls` does: one category:name per line, or with long the columns of
// WriteLong, read from each item's metadata.
func WriteItems(w io.Writer, items []service.ListItem, long bool) error {
	return writeItems(w, items, long, nil, time.Time{})
}

// writeItems is WriteItems; with long and a now (not zero), each line
// also has WriteLongValidity's columns of v at now.
func writeItems(w io.Writer, items []service.ListItem, long bool, v *retrieve.Validity, now time.Time) error {
	for _, it := range items {
		key := store.DisplayKey(store.Key{Category: it.Category, Name: it.Name}) // as written: see store.EscapeName
		line := key
		if long {
			var updated time.Time
			if u, ok := it.Meta[service.MetaUpdated].(string); ok {
				updated, _ = time.Parse(time.RFC3339Nano, u)
			}
			tags, _ := it.Meta[service.MetaTags].([]string)
			date, _ := it.Meta[service.MetaDate].(string)
			// The metadata object holds the extra keys as stored (expires
			// among them): the same columns as the whole listing's.
			line = columns(key, it.TokensEst, updated, tags, date)
			if !now.IsZero() {
				line += validityColumns(it.Category, it.Name, store.Meta{Extra: it.Meta}, v, now)
			}
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
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

// WritePage writes one page of a listing (service.Listing.Page) as
// `recall ls --limit` does: its entries on w (JSON, or WriteItems); with
// long, the validity columns of v at now as WriteLongValidity writes
// them and v's problems on diag (WriteValidityProblems), as the whole
// `ls --long` does; and, when there is a next page, on diag how many were
// shown and the --cursor that fetches the next.
func WritePage(w, diag io.Writer, p service.ListPage, json, long bool, v *retrieve.Validity, now time.Time) error {
	var err error
	if json {
		err = service.WriteJSON(w, p.Entries, "  ")
	} else if err = writeItems(w, p.Entries, long, v, now); err == nil && long {
		err = WriteValidityProblems(diag, v)
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
