package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// WriteResult prints a result for people: per item its rank, source,
// category:name and evidence, then the content indented; then a summary,
// the unresolved links, and with explain the items the budget dropped.
// budget is the request's (retrieve.Request.Budget; negative for none).
// This is `recall retrieve`'s output.
func WriteResult(w io.Writer, res *retrieve.Result, budget int, explain bool, sty Style) error {
	bw := bufio.NewWriter(w)
	if tr := res.TimeRange; tr != nil {
		bw.WriteString(TimeRangeLine(tr) + "\n\n")
	}
	for i, it := range res.Items {
		fmt.Fprintf(bw, "%d. %s\n", i+1, itemHeader(it, sty))
		writeIndented(bw, it.Content, "    ")
		bw.WriteString("\n")
	}

	items := Plural(len(res.Items), "item", "items")
	tokens := fmt.Sprintf("%d/%d tokens", res.BudgetUsed, budget)
	if budget < 0 {
		tokens = fmt.Sprintf("%d tokens (no budget)", res.BudgetUsed)
	}
	emb := "embedding not used"
	if res.EmbeddingUsed {
		emb = "embedding used"
	}
	fmt.Fprintf(bw, "%s, %s, %s\n", items, tokens, emb)

	if len(res.UnresolvedLinks) > 0 {
		bw.WriteString("unresolved links:\n")
		for _, l := range res.UnresolvedLinks {
			fmt.Fprintf(bw, "  %s\n", service.Visible(l))
		}
	}
	if explain {
		if len(res.Dropped) == 0 {
			bw.WriteString("dropped by the budget: none\n")
		} else {
			bw.WriteString("dropped by the budget:\n")
			for i, it := range res.Dropped {
				fmt.Fprintf(bw, "  %d. %s\n", len(res.Items)+i+1, itemHeader(it, sty))
			}
		}
	}
	return bw.Flush()
}

// itemHeader is one line of evidence: "hit trips:x  score=… bm25=…
// matched=a,b tokens=N" or "link trips:y  via=trips:x tokens=N"; a
// section of a long entry follows its key: "hit notes:x § Install > Linux".
func itemHeader(it retrieve.Item, sty Style) string {
	var b strings.Builder
	b.WriteString(string(it.Source))
	b.WriteString(" ")
	b.WriteString(sty.bold(service.Visible(store.DisplayKey(store.Key{Category: it.Category, Name: it.Name}))))
	if it.Section != "" {
		// One section of a long entry (retrieve.Item.Section).
		b.WriteString(" § ")
		b.WriteString(service.Visible(it.Section))
	}
	var ev []string
	if it.Source == retrieve.SourceHit {
		ev = append(ev, "score="+formatScore(it.Score))
		if it.BM25Score != nil {
			ev = append(ev, "bm25="+formatScore(*it.BM25Score))
		}
		if it.CosScore != nil {
			ev = append(ev, "cos="+formatScore(*it.CosScore))
		}
		if len(it.MatchedTerms) > 0 {
			ev = append(ev, "matched="+service.Visible(strings.Join(it.MatchedTerms, ",")))
		}
	}
	if it.Via != nil {
		ev = append(ev, "via="+service.Visible(store.DisplayKey(store.Key{Category: it.Via.Category, Name: it.Via.Name})))
	}
	if it.Date != "" {
		ev = append(ev, "date="+it.Date)
	}
	if it.OutsideRange {
		ev = append(ev, "outside-range")
	}
	if it.SupersededBy != "" {
		ev = append(ev, "superseded-by="+service.Visible(it.SupersededBy))
	}
	if len(it.Supersedes) > 0 {
		ev = append(ev, "supersedes="+service.Visible(strings.Join(it.Supersedes, ",")))
	}
	if it.Expired {
		ev = append(ev, "expired")
	}
	if len(it.Collapsed) > 0 {
		ev = append(ev, "collapsed="+service.Visible(strings.Join(it.Collapsed, ",")))
	}
	ev = append(ev, "tokens="+strconv.Itoa(it.TokensEst))
	b.WriteString("  ")
	b.WriteString(sty.dim(strings.Join(ev, " ")))
	return b.String()
}

func formatScore(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// writeIndented writes content line by line behind prefix. Blank lines
// stay blank (no trailing spaces); a final newline is not doubled.
func writeIndented(w *bufio.Writer, content, prefix string) {
	content = strings.TrimRight(content, "\r\n")
	if content == "" {
		w.WriteString(prefix + "(empty)\n")
		return
	}
	for line := range strings.SplitSeq(content, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line != "" {
			w.WriteString(prefix)
			w.WriteString(service.Visible(line))
		}
		w.WriteString("\n")
	}
}
