package bench

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// Chart geometry, in SVG user units (pixels at 100 %).
const (
	chartWidth  = 1000
	labelRight  = 170 // mode labels end here
	panelWidth  = 320
	qualityLeft = 185
	speedLeft   = 600
	rowHeight   = 20
	barHeight   = 13
	headHeight  = 28
	topMargin   = 92
)

// modeColors gives recall's modes strong colours and peers greys, so that
// the eye finds recall first; unknown modes take the spares in turn.
var modeColors = map[string]string{
	ModeBM25:      "#2563eb",
	ModeBM25GSE:   "#0d9488",
	"bleve-bm25":  "#6b7280",
	"bleve-tfidf": "#a8adb5",
}

var spareColors = []string{"#ea580c", "#9333ea", "#ca8a04", "#db2777", "#65a30d"}

// WriteSVG draws the report as one self-contained SVG (no scripts, no
// external fonts or styles): per dataset, one row per mode with its
// nDCG@10 on a linear scale and its median query latency on a log scale,
// with a tick at p99. Every bar has a tooltip with the rest of its figures.
func (r *Report) WriteSVG(w io.Writer) error {
	datasets, modes := r.Datasets(), r.Modes()
	colors := map[string]string{}
	spare := 0
	for _, m := range modes {
		if c, ok := modeColors[m]; ok {
			colors[m] = c
			continue
		}
		colors[m] = spareColors[spare%len(spareColors)]
		spare++
	}
	lo, hi := latencyRange(r.Results)
	xLat := func(us float64) float64 {
		if us <= lo {
			return speedLeft
		}
		return speedLeft + panelWidth*math.Log10(us/lo)/math.Log10(hi/lo)
	}

	rows := 0
	for _, ds := range datasets {
		for _, m := range modes {
			if r.Find(ds, m) != nil {
				rows++
			}
		}
	}
	height := topMargin + len(datasets)*headHeight + rows*rowHeight + 64

	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		chartWidth, height, chartWidth, height)
	p(`<title>recall bench: retrieval quality and query latency per dataset and mode</title>` + "\n")
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p(`<text x="20" y="28" font-size="17" font-weight="600" fill="#111827">recall bench: quality and speed per dataset</text>` + "\n")
	p(`<text x="20" y="47" fill="#4b5563">%s</text>`+"\n", esc(machineLine(r)))

	// Panel headings and axes.
	axisTop := float64(topMargin - 12)
	axisBottom := float64(height - 52)
	p(`<text x="%d" y="72" font-weight="600" fill="#111827">nDCG@10 (higher is better)</text>`+"\n", qualityLeft)
	p(`<text x="%d" y="72" font-weight="600" fill="#111827">latency: bar p50, tick p99 (log scale; lower is better)</text>`+"\n", speedLeft)
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		x := qualityLeft + panelWidth*v
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e7eb"/>`+"\n", x, axisTop, x, axisBottom)
		p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#6b7280" font-size="11">%g</text>`+"\n", x, axisBottom+14, v)
	}
	for v := lo; v <= hi*1.0001; v *= 10 {
		x := xLat(v)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e7eb"/>`+"\n", x, axisTop, x, axisBottom)
		p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#6b7280" font-size="11">%s</text>`+"\n", x, axisBottom+14, esc(formatDecade(v)))
	}

	y := float64(topMargin)
	for _, ds := range datasets {
		var info *Result
		for _, m := range modes {
			if info = r.Find(ds, m); info != nil {
				break
			}
		}
		y += headHeight
		p(`<text x="20" y="%.1f" font-size="14" font-weight="600" fill="#111827">%s</text>`+"\n", y-8, esc(ds))
		p(`<text x="%d" y="%.1f" fill="#6b7280">%s · %s docs · %s queries</text>`+"\n",
			qualityLeft, y-8, esc(info.Lang), thousands(info.Docs), thousands(info.Queries))
		for _, m := range modes {
			x := r.Find(ds, m)
			if x == nil {
				continue
			}
			top := y + (rowHeight-barHeight)/2
			mid := y + rowHeight/2 + 4
			tip := esc(tooltip(x))
			p(`<text x="%d" y="%.1f" text-anchor="end" fill="#374151">%s</text>`+"\n", labelRight, mid, esc(m))
			qw := panelWidth * clamp01(x.Quality.NDCG10)
			p(`<rect x="%d" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
				qualityLeft, top, qw, barHeight, colors[m], tip)
			p(`<text x="%.1f" y="%.1f" fill="#111827">%.3f</text>`+"\n", qualityLeft+qw+4, mid, x.Quality.NDCG10)
			if x.Latency.Samples > 0 {
				lw := xLat(x.Latency.P50Us) - speedLeft
				p(`<rect x="%d" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
					speedLeft, top, max(lw, 1), barHeight, colors[m], tip)
				px := xLat(x.Latency.P99Us)
				p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#111827" stroke-width="0.75"/>`+"\n",
					speedLeft+lw, top+barHeight/2.0, px, top+barHeight/2.0)
				p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#111827" stroke-width="1.5"/>`+"\n",
					px, top-2, px, top+barHeight+2)
				p(`<text x="%.1f" y="%.1f" fill="#111827">%s</text>`+"\n",
					max(px, speedLeft+lw)+5, mid, esc(formatMicros(x.Latency.P50Us)))
			} else {
				p(`<text x="%d" y="%.1f" fill="#6b7280">not timed</text>`+"\n", speedLeft+4, mid)
			}
			y += rowHeight
		}
	}
	p(`<text x="20" y="%d" fill="#6b7280" font-size="11">%s</text>`+"\n", height-14, esc(footer(r)))
	p("</svg>\n")
	return b.Flush()
}

