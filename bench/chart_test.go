package bench

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

func sampleReport() *Report {
	res := func(ds, lang, mode, system string, ndcg, p50 float64) Result {
		return Result{Dataset: ds, Lang: lang, Mode: mode, System: system, Docs: 5000, Queries: 43,
			Quality: Metrics{NDCG10: ndcg, Recall10: 0.2, Recall100: 0.7, MRR10: 0.9},
			LoadMs:  300, BuildMs: 50,
			Latency: Latency{Samples: 100, P50Us: p50, P99Us: p50 * 3, MeanUs: p50 * 1.2, QPS: 1e6 / (p50 * 1.2)}}
	}
	return &Report{
		Version: ReportVersion,
		Machine: Machine{CPU: "Test CPU <x86>", NumCPU: 2, GOMAXPROCS: 2, GoVersion: "go1.26", OS: "linux", Arch: "amd64"},
		Passes:  3,
		Results: []Result{
			res("msmarco", "en", ModeBM25, SystemRecall, 0.69, 20),
			res("msmarco", "en", "fusion-hash", SystemRecall, 0.71, 900),
			res("msmarco", "en", "bleve-bm25", "bleve", 0.672, 100),
			res("drcd & co", "zh", ModeBM25, SystemRecall, 0.95, 8),
			{Dataset: "drcd & co", Lang: "zh", Mode: "bleve-bm25", System: "bleve", Quality: Metrics{NDCG10: 0.9}, Notes: []string{"quality only"}},
		},
	}
}

func TestWriteSVG(t *testing.T) {
	var sb strings.Builder
	if err := sampleReport().WriteSVG(&sb); err != nil {
		t.Fatal(err)
	}
	svg := sb.String()

	// Well-formed XML with an <svg> root; collect the texts and count the bars.
	dec := xml.NewDecoder(strings.NewReader(svg))
	var texts []string
	rects, depth, root := 0, 0, ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = tk.Name.Local
			}
			depth++
			if tk.Name.Local == "rect" {
				rects++
			}
			if tk.Name.Local == "script" || tk.Name.Local == "image" || tk.Name.Local == "foreignObject" {
				t.Errorf("the chart is not self-contained: <%s>", tk.Name.Local)
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			if s := strings.TrimSpace(string(tk)); s != "" {
				texts = append(texts, s)
			}
		}
	}
	if root != "svg" {
		t.Errorf("root element %q, want svg", root)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"msmarco", "drcd & co", ModeBM25, "fusion-hash", "bleve-bm25", "Test CPU <x86>", "0.690", "20.0µs", "not timed"} {
		if !strings.Contains(all, want) {
			t.Errorf("chart text lacks %q", want)
		}
	}
	// One background, five quality bars, four latency bars (one result
	// was not timed).
	if rects != 1+5+4 {
		t.Errorf("%d rects, want 10", rects)
	}
}

func TestLatencyRange(t *testing.T) {
	lo, hi := latencyRange(sampleReport().Results)
	if lo != 1 || hi != 10000 {
		t.Errorf("range = %g..%g µs, want the decades 1..10000 around 8 µs and 2.7 ms", lo, hi)
	}
	if lo, hi := latencyRange(nil); lo != 1 || hi != 1000 {
		t.Errorf("empty range = %g..%g", lo, hi)
	}
}

func TestWriteTableAndComparisons(t *testing.T) {
	rep := sampleReport()
	cs := rep.Comparisons()
	if len(cs) != 2 {
		t.Fatalf("%d comparisons, want 2 (bm25 vs bleve-bm25 on each set): %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Dataset != "msmarco" || c.Peer != "bleve-bm25" || math.Abs(c.Speedup-5) > 1e-9 || math.Abs(c.NDCGRatio-0.69/0.672) > 1e-9 {
		t.Errorf("comparison = %+v, want 5× faster and 0.69/0.672", c)
	}
	if cs[1].Speedup != 0 {
		t.Errorf("speed-up against an untimed peer = %v, want 0", cs[1].Speedup)
	}
	var sb strings.Builder
	if err := rep.WriteTable(&sb); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	for _, want := range []string{"nDCG@10", "msmarco", "fusion-hash", "0.6900", "20.0µs", "5.0×", "1.027", "quality only", "3 timed passes"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestReportJSONRoundTrip(t *testing.T) {
	rep := sampleReport()
	var sb strings.Builder
	if err := rep.WriteJSON(&sb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), `"p50_speedup": 5`) || !strings.Contains(sb.String(), `"ndcg_at_10": 0.69`) {
		t.Errorf("JSON lacks figures:\n%s", sb.String())
	}
	back, err := ReadReport(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Results) != len(rep.Results) || back.Results[2].Latency != rep.Results[2].Latency || back.Machine != rep.Machine {
		t.Errorf("round trip changed the report: %+v", back)
	}
	if _, err := ReadReport(strings.NewReader(`{"version": 99}`)); err == nil {
		t.Error("a newer report version was accepted")
	}
}

func TestSummarize(t *testing.T) {
	var times []time.Duration
	for i := 100; i >= 1; i-- {
		times = append(times, time.Duration(i)*time.Microsecond)
	}
	l := summarize(times)
	// Nearest rank: p50 is the 50th of 100, p99 the 99th.
	if l.Samples != 100 || l.P50Us != 50 || l.P99Us != 99 || l.MeanUs != 50.5 || math.Abs(l.QPS-1e6/50.5) > 1e-6 {
		t.Errorf("summarize = %+v", l)
	}
	if (summarize(nil) != Latency{}) {
		t.Error("summarize(nil) is not zero")
	}
}
