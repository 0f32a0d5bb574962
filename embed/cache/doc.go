// Package cache keeps embedding vectors of documents so that an unchanged
// entry is never embedded twice (SPEC §5).
//
// A Cache wraps any embed.Embedder. Vectors are keyed by (model identity,
// SHA-256 of the embedded text): editing an entry changes its key, so it is
// re-embedded; a different model has a separate key space, so vectors
// never mix. Persistence is a Backend; store/fs and store/bolt implement
// it, and each detects and drops corrupt or foreign-version data instead
// of trusting it.
//
// # Basics
//
//	c := cache.New(embedder, st.(cache.Backend), cache.Options{})
//	stats, err := c.Sync(ctx, indexedTexts, progress) // what `recall embed` does
//
// Sync embeds what is missing in batches, with at most Options.Concurrency
// calls in flight, stores each batch as soon as it returns (an interrupted
// sync keeps its progress), and prunes vectors no text needs any more.
// Identical misses requested concurrently are embedded once.
//
// # Caveats
//
// The model identity is read from the embedder when the Cache is made,
// before anything is embedded, since Load must know it to find the stored
// vectors. Providers that learn their dimension only from the first
// response report it later: the Cache of an OpenAI embedder without
// Dimensions stores its vectors under "openai:text-embedding-3-small"
// while the embedder, after its first answer, says
// "openai:text-embedding-3-small:1536". The cache keeps the identity it
// started with (so the next process, whose embedder has not answered yet,
// finds the same vectors), and readers compare dimensions before using a
// vector.
package cache
