package mcptools

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// renderResult is the compact text of a retrieve that a model reads next to
// the structured result:
//
//	[hit] trips:三亚之行 (bm25 2.36; matched 海边, 边玩)
//	<content>
//
//	[link via trips:三亚之行] people:妈妈
//	<content>
//
//	2 items, 120/800 tokens.
func renderResult(res *retrieve.Result, budget int, explain bool) string {
	var b strings.Builder
	if tr := res.TimeRange; tr != nil {
		b.WriteString(renderTimeRange(tr))
		b.WriteString("\n\n")
	}
	for _, it := range res.Items {
		b.WriteString(renderItemHeader(it))
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(it.Content, "\r\n"))
		b.WriteString("\n\n")
	}
	if len(res.Items) == 0 {
		b.WriteString("No memory matched the query.\n")
	} else {
		tokens := fmt.Sprintf("%d/%d tokens", res.BudgetUsed, budget)
		if budget < 0 {
			tokens = fmt.Sprintf("%d tokens", res.BudgetUsed)
		}
		fmt.Fprintf(&b, "%s, %s.\n", plural(len(res.Items), "item", "items"), tokens)
	}
	if len(res.UnresolvedLinks) > 0 {
		fmt.Fprintf(&b, "Links to missing entries: %s\n", strings.Join(res.UnresolvedLinks, ", "))
	}
	if explain && len(res.Dropped) > 0 {
		dropped := make([]string, len(res.Dropped))
		for i, it := range res.Dropped {
			dropped[i] = fmt.Sprintf("%s (%d tokens)", displayKey(it.Category, it.Name), it.TokensEst)
		}
		fmt.Fprintf(&b, "Dropped by the token budget: %s\n", strings.Join(dropped, ", "))
	}
	return b.String()
}

// displayKey is a key as the text answers show it: as written
// (store.DisplayKey, the display_name of the JSON answers: "Questions:What
// is it?" for the identity "Questions:What is it%3F"), which the tools
// accept as the name too (store.NameKey); the identity itself when the
// name as written holds a control character or ends in a space, which
// a reader could not tell apart. Content, and the links in it, is shown
// as it is.
func displayKey(category, name string) string {
	k := store.Key{Category: category, Name: name}
	d := store.MappedDisplayKey(k)
	if d == "" || strings.HasSuffix(d, " ") || strings.IndexFunc(d, unicode.IsControl) >= 0 {
		return k.String()
	}
	return d
}

func renderItemHeader(it retrieve.Item) string { return itemHeader(it) + validityNote(it) }

func itemHeader(it retrieve.Item) string {
	key := displayKey(it.Category, it.Name)
	if it.Source == retrieve.SourceLink {
		via := ""
		if it.Via != nil {
			via = " via " + displayKey(it.Via.Category, it.Via.Name)
		}
		h := "[link" + via + "] " + key
		if it.Date != "" {
			h += " (" + it.Date
			if it.OutsideRange {
				h += ", outside the time range"
			}
			h += ")"
		}
		return h
	}
	var ev []string
	if it.CosScore != nil {
		ev = append(ev, "score "+score2(it.Score))
	}
	if it.BM25Score != nil {
		ev = append(ev, "bm25 "+score2(*it.BM25Score))
	}
	if it.CosScore != nil {
		ev = append(ev, "cos "+score2(*it.CosScore))
	}
	s := strings.Join(ev, ", ")
	if len(it.MatchedTerms) > 0 {
		s += "; matched " + strings.Join(it.MatchedTerms, ", ")
	} else if it.CosScore != nil {
		s += "; no query word matched"
	}
	if it.Date != "" {
		if s != "" {
			s += "; "
		}
		s += "dated " + it.Date
	}
	if it.Section != "" {
		// One section of a long entry: the rest is a get away.
		key += " § " + it.Section
		s += "; one section: get the entry for all of it"
	}
	return "[hit] " + key + " (" + s + ")"
}

