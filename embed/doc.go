// Package embed defines the contract between recall and its embedding
// providers: the Embedder interface, the vector helpers retrieval runs in
// its hot loop (Normalize, Dot), the typed errors every provider returns,
// and the Retry policy the network providers share.
//
// Providers live in sub-packages: embed/openai speaks the OpenAI-compatible
// /v1/embeddings API, embed/ollama speaks Ollama's /api/embed. A persistent
// vector cache wraps any Embedder; it is defined where it is used.
// embed/provider builds one of them (or embed/hash) from a provider name,
// as recall's --embedder flag chooses it.
//
// # Basics
//
// Embed returns one vector per input text, in input order. Every vector an
// Embedder returns has unit length (L2 norm 1), so the cosine similarity of
// two vectors is their dot product, which Dot computes. Providers normalise
// what the service sends rather than trusting it to do so; a service that
// sends a zero vector (which has no direction) or a vector of the wrong
// dimension makes Embed fail with ErrDimension instead of returning it.
//
// Model returns the identity of the vectors: "provider:model:dimension",
// for example "openai:text-embedding-3-small:1536". A provider learns the
// dimension from the first response when it was not configured, so before
// the first successful Embed the identity lacks it
// ("ollama:nomic-embed-text:latest"). A persistent cache must find its
// stored vectors before it embeds anything, so embed/cache reads Model
// once, when it is made: without a configured dimension its vectors are
// stored under the identity without one, and it and its readers compare
// each vector's dimension before using it. Two vectors with different
// identities or dimensions must never be compared.
//
// Embed with no texts returns (nil, nil) and sends nothing.
//
// # Errors
//
// Failures callers branch on are sentinel errors, checked with errors.Is:
// ErrUnauthorized, ErrRateLimited, ErrServer, ErrBadResponse, ErrDimension,
// ErrUnreachable and ErrConfig. An error that came from an HTTP status is
// also an *HTTPError (use errors.As) carrying the status code, the
// service's message and any Retry-After it asked for. Cancellation is
// reported with the context's own error (context.Canceled or
// context.DeadlineExceeded).
//
// # Retries
//
// Retry is the policy both network providers apply to each request:
// 408, 429 and 5xx responses (but 501 Not Implemented) and connection
// failures are retried with exponential backoff, or after the Retry-After
// the server asked for. 401, 403, other 4xx responses and malformed bodies
// fail at once. A wait that would outlast the context's deadline, or a
// Retry-After longer than Retry.MaxWait, is not started: the error is
// returned at once, its *HTTPError.RetryAfter telling when to come back.
//
// # Caveats
//
// Dot is pure Go: no assembly, no SIMD intrinsics. It is unrolled so the
// compiler keeps four independent accumulators, which matters more than
// vector width once the vectors no longer fit in cache; see the benchmarks
// in dot_test.go.
package embed
