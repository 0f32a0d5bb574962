// Package ollama is an embed.Embedder for a local or remote Ollama server,
// using its /api/embed endpoint through github.com/ollama/ollama/api.
//
// # Basics
//
//	e, err := ollama.New(ollama.Config{}) // $OLLAMA_HOST or 127.0.0.1:11434, nomic-embed-text
//	vecs, err := e.Embed(ctx, []string{"likes the sea", "海边玩"})
//	e.Model() // "ollama:nomic-embed-text:latest:768" once the first answer came
//
// Texts are sent in batches of Config.BatchSize, one batch after another.
// The vectors are checked (one per input, one dimension for all of them and
// for every later call) and normalised to unit length; Ollama normalises
// them itself, but the contract of embed does not depend on it.
//
// The identity in Model spells the model with its tag (":latest" when none
// was given), because Ollama treats both spellings as one model.
//
// # Errors
//
// A failure status becomes an *embed.HTTPError; the api package's own
// error types do not escape. A model that was never pulled is a 404 whose
// message says so; it matches no sentinel and is not retried. 408, 429,
// 5xx and connection failures (the server not running) are retried per
// Config.Retry; to fail fast when the server is down, set
// Retry.MaxAttempts to 1.
//
// # Caveats
//
// New contacts nothing, so a wrong host or a missing model only shows on
// the first Embed.
package ollama
