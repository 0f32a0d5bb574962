package index

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Segmenter splits a CJK run into words, in place of the bigrams of SPEC
// §3. Implementations live outside this package (index/gse holds the gse
// one), so that a program linking index links no dictionary it does not
// use. A Segmenter must be safe for concurrent use.
type Segmenter interface {
	// Segment appends the words of run to dst. run is one maximal run of
	// CJK characters (IsCJK), already normalised. ok false means the
	// segmenter cannot serve (its dictionary did not load, say): the
	// analyzer then uses bigrams, so an optional path never fails.
	Segment(dst []string, run string) (out []string, ok bool)
	// Name identifies the segmenter and its dictionary, "gse:zh_s" for
	// example; it becomes part of the analyzer's name.
	Name() string
}

// Filter rewrites or drops one word of non-CJK text: a stemmer, a stop
// list. CJK terms (bigrams or segmenter words) never go through filters.
// A Filter must be safe for concurrent use.
type Filter interface {
	// Filter returns the term that word becomes, or keep false to drop it.
	// word is normalised (NFKC, lower case) and non-empty.
	Filter(word string) (term string, keep bool)
}

// Analyzer turns text into index terms. It is a fixed chain:
//
//  1. normalise: NFKC, then lower case;
//  2. split: words (maximal runs of letters, marks and digits) and CJK runs;
//  3. CJK runs: overlapping bigrams, or the words of a Segmenter;
//  4. words: each Filter in order (a stop list, a stemmer).
//
// Queries and documents must go through the same Analyzer, and a snapshot
// records the one it was built with (Snapshot.Analyzer). Name identifies
// the chain; two analyzers with the same name produce the same terms.
//
// A nil *Analyzer is the SPEC §3 tokenizer (Spec). An Analyzer is
// immutable and safe for concurrent use.
type Analyzer struct {
	name    string
	seg     Segmenter
	filters []Filter
}

// Names of the built-in analyzers, as ParseAnalyzer takes them.
const (
	// AnalyzerSpec is the SPEC §3 tokenizer: words and CJK bigrams, no
	// filters. It is what the conformance cases (tokenize_cases.json) pin.
	AnalyzerSpec = "spec"
	// AnalyzerEnglish adds Snowball English stemming (Porter2) of
	// Latin-script words: "running", "runs" and "run" all become "run".
	AnalyzerEnglish = "english"
	// AnalyzerEnglishStop also drops Lucene's English stop words ("the",
	// "of", "is", …) before stemming.
	AnalyzerEnglishStop = "english-stop"
)

// DefaultAnalyzer is the name of the analyzer an engine uses when none is
// configured (see docs/benchmarks.md for the measurements behind it).
const DefaultAnalyzer = AnalyzerEnglishStop

// Analyzers lists the names ParseAnalyzer accepts.
func Analyzers() []string {
	return []string{AnalyzerSpec, AnalyzerEnglish, AnalyzerEnglishStop}
}

// NewAnalyzer returns an analyzer named name that splits CJK runs with seg
// (nil: bigrams) and passes words through filters in order. name should
// identify the filters; the segmenter's name is appended to it.
func NewAnalyzer(name string, seg Segmenter, filters ...Filter) *Analyzer {
	return &Analyzer{name: name, seg: seg, filters: slices.Clone(filters)}
}

// Spec returns the SPEC §3 tokenizer.
func Spec() *Analyzer { return &Analyzer{name: AnalyzerSpec} }

// English returns the English analyzer: SPEC §3 plus Snowball English
// stemming of words written in Latin script only. CJK terms, words with
// digits and words of other scripts are left as they are.
func English() *Analyzer { return NewAnalyzer(AnalyzerEnglish, nil, EnglishStemmer()) }

// EnglishStop returns English with Lucene's English stop words removed
// before stemming.
func EnglishStop() *Analyzer {
	return NewAnalyzer(AnalyzerEnglishStop, nil, EnglishStopWords(), EnglishStemmer())
}

// Default returns the analyzer named DefaultAnalyzer.
func Default() *Analyzer {
	a, _ := ParseAnalyzer(DefaultAnalyzer)
	return a
}

// ParseAnalyzer returns the built-in analyzer with the name (see
// Analyzers); "" means DefaultAnalyzer. It knows no segmenter: attach
// one with WithSegmenter.
func ParseAnalyzer(name string) (*Analyzer, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "":
		return ParseAnalyzer(DefaultAnalyzer)
	case AnalyzerSpec:
		return Spec(), nil
	case AnalyzerEnglish:
		return English(), nil
	case AnalyzerEnglishStop:
		return EnglishStop(), nil
	}
	return nil, &AnalyzerError{Value: name}
}

// AnalyzerError reports an unknown analyzer name.
type AnalyzerError struct{ Value string }

func (e *AnalyzerError) Error() string {
	return fmt.Sprintf("unknown analyzer %q (want %s)", e.Value, strings.Join(Analyzers(), ", "))
}

// WithSegmenter returns a copy of a that splits CJK runs with seg (nil:
// bigrams again).
func (a *Analyzer) WithSegmenter(seg Segmenter) *Analyzer {
	c := a.orSpec()
	return &Analyzer{name: c.name, seg: seg, filters: c.filters}
}

// Segmenter returns the analyzer's segmenter, nil for bigrams.
func (a *Analyzer) Segmenter() Segmenter {
	if a == nil {
		return nil
	}
	return a.seg
}

