package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// retrieveOptions are the flags of `recall retrieve`. Options that shape
// the Engine (segmentation now, an embedder later) are turned into
// retrieve.Options by engineOptions; per-query ones into a Request.
type retrieveOptions struct {
	app *app

	limit    int
	budget   int
	noBudget bool
	noLinks  bool
	explain  bool
	analysis analyzerFlags
	json     bool
	embedder embedderFlags

	categories []string
	tags       []string
	minScore   float64

	time timeFlags
}

func newRetrieveCmd(a *app) *cobra.Command {
	o := &retrieveOptions{app: a}
	cmd := &cobra.Command{
		Use:   "retrieve QUERY",
		Short: "Find the entries relevant to a query, with the evidence",
		Long: `Retrieve scores every entry against QUERY with BM25, keeps the best --limit
as hits, adds the entries each hit links to ([[category:name]], one hop) right
after it, and keeps the longest prefix of that list within the token budget.
Several arguments are joined into one query with spaces.

Time: a time phrase in the query ("last week", "in May 2024", "since March",
"上周", "2024年5月", "三天前"; the grammar is in docs/time.md) is taken out of
the words and restricts the hits to the entries dated in that range: an
entry's date is its event date (add --date, front matter date:) or else its
created time. --after DATE (inclusive) and --before DATE (exclusive), DATE
being 2024-05-03 or an RFC 3339 time, give the range explicitly and then the
whole query is words; --no-time keeps a phrase as words. The range filters
before ranking: the hits are the best --limit entries inside it. A query that
is only a time phrase, or no query with --after/--before, lists the entries in
the range newest first (a timeline). Relative phrases are read from --now
(default: the current time) in the zone --tz names (default: $TZ, else the
local zone). The output says what range was understood (time_range in --json).

The human output shows, per item, why it is there: a hit's score, BM25 score and
the query terms it matched; a link's "via", the hit that links to it; and the
estimated tokens. --json prints exactly one JSON object with the fields of the
library's retrieve.Result (items, budget_used, embedding_used,
unresolved_links, and dropped with --explain).

--segmenter defaults to off here: dictionary segmentation (gse) needs about two
seconds and over 100 MB of memory to load its dictionary, more than most
one-shot queries are worth; bigrams need nothing. Use auto or on for better
Chinese word boundaries when that cost is acceptable.`,
		Example: `  recall retrieve 想去海边玩
  recall retrieve "peanut allergy" --limit 3 --no-budget
  recall retrieve 周末 --budget 200 --explain
  recall retrieve 海边 --json | jq '.items[].name'
  recall retrieve "what did I eat last week"
  recall retrieve 上周 --now 2025-06-04T09:00:00+08:00
  recall retrieve --after 2024-05-01 --before 2024-06-01`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && o.time.after == "" && o.time.before == "" {
				return usagef(cmd, "retrieve takes a QUERY (or --after/--before for a timeline)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(cmd); err != nil {
				return err
			}
			return o.run(cmd, strings.Join(args, " "))
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.limit, "limit", "n", retrieve.DefaultLimit, "at most `N` hits (links come on top)")
	f.IntVar(&o.budget, "budget", retrieve.DefaultBudget, "token budget `N` for all items")
	f.BoolVar(&o.noBudget, "no-budget", false, "no token budget")
	f.BoolVar(&o.noLinks, "no-links", false, "do not add the entries hits link to")
	f.BoolVar(&o.explain, "explain", false, "also show the items the budget dropped")
	o.analysis.register(cmd, "CJK segmentation `MODE`: auto, on or off (see above)")
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	f.StringArrayVar(&o.categories, "category", nil, "only hits from `CATEGORY` (repeat for any of several; links may leave it)")
	f.StringArrayVar(&o.tags, "tag", nil, "only hits tagged `TAG` (repeat for any of several)")
	f.Float64Var(&o.minScore, "min-score", service.DefaultMinScore, "with an embedder, drop hits that match no query word and whose cosine similarity is below `S` (-1..1; -1 keeps all)")
	o.time.register(cmd, true)
	o.embedder.register(cmd, true)
	return cmd
}

func (o *retrieveOptions) validate(cmd *cobra.Command) error {
	if o.limit < 1 || o.limit > service.MaxLimit {
		return usagef(cmd, "--limit must be between 1 and %d, got %d", service.MaxLimit, o.limit)
	}
	if o.noBudget && cmd.Flags().Changed("budget") {
		return usagef(cmd, "--budget and --no-budget exclude each other")
	}
	if o.budget < 1 {
		return usagef(cmd, "--budget must be at least 1, got %d (use --no-budget for none)", o.budget)
	}
	if err := o.analysis.validate(cmd, o.app); err != nil {
		return err
	}
	if err := o.time.validate(cmd); err != nil {
		return err
	}
	return o.embedder.validate()
}

// params turns the flags into the service's retrieve parameters, the
// ones the HTTP API and the MCP tool take, so all three answer alike.
func (o *retrieveOptions) params(query string) service.RetrieveParams {
	budget := o.budget
	if o.noBudget {
		budget = 0 // no cap
	}
	links := !o.noLinks
	p := service.RetrieveParams{Query: query, Limit: &o.limit, BudgetTokens: &budget, ExpandLinks: &links,
		Explain: o.explain, Categories: o.categories, Tags: o.tags}
	if o.minScore != service.DefaultMinScore {
		p.MinScore = &o.minScore
	}
	o.time.fill(&p)
	return p
}

func (o *retrieveOptions) run(cmd *cobra.Command, query string) error {
	ctx := cmd.Context()
	f := &engineFlags{analysis: o.analysis, embedder: o.embedder}
	return o.app.withMemory(ctx, mustExist, f, func(m *service.Memory) error {
		// Build the index here rather than lazily, to say on stderr which
		// entries it could not read instead of leaving them out silently.
		// Load takes the store's persisted copy when it is current (a bolt
		// file's, or a folder's for the files whose stamps it matches);
		// Close waits for the copy a build saves for the next run.
		defer m.Engine().Close()
		stats, err := m.Engine().Load(ctx)
		if err != nil {
			return err
		}
		for _, e := range stats.Skipped {
			fmt.Fprintf(o.app.stderr, "skipped %s\n", oneLine(e.Error()))
		}
		res, req, err := m.Retrieve(ctx, o.params(query))
		if err != nil {
			return err
		}
		if o.json {
			return service.WriteResultJSON(o.app.stdout, res)
		}
		return writeResult(o.app.stdout, res, req.Budget, o.explain, style{on: o.app.color()})
	})
}

// writeResult prints a result for people: per item its rank, source,
// category:name and evidence, then the content indented; then a summary,
// the unresolved links, and with explain the items the budget dropped.
func writeResult(w io.Writer, res *retrieve.Result, budget int, explain bool, sty style) error {
	bw := bufio.NewWriter(w)
	if tr := res.TimeRange; tr != nil {
		bw.WriteString(timeRangeLine(tr) + "\n\n")
	}
	for i, it := range res.Items {
		fmt.Fprintf(bw, "%d. %s\n", i+1, itemHeader(it, sty))
		writeIndented(bw, it.Content, "    ")
		bw.WriteString("\n")
	}

	items := plural(len(res.Items), "item", "items")
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
			fmt.Fprintf(bw, "  %s\n", visible(l))
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
// matched=a,b tokens=N" or "link trips:y  via=trips:x tokens=N".
func itemHeader(it retrieve.Item, sty style) string {
	var b strings.Builder
	b.WriteString(string(it.Source))
	b.WriteString(" ")
	b.WriteString(sty.bold(visible(store.Key{Category: it.Category, Name: it.Name}.String())))
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
			ev = append(ev, "matched="+visible(strings.Join(it.MatchedTerms, ",")))
		}
	}
	if it.Via != nil {
		ev = append(ev, "via="+visible(store.Key{Category: it.Via.Category, Name: it.Via.Name}.String()))
	}
	if it.Date != "" {
		ev = append(ev, "date="+it.Date)
	}
	if it.OutsideRange {
		ev = append(ev, "outside-range")
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
			w.WriteString(visible(line))
		}
		w.WriteString("\n")
	}
}

// visible escapes control characters, so that stored text (an ESC sequence
// in a hand-edited file, say) cannot drive the terminal (service.Visible).
func visible(s string) string { return service.Visible(s) }
