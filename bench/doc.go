// Package bench measures recall on BEIR test collections: does it find the
// right memory, and how fast. It backs `recall bench` and the Bleve
// comparison in bench/bleve (a separate module, so that recall's users
// never download Bleve).
//
// # Basics
//
//	ds, err := bench.Load("data/msmarco") // corpus.jsonl, queries.jsonl, qrels/test.tsv
//	modes, err := bench.RecallModes([]string{bench.ModeBM25}, bench.RecallOptions{})
//	rep, err := bench.Run(ctx, bench.Config{Modes: modes}, []*bench.Dataset{ds})
//	rep.WriteTable(os.Stdout) // also WriteJSON, WriteSVG
//	err = bench.WriteFile("bench.json", rep.WriteJSON) // whole or not at all
//
// Each mode gets a fresh Subject per dataset. A recall subject loads the
// corpus into a new temporary store (bolt without fsync by default, or fs),
// one entry per document: category = the dataset's name, name =
// EntryName(document id), content = title + " " + text. It builds the
// index with retrieve.Engine.Rebuild and answers with Engine.Retrieve (top
// 100, no links, no budget). Ids that SPEC §1 does not accept as names
// (dbpedia's "<dbpedia:Foo_Bar>") are escaped reversibly and mapped back
// in the results and run files.
//
// Every recall mode runs with RecallOptions.Retrieve.Analyzer (nil:
// index.Default()); a mode whose analyzer is not the default is named
// after it ("bm25-spec", "fusion-hash-english"), so one report can hold
// several. ModeBM25PRF ranks with RM3 pseudo-relevance feedback on the
// snapshot (prf.go): an experiment that stayed out of the library.
//
// The runner times loading, building, embedding (fusion), and every query
// on its own (time.Now around the call, one goroutine): one warm-up pass
// gives the rankings the quality figures come from, then timed passes give
// p50, p99 and queries per second. For recall it also times the BM25
// ranking alone and the default agent retrieve (limit 10, budget 800,
// links on). Memory is the heap's peak while loading and building and
// what it keeps after, both above the heap before the mode, and the
// resident set's peak (Linux, reset per mode).
//
// Queries are read as words only (retrieve.Request.NoTime): the corpora
// carry no dates, and a question such as "2010年世界杯在哪里" is about a
// year's events, not about entries written in that year; read as a time
// range it would leave no candidates.
//
// # Metrics
//
// Evaluate computes nDCG@10, Recall@10, Recall@100 and MRR@10 as trec_eval
// does: the qrels' grade is the gain (not 2^grade − 1), the discount is
// log2(rank + 1), the ideal ranking comes from the qrels, grade 0 is not
// relevant, ties in score are ordered by document id descending. WriteRun
// writes the same rankings as TREC run files, so any standard evaluator
// can check the figures.
//
// # Caveats
//
// Latency figures depend on the machine and on whatever else runs on it:
// compare modes and systems within one run, as ratios. The gse dictionary
// loads once per process (seconds, over 100 MB) and stays: that load is
// reported on its own, outside build and query times, and modes that run
// after it share the process with it. The fusion mode appends spaces to a
// repeated query, so that every timed query pays its embedding as a new
// question would, instead of hitting the engine's query-vector cache.
package bench
