package main

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/recallhq/recall/bench"
	"github.com/recallhq/recall/index"
)

// Scoring models of the Bleve modes.
const (
	scoringBM25  = bleveindex.BM25Scoring
	scoringTFIDF = bleveindex.TFIDFScoring
)

// batchSize is large on purpose: Bleve's in-memory scorch does not merge
// segments, so every batch leaves a segment each query must visit.
const batchSize = 10_000

// bleveModes are the Bleve peers: BM25 (the fair comparison with recall's
// BM25) and its default TF-IDF, which scores better than its BM25 on these
// sets (see the bench-data README). analyzer is recall's analyzer name:
// with an English one, Bleve's English field gets the same Snowball
// stemmer (and, for english-stop, its stop list), and the modes are named
// after it as recall's are ("bleve-bm25-english").
func bleveModes(analyzer string) []bench.Mode {
	suffix := ""
	if analyzer != index.DefaultAnalyzer {
		suffix = "-" + analyzer
	}
	return []bench.Mode{
		bleveMode("bleve-bm25"+suffix, scoringBM25, analyzer),
		bleveMode("bleve-tfidf"+suffix, scoringTFIDF, analyzer),
	}
}

func bleveMode(name, scoring, analyzer string) bench.Mode {
	return bench.Mode{Name: name, System: "bleve", New: func() (bench.Subject, error) {
		return &bleveSubject{scoring: scoring, analyzer: analyzer}, nil
	}}
}

// bleveSubject is an in-memory scorch index with one text field holding
// title + " " + text, analysed for English with the standard analyzer
// (unicode words, lower case, Bleve's English stop list) when recall runs
// its spec analyzer, or with a custom chain that mirrors recall's English
// analyzers (unicode words, lower case, [stop_en,] stemmer_en_snowball,
// the same Snowball English stemmer recall uses); for Chinese with the cjk
// analyzer (width folding, lower-casing, bigrams).
type bleveSubject struct {
	scoring  string
	analyzer string // recall's analyzer name
	ds       *bench.Dataset
	idx      bleve.Index
}

// englishAnalyzer is the name of the custom analyzer of English modes.
const englishAnalyzer = "recall-english"

// englishFilters are the token filters mirroring recall's analyzer, or
// nil for Bleve's standard analyzer.
func englishFilters(analyzer string) []any {
	switch analyzer {
	case index.AnalyzerEnglish:
		return []any{lowercase.Name, en.SnowballStemmerName}
	case index.AnalyzerEnglishStop:
		return []any{lowercase.Name, en.StopName, en.SnowballStemmerName}
	}
	return nil
}

// indexed is the document Bleve indexes.
type indexed struct {
	Text string `json:"text"`
}

// Load only keeps the dataset: Bleve's loading and indexing are one step,
// timed as the build.
func (s *bleveSubject) Load(_ context.Context, ds *bench.Dataset) error {
	s.ds = ds
	return nil
}

func (s *bleveSubject) Build(ctx context.Context) error {
	m := bleve.NewIndexMapping()
	analyzer := standard.Name
	if filters := englishFilters(s.analyzer); filters != nil {
		analyzer = englishAnalyzer
		err := m.AddCustomAnalyzer(englishAnalyzer, map[string]any{
			"type":          custom.Name,
			"tokenizer":     unicode.Name,
			"token_filters": filters,
		})
		if err != nil {
			return fmt.Errorf("bleve analyzer: %w", err)
		}
	}
	if s.ds.Lang == "zh" {
		analyzer = cjk.AnalyzerName
	}
	field := bleve.NewTextFieldMapping()
	field.Analyzer = analyzer
	field.Store = false
	field.IncludeTermVectors = false
	field.IncludeInAll = false
	field.DocValues = false
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt("text", field)
	m.DefaultMapping = doc
	m.DefaultAnalyzer = analyzer
	m.ScoringModel = s.scoring

	// NewMemOnly would pick the legacy index type, which ignores the
	// scoring model; scorch with an empty path lives in memory.
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return fmt.Errorf("new bleve index: %w", err)
	}
	s.idx = idx
	b := idx.NewBatch()
	for _, d := range s.ds.Docs {
		if err := b.Index(d.ID, indexed{Text: d.Content()}); err != nil {
			return fmt.Errorf("index %q: %w", d.ID, err)
		}
		if b.Size() >= batchSize {
			if err := idx.Batch(b); err != nil {
				return fmt.Errorf("bleve batch: %w", err)
			}
			b.Reset()
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if b.Size() > 0 {
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("bleve batch: %w", err)
		}
	}
	return nil
}

func (s *bleveSubject) Search(ctx context.Context, query string, k int) ([]bench.Hit, error) {
	q := bleve.NewMatchQuery(query)
	q.SetField("text")
	req := bleve.NewSearchRequestOptions(q, k, 0, false)
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	hits := make([]bench.Hit, len(res.Hits))
	for i, h := range res.Hits {
		hits[i] = bench.Hit{ID: h.ID, Score: h.Score}
	}
	return hits, nil
}

func (s *bleveSubject) Notes() []string {
	return []string{"Bleve indexes in memory in one step, timed as the build; it keeps no store, so it has no load phase"}
}

func (s *bleveSubject) Close() error {
	if s.idx == nil {
		return nil
	}
	err := s.idx.Close()
	s.idx = nil
	return err
}