// latencyRange returns the decades that hold every p50 and p99.
func latencyRange(results []Result) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, x := range results {
		if x.Latency.Samples == 0 {
			continue
		}
		lo = min(lo, x.Latency.P50Us)
		hi = max(hi, x.Latency.P99Us, x.Latency.P50Us)
	}
	if hi == 0 || lo <= 0 {
		return 1, 1000
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

func tooltip(x *Result) string {
	s := fmt.Sprintf("%s on %s: nDCG@10 %.4f, R@10 %.4f, R@100 %.4f, MRR@10 %.4f; p50 %s, p99 %s, %s QPS; load %s, build %s",
		x.Mode, x.Dataset, x.Quality.NDCG10, x.Quality.Recall10, x.Quality.Recall100, x.Quality.MRR10,
		formatMicros(x.Latency.P50Us), formatMicros(x.Latency.P99Us), formatQPS(x.Latency.QPS),
		formatMillis(x.LoadMs), formatMillis(x.BuildMs))
	if x.EmbedMs > 0 {
		s += ", embed " + formatMillis(x.EmbedMs)
	}
	return s
}

func machineLine(r *Report) string {
	return fmt.Sprintf("%s, %d CPUs, %s, %s/%s; measured %s", orUnknown(r.Machine.CPU), r.Machine.NumCPU,
		r.Machine.GoVersion, r.Machine.OS, r.Machine.Arch, r.Started.Format("2006-01-02"))
}

func footer(r *Report) string {
	return fmt.Sprintf("Latency: one goroutine, %d timed passes over each set's queries after a warm-up pass; top %d hits per query. Compare ratios within one run: the machine is shared.", r.Passes, r.Depth)
}

// formatDecade labels a power of ten of microseconds: "100µs", "1ms".
func formatDecade(us float64) string {
	switch {
	case us < 1000:
		return fmt.Sprintf("%gµs", us)
	case us < 1e6:
		return fmt.Sprintf("%gms", us/1000)
	}
	return fmt.Sprintf("%gs", us/1e6)
}

// thousands writes n with comma separators: 5,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

func esc(s string) string {
	var sb strings.Builder
	_ = xml.EscapeText(&sb, []byte(s))
	return sb.String()
}
