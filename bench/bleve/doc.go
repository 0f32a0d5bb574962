// Command bleve runs recall and Bleve v2 side by side on BEIR datasets, in
// one process, and prints one report with both and the ratios between
// them.
//
// It lives in its own module so that recall's users never download Bleve:
// the root module does not require it (go mod why -m
// github.com/blevesearch/bleve/v2 says so).
//
//	cd bench/bleve
//	go run . -json ../../bench.json -svg ../../docs/benchmarks.svg DATASET...
//
// Bleve runs as a fair peer: an in-memory scorch index (bleve.NewMemOnly
// would pick the legacy index type, which ignores the scoring model), one
// text field holding title + " " + text, the standard analyzer for English
// and the cjk analyzer (width folding, lower case, bigrams) for Chinese,
// batches of 10,000 documents (in-memory scorch does not merge segments),
// and a match query for the top 100. Two modes: bleve-bm25 (scoring model
// "bm25") and bleve-tfidf (Bleve's default), since Bleve's BM25 scores
// below its own TF-IDF on these sets.
//
// The flags mirror `recall bench`; -mode takes recall's modes (bm25,
// bm25-gse, fusion) and bleve-bm25, bleve-tfidf, run in the order given.
package main
