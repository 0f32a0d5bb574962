package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Depth is how many hits each query asks for by default: enough for
// Recall@100.
const Depth = 100

// DefaultMinSamples is how many timed queries per mode and dataset the
// runner aims for when Config.Passes is 0.
const DefaultMinSamples = 1000

// Config configures Run. Modes is required; the other fields have useful
// zero values.
type Config struct {
	// Modes run on every dataset, in order.
	Modes []Mode
	// Passes is how many timed passes over the queries follow the warm-up
	// pass (which gives the quality figures and is not timed). 0 means
	// enough passes for DefaultMinSamples timed queries; a negative value
	// means none: quality figures only.
	Passes int
	// Depth is how many hits each query asks for; 0 means Depth. Below
	// 100, Recall@100 counts only the hits asked for.
	Depth int
	// NoAgent skips timing recall's default agent retrieve.
	NoAgent bool
	// RunDir, when set, receives one TREC run file per dataset and mode,
	// named DATASET.MODE.run (see WriteRun).
	RunDir string
	// Progress, when set, is called as the run advances, from the
	// goroutine that called Run.
	Progress func(Progress)
}

// Validate reports whether c can run.
func (c Config) Validate() error {
	if len(c.Modes) == 0 {
		return errors.New("bench config: no modes")
	}
	if c.Depth < 0 {
		return fmt.Errorf("bench config: negative depth %d", c.Depth)
	}
	seen := map[string]bool{}
	for _, m := range c.Modes {
		if m.Name == "" || m.New == nil {
			return fmt.Errorf("bench config: mode %q has no name or constructor", m.Name)
		}
		if seen[m.Name] {
			return fmt.Errorf("bench config: mode %q given twice", m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}

// Progress reports where a run is.
type Progress struct {
	Dataset string
	Mode    string
	// Phase is "prepare", "load", "build", "embed", "quality", "latency",
	// "rank" or "agent".
	Phase string
	// Done of Total steps of the phase are finished; phases without steps
	// report 0 of 1, then 1 of 1.
	Done, Total int
}

// Run runs every mode of cfg on every dataset, one at a time (never two
// subjects at once, so that they do not disturb each other's timings), and
// returns
// the figures, grouped by dataset. A mode that fails stops the run: a
// benchmark with holes is easy to misread.
func Run(ctx context.Context, cfg Config, datasets []*Dataset) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.RunDir != "" {
		if err := os.MkdirAll(cfg.RunDir, 0o755); err != nil {
			return nil, fmt.Errorf("run files: %w", err)
		}
	}
	rep := &Report{Version: ReportVersion, Started: time.Now().UTC().Truncate(time.Second), Machine: currentMachine(), Depth: cfg.Depth}
	if rep.Depth == 0 {
		rep.Depth = Depth
	}
	// Modes outer, datasets inner: what a mode leaves in the process (gse's
	// dictionary stays loaded) weighs only on the modes after it, so the
	// caller controls it through the order of Modes.
	results := make([][]Result, len(datasets))
	for _, m := range cfg.Modes {
		for i, ds := range datasets {
			passes := cfg.Passes
			if passes == 0 {
				passes = (DefaultMinSamples + len(ds.Queries) - 1) / len(ds.Queries)
			}
			passes = max(passes, 0)
			rep.Passes = max(rep.Passes, passes)
			r := &runner{cfg: cfg, ds: ds, mode: m, passes: passes, depth: rep.Depth}
			res, err := r.run(ctx)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", m.Name, ds.Name, err)
			}
			results[i] = append(results[i], res)
		}
	}
	for _, rs := range results {
		rep.Results = append(rep.Results, rs...)
	}
	return rep, nil
}

type runner struct {
	cfg    Config
	ds     *Dataset
	mode   Mode
	passes int
	depth  int
}

func (r *runner) progress(phase string, done, total int) {
	if r.cfg.Progress != nil {
		r.cfg.Progress(Progress{Dataset: r.ds.Name, Mode: r.mode.Name, Phase: phase, Done: done, Total: total})
	}
}

// timed runs one step-less phase and returns how long it took.
func (r *runner) timed(phase string, fn func() error) (time.Duration, error) {
	r.progress(phase, 0, 1)
	start := time.Now()
	err := fn()
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("%s: %w", phase, err)
	}
	r.progress(phase, 1, 1)
	return took, nil
}

