// Package provider builds an embed.Embedder from a provider name and its
// settings, as `recall --embedder PROVIDER --embed-model NAME --embed-url
// URL` and $RECALL_EMBEDDER choose one:
//
//	emb, err := provider.New(provider.Config{Provider: provider.Normalize(os.Getenv("RECALL_EMBEDDER"))})
//	if err != nil {
//		return err
//	}
//	// emb is nil for "none": retrieve then ranks with BM25 alone.
//
// The providers are none, hash (embed/hash: offline, no model), openai
// (embed/openai, any OpenAI-compatible /v1/embeddings service; the key is
// $OPENAI_API_KEY) and ollama (embed/ollama). A program that always uses
// one provider can import its package directly; this one links them all.
package provider
