// Package fusion combines the two scores of hybrid retrieval, BM25 and
// cosine similarity, into one, as SPEC §6 defines it:
//
//	fused = α·mm(bm25) + (1−α)·mm(cos)
//
// where mm is min-max normalisation over the query's candidates and α is
// DefaultAlpha (0.5) unless configured.
//
// It is pure arithmetic over plain, index-aligned slices: it imports
// neither the store nor the index, takes no context and keeps no state, so
// every function is safe for concurrent use.
//
// # Basics
//
// The candidates C of a query are the entries with a BM25 score above 0
// and the entries with a cached vector. Fuse takes per-entry slices — all
// entries or only the candidates, the result is the same — and returns one
// fused score per entry. Entries outside C score exactly 0.
//
// Both sides are scaled to [0, 1] over C: (x − min) / (max − min). When
// max == min, mm is 1 if that value is above 0, else 0: a single BM25 match
// gets the full BM25 weight, while a side where nothing scored stays at 0.
//
// # Reading of the spec
//
// "An entry without a vector has no cos_score and contributes 0 on that
// side." Fuse reads this as: the cosine minimum and maximum are taken over
// the candidates that have a vector only, and an entry without one adds 0
// after normalisation. Counting a missing vector as a cosine of 0 instead
// would let a query whose cosines are all negative rank vector-less
// entries above every embedded one, and would shift the scale of the
// embedded entries by the mere presence of unembedded ones.
//
// The BM25 side, by contrast, is normalised over all of C, including
// vector-only candidates whose BM25 is 0, as the spec says; so the BM25
// minimum is 0 as soon as one candidate matched no query term.
//
// # Caveats
//
// A fused score of 0 means "not a hit" (SPEC §6), and that includes a
// candidate that sits at the minimum of both sides (or of the BM25 side,
// when it has no vector): the weakest candidate of a query drops out. The
// caller keeps entries with score > 0, exactly as it does for pure BM25.
//
// Scores are comparable only within one query. Inputs must be finite.
package fusion