// renderTimeRange says what time range the query was understood as.
func renderTimeRange(tr *retrieve.TimeRange) string {
	var span string
	switch {
	case tr.From.IsZero() && tr.To.IsZero():
		span = "any time"
	case tr.From.IsZero():
		span = "before " + tr.To.Format(time.RFC3339)
	case tr.To.IsZero():
		span = "from " + tr.From.Format(time.RFC3339) + " on"
	default:
		span = "from " + tr.From.Format(time.RFC3339) + " up to (not including) " + tr.To.Format(time.RFC3339)
	}
	if tr.Text != "" {
		return fmt.Sprintf("Time range %q: %s.", tr.Text, span)
	}
	return "Time range: " + span + "."
}

func score2(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// renderEntry is one entry for a model: the key and metadata on one line,
// then the content.
func renderEntry(e store.Entry) string {
	var meta []string
	if len(e.Meta.Tags) > 0 {
		meta = append(meta, "tags: "+strings.Join(e.Meta.Tags, ", "))
	}
	if !e.Meta.Created.IsZero() {
		meta = append(meta, "created "+e.Meta.Created.UTC().Format(time.DateOnly))
	}
	if !e.Meta.Updated.IsZero() {
		meta = append(meta, "updated "+e.Meta.Updated.UTC().Format(time.DateOnly))
	}
	head := displayKey(e.Category, e.Name)
	if len(meta) > 0 {
		head += " (" + strings.Join(meta, "; ") + ")"
	}
	return head + "\n" + e.Content
}

func renderList(p service.ListPage) string {
	var b strings.Builder
	for _, it := range p.Entries {
		fmt.Fprintf(&b, "%s (%d tokens", displayKey(it.Category, it.Name), it.TokensEst)
		if tags, ok := it.Meta[service.MetaTags].([]string); ok && len(tags) > 0 {
			fmt.Fprintf(&b, "; tags: %s", strings.Join(tags, ", "))
		}
		b.WriteString(")\n")
	}
	switch {
	case p.Total == 0:
		b.WriteString("No entries.\n")
	case p.NextCursor != "":
		fmt.Fprintf(&b, "%d of %d entries shown; pass cursor %q for the next page.\n", len(p.Entries), p.Total, p.NextCursor)
	default:
		fmt.Fprintf(&b, "%s in all.\n", plural(p.Total, "entry", "entries"))
	}
	if p.Skipped > 0 {
		fmt.Fprintf(&b, "%s could not be read.\n", plural(p.Skipped, "entry", "entries"))
	}
	return b.String()
}

func renderCategories(cats []service.CategoryCount) string {
	if len(cats) == 0 {
		return "No categories: the memory is empty.\n"
	}
	var b strings.Builder
	for _, c := range cats {
		fmt.Fprintf(&b, "%s (%d)\n", c.Category, c.Count)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// renderChange is add's answer: the status, for an update what it
// replaced, so that a model sees what it overwrote, and on a line of its
// own the entries the content duplicates (docs/duplicates.md).
func renderChange(c service.Change) string {
	s := renderReplaced(c)
	if len(c.Duplicates) > 0 {
		s += "\nduplicates: " + strings.Join(c.Duplicates, ", ")
	}
	return s
}

// renderReplaced is renderChange without the duplicates.
func renderReplaced(c service.Change) string {
	s := c.Status + " " + keyString(c.Category, c.Name)
	r := c.Replaced
	switch {
	case r == nil:
		return s
	case r.Unreadable:
		return s + " (replaced an entry that could not be read)"
	}
	s += fmt.Sprintf(" (replaced %d bytes", r.Bytes)
	if r.FirstLine != "" {
		s += fmt.Sprintf(", first line %q", r.FirstLine)
	}
	if len(r.Tags) > 0 {
		s += ", tags " + strings.Join(r.Tags, ", ")
	}
	return s + ")"
}
