// Package index is recall's tokenizer and in-memory BM25 index (SPEC §3–4).
//
// # Tokenizer
//
// Text is NFKC-normalised and lower-cased. Non-CJK text becomes words
// (maximal runs of letters, marks and digits); CJK runs (Han, Hiragana,
// Katakana, Hangul and 'ー') become overlapping character bigrams, or
// dictionary words from gse when segmentation is on. Queries and documents
// must share one Tokenizer.
//
// Segmentation has three states. Off (the zero value) never loads gse.
// Auto and on load gse's embedded simplified-Chinese dictionary once per
// process, lazily, the first time a segmenting tokenizer sees CJK text;
// that costs about 2 s and 135 MB, which is why one-shot commands default
// to off. If the dictionary cannot be loaded both fall back to bigrams.
//
// # Index
//
// A Snapshot is an immutable Okapi BM25 index (k1 = 1.5, b = 0.75) over
// name + " " + content of every entry, tagged with the store revision it
// reflects. Writes derive new snapshots (With, Without) that share the
// bulk of the old one: an overlay of recent writes is scanned next to the
// base segment and folded into a new base once it grows past a few hundred
// documents. Scores are exact BM25 over the live documents at every step.
// Snapshots are safe for concurrent use; the package takes no context
// because it does no I/O.
//
// # Caveats
//
// Scores are comparable only within one query. The index lives in memory
// and is never written to disk; rebuilding it is cheap at personal-memory
// sizes (see docs/performance.md).
package index
