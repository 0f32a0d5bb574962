package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the report as aligned plain-text tables: quality per
// dataset and mode, speed and memory, recall's BM25 against each peer,
// then the notes and the machine.
func (r *Report) WriteTable(w io.Writer) error {
	rows := func(header string, row func(x *Result) string) error {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, header)
		prev := ""
		for i := range r.Results {
			x := &r.Results[i]
			ds := x.Dataset
			if ds == prev {
				ds = ""
			}
			prev = x.Dataset
			fmt.Fprintf(tw, "%s\t%s\t%s\n", ds, x.Mode, row(x))
		}
		return tw.Flush()
	}
	fmt.Fprintf(w, "quality (top %d hits per query)\n", r.Depth)
	err := rows("dataset\tmode\tnDCG@10\tR@10\tR@100\tMRR@10\t", func(x *Result) string {
		q := x.Quality
		return fmt.Sprintf("%.4f\t%.4f\t%.4f\t%.4f\t", q.NDCG10, q.Recall10, q.Recall100, q.MRR10)
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "speed (per query: p50, p99, QPS of the retrieve above; rank = ranking alone; agent = default retrieve)")
	err = rows("dataset\tmode\tload\tbuild\tp50\tp99\tQPS\trank p50\tagent p50\theap peak\theap kept\tRSS peak\t", func(x *Result) string {
		build := formatMillis(x.BuildMs)
		if x.EmbedMs > 0 {
			build += " +" + formatMillis(x.EmbedMs) + " embed"
		}
		return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t",
			formatMillis(x.LoadMs), build,
			formatMicros(x.Latency.P50Us), formatMicros(x.Latency.P99Us), formatQPS(x.Latency.QPS),
			p50(x.RankLatency), p50(x.AgentLatency),
			formatBytes(x.HeapPeakBytes), formatBytes(x.HeapRetainedBytes), formatBytes(x.RSSPeakBytes))
	})
	if err != nil {
		return err
	}

	if cs := r.Comparisons(); len(cs) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "recall bm25 against peers (ratio = recall / peer nDCG@10; faster = peer time / recall time)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "dataset\tpeer\tnDCG@10 recall\tpeer\tratio\tp50 recall\tpeer\tfaster\trank faster\tbuild faster\t")
		for _, c := range cs {
			rec, peer := r.Find(c.Dataset, c.Recall), r.Find(c.Dataset, c.Peer)
			fmt.Fprintf(tw, "%s\t%s\t%.4f\t%.4f\t%.3f\t%s\t%s\t%s\t%s\t%s\t\n",
				c.Dataset, c.Peer, rec.Quality.NDCG10, peer.Quality.NDCG10, c.NDCGRatio,
				formatMicros(rec.Latency.P50Us), formatMicros(peer.Latency.P50Us),
				formatTimes(c.Speedup), formatTimes(c.RankSpeedup), formatTimes(c.BuildSpeedup))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	if notes := r.groupedNotes(); len(notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "notes")
		for _, n := range notes {
			fmt.Fprintf(w, "  %s: %s\n", n.where, n.text)
		}
	}
	_, err = fmt.Fprintf(w, "\n%s, %d CPUs (GOMAXPROCS %d), %s; latency over %d timed passes, one goroutine\n",
		orUnknown(r.Machine.CPU), r.Machine.NumCPU, r.Machine.GOMAXPROCS, r.Machine.GoVersion, r.Passes)
	return err
}

type note struct{ where, text string }

// groupedNotes prints each distinct note once, saying where it applies:
// a mode alone when it applies to that mode on every dataset.
func (r *Report) groupedNotes() []note {
	var texts []string
	where := map[string]map[string][]string{} // text → mode → datasets
	var modeOrder []string
	for _, x := range r.Results {
		for _, t := range x.Notes {
			if where[t] == nil {
				texts = append(texts, t)
				where[t] = map[string][]string{}
			}
			where[t][x.Mode] = append(where[t][x.Mode], x.Dataset)
		}
		if !slices.Contains(modeOrder, x.Mode) {
			modeOrder = append(modeOrder, x.Mode)
		}
	}
	all := len(r.Datasets())
	var out []note
	for _, t := range texts {
		var parts []string
		for _, m := range modeOrder {
			ds := where[t][m]
			switch {
			case len(ds) == 0:
			case len(ds) == all && all > 1:
				parts = append(parts, m)
			default:
				parts = append(parts, strings.Join(ds, ", ")+" "+m)
			}
		}
		out = append(out, note{strings.Join(parts, "; "), t})
	}
	return out
}

func p50(l *Latency) string {
	if l == nil {
		return "-"
	}
	return formatMicros(l.P50Us)
}

func formatTimes(x float64) string {
	if x <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f×", x)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}

// formatMicros prints a time given in microseconds with a unit that keeps
// three significant digits.
func formatMicros(us float64) string {
	switch {
	case us <= 0:
		return "-"
	case us < 10:
		return fmt.Sprintf("%.2fµs", us)
	case us < 1000:
		return fmt.Sprintf("%.1fµs", us)
	case us < 1e6:
		return fmt.Sprintf("%.2fms", us/1000)
	}
	return fmt.Sprintf("%.2fs", us/1e6)
}

func formatMillis(ms float64) string { return formatMicros(ms * 1000) }

func formatQPS(q float64) string {
	switch {
	case q <= 0:
		return "-"
	case q < 1000:
		return fmt.Sprintf("%.0f", q)
	}
	return fmt.Sprintf("%.1fk", q/1000)
}

func formatBytes(b uint64) string {
	switch {
	case b == 0:
		return "-"
	case b < 1<<20:
		return fmt.Sprintf("%.0f KB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%.1f MB", float64(b)/(1<<20))
}
