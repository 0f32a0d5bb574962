package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// ReportVersion is the version of the JSON report schema. It changes when
// a field changes meaning or goes away; new fields do not change it.
const ReportVersion = 1

// Report holds every figure of one bench run. Its JSON form is the file
// `recall bench --json` writes. A Report is plain data: its methods only
// read it, so they may run concurrently as long as nothing modifies it.
type Report struct {
	Version int       `json:"version"`
	Started time.Time `json:"started"`
	Machine Machine   `json:"machine"`
	// Passes is how many timed passes over each dataset's queries the
	// latency figures come from (after one untimed warm-up pass, which
	// gives the quality figures).
	Passes int `json:"passes"`
	// Depth is how many hits each query asked for (the quality figures'
	// cut; 100 unless configured).
	Depth   int      `json:"depth"`
	Results []Result `json:"results"`
}

// Machine describes where the figures were measured.
type Machine struct {
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPU        string `json:"cpu,omitempty"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GoVersion  string `json:"go_version"`
}

// Result holds the figures of one mode on one dataset. Times are in
// milliseconds (phases) and microseconds (queries); memory in bytes.
type Result struct {
	Dataset string `json:"dataset"`
	Lang    string `json:"lang"`
	// Mode names what ran: "bm25", "bm25-gse", "fusion-hash",
	// "bleve-bm25", ...
	Mode string `json:"mode"`
	// System is "recall" or the peer's name ("bleve").
	System  string `json:"system"`
	Docs    int    `json:"docs"`
	Queries int    `json:"queries"`

	Quality Metrics `json:"quality"`

	// LoadMs is the time to write every document into the system's
	// storage (recall: the store; peers: whatever they count as loading).
	LoadMs float64 `json:"load_ms"`
	// BuildMs is the time to make the loaded documents searchable
	// (recall: Engine.Rebuild; Bleve: batch indexing).
	BuildMs float64 `json:"build_ms"`
	// EmbedMs is the time to fill the vector cache (fusion modes only).
	EmbedMs float64 `json:"embed_ms,omitempty"`
	// PrepareMs is a once-per-process cost paid before loading, such as
	// loading gse's dictionary; 0 when an earlier mode already paid it.
	PrepareMs float64 `json:"prepare_ms,omitempty"`
	// PrepareHeapBytes is the heap the prepare step keeps (the gse
	// dictionary), not counted in the heap figures below.
	PrepareHeapBytes uint64 `json:"prepare_heap_bytes,omitempty"`

	// Latency is per query, for the retrieval that produced the quality
	// figures (top 100, no links, no budget for recall).
	Latency Latency `json:"latency"`
	// RankLatency is per query for recall's ranking alone (tokenize and
	// BM25 top-k on the index snapshot), without building result items;
	// BM25 modes only.
	RankLatency *Latency `json:"rank_latency,omitempty"`
	// AgentLatency is per query for recall's default agent retrieve
	// (limit 10, budget 800, links on); absent for peers.
	AgentLatency *Latency `json:"agent_latency,omitempty"`

	// HeapPeakBytes is the largest heap seen while loading and building,
	// above the heap before the mode started.
	HeapPeakBytes uint64 `json:"heap_peak_bytes"`
	// HeapRetainedBytes is the live heap after building and collecting
	// garbage, above the heap before the mode started: what the index
	// costs to keep.
	HeapRetainedBytes uint64 `json:"heap_retained_bytes"`
	// RSSPeakBytes is the process's resident-set high-water mark over the
	// mode (Linux; reset before each mode when the kernel allows, else
	// over the whole run so far), including the datasets held in memory.
	RSSPeakBytes uint64 `json:"rss_peak_bytes,omitempty"`

	// Notes say what else a reader needs to know about the figures.
	Notes []string `json:"notes,omitempty"`
}

// Latency summarises per-query times.
type Latency struct {
	Samples int     `json:"samples"`
	P50Us   float64 `json:"p50_us"`
	P99Us   float64 `json:"p99_us"`
	MeanUs  float64 `json:"mean_us"`
	// QPS is queries per second on one goroutine: samples / total time.
	QPS float64 `json:"qps"`
}

// summarize computes a Latency from raw times; it sorts them.
func summarize(times []time.Duration) Latency {
	if len(times) == 0 {
		return Latency{}
	}
	slices.Sort(times)
	var total time.Duration
	for _, t := range times {
		total += t
	}
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	return Latency{
		Samples: len(times),
		P50Us:   us(percentile(times, 0.50)),
		P99Us:   us(percentile(times, 0.99)),
		MeanUs:  us(total) / float64(len(times)),
		QPS:     float64(len(times)) / total.Seconds(),
	}
}

// percentile is the nearest-rank percentile of sorted times.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(float64(len(sorted))*p+0.999999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// Find returns the result for a dataset and mode, or nil.
func (r *Report) Find(dataset, mode string) *Result {
	for i := range r.Results {
		if r.Results[i].Dataset == dataset && r.Results[i].Mode == mode {
			return &r.Results[i]
		}
	}
	return nil
}

// Datasets returns the datasets of the report in run order.
func (r *Report) Datasets() []string {
	var out []string
	for _, x := range r.Results {
		if !slices.Contains(out, x.Dataset) {
			out = append(out, x.Dataset)
		}
	}
	return out
}

// Modes returns the modes of the report in run order.
func (r *Report) Modes() []string {
	var out []string
	for _, x := range r.Results {
		if !slices.Contains(out, x.Mode) {
			out = append(out, x.Mode)
		}
	}
	return out
}

// Comparison sets one recall mode against one peer mode on a dataset.
type Comparison struct {
	Dataset string `json:"dataset"`
	Recall  string `json:"recall_mode"`
	Peer    string `json:"peer_mode"`
	// NDCGRatio is recall's nDCG@10 over the peer's.
	NDCGRatio float64 `json:"ndcg_ratio"`
	// Speedup is the peer's p50 latency over recall's: how many times
	// faster recall answers the median query.
	Speedup float64 `json:"p50_speedup"`
	// RankSpeedup is the peer's p50 over recall's ranking p50 (see
	// Result.RankLatency).
	RankSpeedup float64 `json:"rank_p50_speedup,omitempty"`
	// BuildSpeedup is the peer's build time over recall's.
	BuildSpeedup float64 `json:"build_speedup"`
}

// Comparisons sets recall's plain BM25 ("bm25") against every peer mode,
// per dataset.
func (r *Report) Comparisons() []Comparison {
	var out []Comparison
	for _, ds := range r.Datasets() {
		rec := r.Find(ds, ModeBM25)
		if rec == nil {
			continue
		}
		for _, p := range r.Results {
			if p.Dataset != ds || p.System == SystemRecall {
				continue
			}
			c := Comparison{
				Dataset:      ds,
				Recall:       rec.Mode,
				Peer:         p.Mode,
				NDCGRatio:    ratio(rec.Quality.NDCG10, p.Quality.NDCG10),
				Speedup:      ratio(p.Latency.P50Us, rec.Latency.P50Us),
				BuildSpeedup: ratio(p.BuildMs, rec.BuildMs),
			}
			if rec.RankLatency != nil {
				c.RankSpeedup = ratio(p.Latency.P50Us, rec.RankLatency.P50Us)
			}
			out = append(out, c)
		}
	}
	return out
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// WriteJSON writes the report, with its comparisons, as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		*Report
		Comparisons []Comparison `json:"comparisons,omitempty"`
	}{r, r.Comparisons()})
}

// ReadReport reads a report WriteJSON wrote.
func ReadReport(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	if r.Version > ReportVersion {
		return nil, fmt.Errorf("read report: version %d is newer than this recall (%d)", r.Version, ReportVersion)
	}
	return &r, nil
}

func currentMachine() Machine {
	return Machine{
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		CPU:        cpuModel(),
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GoVersion:  runtime.Version(),
	}
}

// cpuModel reads the CPU model name on Linux; elsewhere it is left empty.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