// Name identifies the analyzer: "spec", "english", "spec+gse:zh_s". An
// index built with one analyzer answers queries correctly only through an
// analyzer of the same name; a persisted index compares it.
func (a *Analyzer) Name() string {
	a = a.orSpec()
	if a.seg != nil {
		return a.name + "+" + a.seg.Name()
	}
	return a.name
}

// String returns Name.
func (a *Analyzer) String() string { return a.Name() }

var specAnalyzer = Spec()

func (a *Analyzer) orSpec() *Analyzer {
	if a == nil {
		return specAnalyzer
	}
	return a
}

// Tokens returns the terms of s in order, repeats included.
func (a *Analyzer) Tokens(s string) []string {
	return a.AppendTokens(nil, s)
}

// AppendTokens appends the terms of s to dst. Returned terms may share
// memory with a normalised copy of s; clone them before keeping them for
// long next to unrelated data.
func (a *Analyzer) AppendTokens(dst []string, s string) []string {
	dst, _ = a.appendTokens(dst, s)
	return dst
}

// appendTokens also returns EstTokens(s), which the same scan yields for
// free: the index keeps it per document so retrieve need not rescan.
// Filters change terms, never the estimate: a stop word still costs an
// LLM token.
func (a *Analyzer) appendTokens(dst []string, s string) ([]string, int) {
	return a.appendNormal(dst, normalize(s))
}

// appendNormal is appendTokens of text already normalized (normalize).
func (a *Analyzer) appendNormal(dst []string, s string) ([]string, int) {
	a = a.orSpec()
	est := 0
	scan(s, func(w string) {
		est++
		if t, ok := a.filter(w); ok {
			dst = append(dst, t)
		}
	}, func(run string) {
		est += utf8.RuneCountInString(run)
		dst = a.appendCJK(dst, run)
	})
	return dst, est
}

func (a *Analyzer) filter(w string) (string, bool) {
	for _, f := range a.filters {
		var ok bool
		if w, ok = f.Filter(w); !ok || w == "" {
			return "", false
		}
	}
	return w, true
}

func (a *Analyzer) appendCJK(dst []string, run string) []string {
	if a.seg != nil {
		if out, ok := a.seg.Segment(dst, run); ok {
			return out
		}
	}
	return appendBigrams(dst, run)
}

// Query is an analysed query: the distinct terms the index scores, and
// the words of the query each term came from, so that evidence can be
// shown as the person wrote it rather than as a stem.
type Query struct {
	// Terms are the distinct terms, sorted: what Search and Score take.
	Terms []string
	// words[i] are the query words (normalised, distinct, sorted) behind
	// Terms[i].
	words [][]string
	// ordered: the words of all terms, in term order, are strictly
	// increasing, so the words of any subset of the terms, taken in term
	// order, are distinct and sorted as they come.
	ordered bool
}

// Query analyses a query. The answer takes three allocations whatever
// the number of words (the terms, their word lists, and the words), plus
// what the filters make (a stem) and a long query's pair buffer.
func (a *Analyzer) Query(q string) Query {
	a = a.orSpec()
	type pair struct{ term, word string }
	var small [32]pair
	pairs := small[:0]
	var cjk []string // one buffer for every CJK run's terms
	scan(normalize(q), func(w string) {
		if t, ok := a.filter(w); ok {
			pairs = append(pairs, pair{t, w})
		}
	}, func(run string) {
		if n := len(run)/3 + 1; cap(cjk) < n { // a bigram per CJK rune, 3 bytes each
			cjk = make([]string, 0, n)
		}
		cjk = a.appendCJK(cjk[:0], run)
		for _, t := range cjk {
			pairs = append(pairs, pair{t, t})
		}
	})
	if len(pairs) == 0 {
		return Query{}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if c := strings.Compare(x.term, y.term); c != 0 {
			return c
		}
		return strings.Compare(x.word, y.word)
	})
	pairs = slices.Compact(pairs)
	nt := 1
	for i := 1; i < len(pairs); i++ {
		if pairs[i].term != pairs[i-1].term {
			nt++
		}
	}
	out := Query{Terms: make([]string, 0, nt), words: make([][]string, 0, nt)}
	wb := make([]string, len(pairs))
	start := 0
	for i, p := range pairs {
		wb[i] = p.word
		if i+1 == len(pairs) || pairs[i+1].term != p.term {
			out.Terms = append(out.Terms, p.term)
			out.words = append(out.words, wb[start:i+1:i+1])
			start = i + 1
		}
	}
	out.ordered = true
	for i := 1; i < len(wb); i++ {
		if wb[i] <= wb[i-1] {
			out.ordered = false
			break
		}
	}
	return out
}

// Words returns the query words behind terms (a subset of q.Terms, as
// Snapshot.Matched returns them), distinct and sorted: "running" rather
// than its stem "run". With an analyzer that has no filters the words are
// the terms themselves.
func (q Query) Words(terms []string) []string {
	if terms == nil {
		return nil
	}
	out := make([]string, 0, len(terms))
	same := true
	for _, t := range terms {
		i, ok := slices.BinarySearch(q.Terms, t)
		if !ok {
			out = append(out, t)
			continue
		}
		w := q.words[i]
		if len(w) != 1 || w[0] != t {
			same = false
		}
		out = append(out, w...)
	}
	if same {
		return out
	}
	slices.Sort(out)
	return slices.Compact(out)
}
