// Package hash is a built-in embedder that needs no model and no network:
// feature hashing of recall's index terms (SPEC §3) plus the character
// n-grams of every word, fastText-style, into a fixed number of buckets,
// L2-normalised.
//
// Be clear about what it is: a fuzzy lexical signal. It matches
// morphology ("running" / "runs"), typos ("recieve" / "receive") and
// partial CJK overlap (bigrams sharing a character), which BM25's exact
// terms miss. It knows nothing of meaning: "car" and "automobile" are as
// far apart as any two words. It exists so that the fusion path can run,
// be tested and be benchmarked on real data with no model available, and
// as a modest offline improvement over BM25 alone (docs/benchmarks.md).
//
// Vectors depend only on the text and the Config, never on the process:
// the hash function is fixed, so vectors cached on disk stay valid. A
// change to the features must change the model identity.
package hash