func (r *runner) run(ctx context.Context) (res Result, err error) {
	res = Result{
		Dataset: r.ds.Name, Lang: r.ds.Lang, Mode: r.mode.Name, System: r.mode.System,
		Docs: len(r.ds.Docs), Queries: len(r.ds.Queries),
	}
	sub, err := r.mode.New()
	if err != nil {
		return res, err
	}
	defer func() {
		if cerr := sub.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close: %w", cerr)
		}
	}()

	if p, ok := sub.(preparer); ok {
		var note string
		before := settledHeap()
		took, err := r.timed("prepare", func() (err error) {
			note, err = p.Prepare(ctx, r.ds)
			return err
		})
		if err != nil {
			return res, err
		}
		if note != "" {
			res.PrepareMs = ms(took)
			res.PrepareHeapBytes = above(settledHeap(), before)
			res.Notes = append(res.Notes, fmt.Sprintf("%s; it keeps %s of heap", note, formatBytes(res.PrepareHeapBytes)))
		}
	}

	base := settledHeap()
	rssReset := resetPeakRSS()
	sampler := startHeapSampler(2 * time.Millisecond)
	load, err := r.timed("load", func() error { return sub.Load(ctx, r.ds) })
	if err != nil {
		sampler.Stop()
		return res, err
	}
	build, err := r.timed("build", func() error { return sub.Build(ctx) })
	if err != nil {
		sampler.Stop()
		return res, err
	}
	if e, ok := sub.(embedder); ok {
		took, err := r.timed("embed", func() error { return e.Embed(ctx) })
		switch {
		case errors.Is(err, errSkip):
		case err != nil:
			sampler.Stop()
			return res, err
		default:
			res.EmbedMs = ms(took)
		}
	}
	peak := sampler.Stop()
	res.LoadMs, res.BuildMs = ms(load), ms(build)
	res.HeapPeakBytes = above(peak, base)
	res.HeapRetainedBytes = above(settledHeap(), base)

	// Warm-up pass: its rankings give the quality figures.
	run := make(map[string][]Hit, len(r.ds.Queries))
	for i, q := range r.ds.Queries {
		hits, err := sub.Search(ctx, q.Text, r.depth)
		if err != nil {
			return res, fmt.Errorf("query %q: %w", q.ID, err)
		}
		if m, ok := sub.(idMapper); ok {
			m.DatasetIDs(hits)
		}
		run[q.ID] = hits
		r.progress("quality", i+1, len(r.ds.Queries))
	}
	res.Quality = Evaluate(r.ds.Qrels, run)
	if r.cfg.RunDir != "" {
		if err := r.writeRun(run); err != nil {
			return res, err
		}
	}

	res.Latency, err = r.time(ctx, "latency", func(q string) error {
		_, err := sub.Search(ctx, q, r.depth)
		return err
	})
	if err != nil {
		return res, err
	}
	if k, ok := sub.(ranker); ok && r.passes > 0 {
		lat, err := r.time(ctx, "rank", func(q string) error { return k.Rank(ctx, q, r.depth) })
		switch {
		case errors.Is(err, errSkip):
		case err != nil:
			return res, err
		case lat.Samples > 0:
			res.RankLatency = &lat
		}
	}
	if a, ok := sub.(agentSearcher); ok && !r.cfg.NoAgent && r.passes > 0 {
		lat, err := r.time(ctx, "agent", func(q string) error { return a.AgentSearch(ctx, q) })
		if err != nil {
			return res, err
		}
		res.AgentLatency = &lat
	}
	res.RSSPeakBytes = peakRSS()
	if !rssReset && res.RSSPeakBytes > 0 {
		res.Notes = append(res.Notes, "peak RSS is the process's since it started (the kernel refused to reset it)")
	}
	if n, ok := sub.(noter); ok {
		res.Notes = append(res.Notes, n.Notes()...)
	}
	return res, nil
}

// time runs every query r.passes times, timing each call on its own.
func (r *runner) time(ctx context.Context, phase string, fn func(query string) error) (Latency, error) {
	if r.passes <= 0 {
		return Latency{}, nil
	}
	total := r.passes * len(r.ds.Queries)
	times := make([]time.Duration, 0, total)
	// A collection started by earlier phases' garbage would land in the
	// first queries' times.
	runtime.GC()
	for p := 0; p < r.passes; p++ {
		for _, q := range r.ds.Queries {
			start := time.Now()
			err := fn(q.Text)
			times = append(times, time.Since(start))
			if err != nil {
				return Latency{}, fmt.Errorf("%s: query %q: %w", phase, q.ID, err)
			}
			if len(times)%64 == 0 {
				if err := ctx.Err(); err != nil {
					return Latency{}, err
				}
				r.progress(phase, len(times), total)
			}
		}
	}
	r.progress(phase, total, total)
	return summarize(times), nil
}

func (r *runner) writeRun(run map[string][]Hit) error {
	path := filepath.Join(r.cfg.RunDir, r.ds.Name+"."+r.mode.Name+".run")
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("run file: %w", err)
	}
	tag := r.mode.Name
	if r.mode.System == SystemRecall {
		tag = SystemRecall + "-" + tag
	}
	if err := WriteRun(f, tag, r.ds.Queries, run); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("run file: %w", err)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func above(x, base uint64) uint64 {
	if x < base {
		return 0
	}
	return x - base
}
