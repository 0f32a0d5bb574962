// Package openai is an embed.Embedder for OpenAI's /v1/embeddings API and
// the many servers that speak it (Azure excepted: it authenticates
// differently), built on github.com/sashabaranov/go-openai.
//
// # Basics
//
//	e, err := openai.New(openai.Config{}) // $OPENAI_API_KEY, text-embedding-3-small
//	vecs, err := e.Embed(ctx, []string{"likes the sea", "海边玩"})
//	e.Model() // "openai:text-embedding-3-small:1536" once the first answer came
//
// Texts are sent in batches of Config.BatchSize (the API takes at most
// 2048 inputs per request), one batch after another, with encoding_format
// "float". Vectors are put back in input order by their index field, checked
// (one per input, every index once, one dimension for all of them and for
// every later call) and normalised to unit length.
//
// # Errors
//
// A failure status becomes an *embed.HTTPError (401 and 403 match
// embed.ErrUnauthorized, 429 embed.ErrRateLimited, 5xx embed.ErrServer);
// go-openai's own error types do not escape. 408, 429, 5xx and connection
// failures are retried per Config.Retry, honouring the retry-after-ms and
// Retry-After headers OpenAI sends with a 429. Anything else fails at once.
//
// # Caveats
//
// Model names the model as configured; the endpoint is not part of the
// identity, so two servers serving different weights under one model name
// would share cached vectors.
//
// OpenAI rejects inputs longer than the model's context (8192 tokens for
// text-embedding-3-*) with a 400 and empty strings likewise; this package
// does not cut texts down.
package openai
