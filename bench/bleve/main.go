package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/recallhq/recall/bench"
	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/embed/ollama"
	"github.com/recallhq/recall/embed/openai"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/retrieve"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bleve bench: %v\n", err)
		os.Exit(1)
	}
}

// bm25-gse runs last: its dictionary stays in memory for the rest of the
// process and would weigh on the modes after it.
const defaultModes = "bm25,bleve-bm25,bleve-tfidf,bm25-gse"

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-bleve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		backend  = fs.String("backend", string(bench.BackendBolt), "recall's store for the bench: bolt or fs")
		modeList = fs.String("mode", defaultModes, "comma-separated modes: recall's bm25, bm25-gse and Bleve's bleve-bm25, bleve-tfidf")
		jsonPath = fs.String("json", "", "write every figure as JSON to `FILE`")
		svgPath  = fs.String("svg", "", "write the chart as SVG to `FILE`")
		runDir   = fs.String("run-dir", "", "write one TREC run file per dataset and mode into `DIR`")
		passes   = fs.Int("passes", 0, "timed passes over the queries (0: enough for 1000 timed queries; -1: quality only)")
		gseDict  = fs.String("gse-dict", gse.DictSimplified, "gse dictionary for bm25-gse: zh_s (simplified) or zh (simplified and traditional)")
		analyzer = fs.String("analyzer", index.DefaultAnalyzer, "recall's analyzer: "+strings.Join(index.Analyzers(), ", ")+"; Bleve's English field follows it (see peer.go)")
		noAgent  = fs.Bool("no-agent", false, "do not time recall's default agent retrieve")
		tmp      = fs.String("tmp", "", "folder for the temporary stores (default the system's)")
		embedder = fs.String("embedder", "", "embedder for the fusion mode: hash (offline), ollama or openai (none by default)")
		model    = fs.String("embed-model", "", "embedding model (ollama: nomic-embed-text; openai: text-embedding-3-small)")
		embedURL = fs.String("embed-url", "", "embedding endpoint (default $OLLAMA_HOST or $OPENAI_BASE_URL)")
		timeout  = fs.Duration("embed-timeout", 0, "query embedding timeout (default 2s)")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage: go run . [flags] DATASET...

Runs recall's modes and Bleve v2 (in-memory scorch, BM25 and TF-IDF) on the
same BEIR folders in one process and prints one table with both, and the
ratios. DATASET is a folder with corpus.jsonl, queries.jsonl, qrels/test.tsv.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no DATASET given")
	}
	b, err := bench.ParseBackend(*backend)
	if err != nil {
		return err
	}
	an, err := index.ParseAnalyzer(*analyzer)
	if err != nil {
		return err
	}

	emb, err := newEmbedder(*embedder, *model, *embedURL)
	if err != nil {
		return err
	}
	names := bench.SplitList(*modeList)
	if emb != nil && *modeList == defaultModes {
		names = slices.Insert(names, 1, bench.ModeFusion)
	}
	opts := bench.RecallOptions{
		Backend:  b,
		TempDir:  *tmp,
		GSEDict:  *gseDict,
		Retrieve: retrieve.Options{Analyzer: an, Embedder: emb, EmbedTimeout: *timeout},
	}
	// The modes run in the order given.
	var modes []bench.Mode
	peers := bleveModes(an.Name())
	for _, n := range names {
		if i := slices.IndexFunc(peers, func(m bench.Mode) bool { return m.Name == n }); i >= 0 {
			modes = append(modes, peers[i])
			continue
		}
		rm, err := bench.RecallModes([]string{n}, opts)
		if err != nil {
			return err
		}
		modes = append(modes, rm...)
	}

	var datasets []*bench.Dataset
	for _, dir := range fs.Args() {
		ds, err := bench.Load(dir)
		if err != nil {
			return err
		}
		datasets = append(datasets, ds)
	}
	cfg := bench.Config{Modes: modes, Passes: *passes, NoAgent: *noAgent, RunDir: *runDir, Progress: progressLine(stderr)}
	rep, err := bench.Run(ctx, cfg, datasets)
	if err != nil {
		return err
	}
	if err := rep.WriteTable(stdout); err != nil {
		return err
	}
	if *jsonPath != "" {
		if err := writeFile(*jsonPath, rep.WriteJSON); err != nil {
			return err
		}
	}
	if *svgPath != "" {
		if err := writeFile(*svgPath, rep.WriteSVG); err != nil {
			return err
		}
	}
	return nil
}

// newEmbedder builds the embedder the fusion mode uses, as recall's CLI
// does; nil for none.
func newEmbedder(kind, model, url string) (embed.Embedder, error) {
	switch strings.ToLower(kind) {
	case "", "none":
		return nil, nil
	case "hash":
		return hash.New(hash.Config{})
	case "ollama":
		return ollama.New(ollama.Config{Host: url, Model: model})
	case "openai":
		return openai.New(openai.Config{BaseURL: url, Model: model})
	}
	return nil, fmt.Errorf("unknown embedder %q (want hash, ollama or openai)", kind)
}

// progressLine prints one line per phase that starts.
func progressLine(w io.Writer) func(bench.Progress) {
	return func(p bench.Progress) {
		if p.Done == 0 {
			fmt.Fprintf(w, "%-9s %-12s %s\n", p.Dataset, p.Mode, p.Phase)
		}
	}
}

func writeFile(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", strings.TrimSpace(path), err)
	}
	return nil
}
