// Package index is recall's tokenizer and in-memory BM25 index (SPEC §3–4).
//
// # Analyzers
//
// An Analyzer turns text into terms with a fixed chain: NFKC and lower
// case; words (maximal runs of letters, marks and digits) and CJK runs
// (Han, Hiragana, Katakana, Hangul and 'ー'); CJK runs become overlapping
// character bigrams, or the words of a Segmenter; words pass through the
// analyzer's Filters (a stop list, a stemmer). Queries and documents must
// share one Analyzer; each Snapshot keeps the one it was built with, and
// the analyzer's Name ("spec", "english", "english-stop",
// "spec+gse:zh_s") identifies the terms it makes.
//
// Built in: Spec, the SPEC §3 tokenizer, which the conformance cases pin;
// English, which adds Snowball English stemming of Latin-script words
// (github.com/blevesearch/snowballstem: "running" → "run"; CJK terms,
// words with digits and other scripts are left alone); EnglishStop, which
// also drops Lucene's 33 English stop words, as Lucene's EnglishAnalyzer
// does. Default (DefaultAnalyzer) is EnglishStop, chosen on the
// measurements in docs/benchmarks.md. Query.Words maps matched terms back
// to the words of the query, so evidence reads "running", not "run".
//
// Dictionary segmentation is not in this package: index/gse provides a
// Segmenter backed by gse and the off/auto/on modes of SPEC §3, so that
// programs that do not ask for it do not link gse's dictionaries.
//
// # Index
//
// A Snapshot is an immutable Okapi BM25 index (k1 = 1.5, b = 0.75) over
// name + " " + content of every entry (IndexText: with the entry's
// aliases, Input.Aliases, after the name), tagged with the store revision
// it reflects. Titled finds the documents whose name or alias is made of
// exactly a query's terms (titles.go), which retrieve ranks first. Writes
// derive new snapshots (With, Without, or Apply for a batch of them in one
// merge) that share the bulk of the old one: an overlay of recent writes is
// scanned next to the base segment and folded into a new base (Compact)
// once it grows past a few hundred documents (n/64 of a large index, at
// most 2,048). Scores are exact BM25 over the live documents at every step.
// Snapshots are safe for concurrent use; the package takes no context
// because it does no I/O. The one thing a query writes is a cache: the
// impact order of a long posting list (impact.go) and the membership
// bitmap of a dense one (dense.go), each made by the first query that
// needs it and published in a sync.Map on the base segment, which the
// snapshots sharing that segment read; two queries that race make the same
// one and the first stored is kept. A segment spends a bounded number of
// bytes per document on them (cachebudget.go); past it, queries take
// paths that need none. A query's working room (the
// accumulator, its plan and heap) comes from sync.Pools: each query owns
// what it took until it puts it back, and nothing in it outlives the call
// (AppendTop and AppendMatchedWords write their answers into the caller's
// buffers).
//
// Top plans a query (plan.go: idf, posting lists, overlay hits; the plan
// is also the query's state, and the scorers are its methods) and picks
// one of four scorers for its shape in one function, choose (choose.go,
// whose table tests pin the scorer of each shape): the impact path for
// one long list with short others (impact.go), the pruned MaxScore walk
// with block-max skipping (pruned.go), a single-list loop (onelist.go),
// or the exhaustive term-at-a-time accumulator (exhaustive.go). Inside a
// time range (TopQuery.Within, built by Snapshot.In from the documents'
// dates, dated.go) every scorer skips the documents outside it on their
// rank in date order, one read, and the exhaustive one, which then reads
// only its lists' postings or probes its dense lists for the range's
// documents (within.go), answers when it costs less. They keep
// their top k in one heap (heap.go), which admits only a range's
// documents when there is one, also finds their thresholds
// and sorts the answer. Every one sums a document's weights in term
// order from 0, so they agree to the bit; TopQuery.Pruning = PruneNever
// forces the accumulator, the reference the equivalence tests compare
// against. Equal scores rank by category, then name: a base segment keeps
// its documents in that order (Build sorts them, Decode refuses a copy
// that is not), so a tie between two of them compares their ords, and an
// overlay document records its place among them.
//
// Snapshot.Except narrows such a set (or the whole snapshot) further by
// a bitset of ords, so a caller's own rule (retrieve's superseded and
// expired entries) filters before ranking too; Input.Extra is data a
// caller keeps with a document (sparse, persisted), which the index never
// reads (extra.go, except.go).
//
// # Caveats
//
// Scores are comparable only within one query. A query made only of stop
// words ("to be or not to be") has no terms under EnglishStop: BM25 finds
// nothing for it, as in Lucene; Spec keeps every word. The index lives in
// memory; the package writes nothing to disk itself. Encode gives a copy
// that a store may keep beside its entries and Decode loads it back (the
// retrieve package does this), but the copy is disposable: anything stale
// or damaged is built again from the entries (see docs/performance.md).
package index
