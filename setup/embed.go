package setup

import (
	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/service"
)

// Embed is an embed run's settings as a person gives them (recall embed's
// --batch and --concurrency, with the embedder flags in a Config).
type Embed struct {
	Batch, Concurrency int
}

// Embedder checks e and the embedder c names, which must be one (none is
// nothing to embed with), and returns it with the options of the run
// (service.EmbedAll). A setting at fault is an *Error naming its flag.
func (e Embed) Embedder(c Config) (embed.Embedder, service.EmbedOptions, error) {
	if e.Batch < 1 || e.Concurrency < 1 {
		return nil, service.EmbedOptions{}, &Error{"--batch", "--batch and --concurrency must be at least 1"}
	}
	emb, err := c.NewEmbedder()
	if err != nil {
		return nil, service.EmbedOptions{}, err
	}
	if emb == nil {
		return nil, service.EmbedOptions{}, &Error{"--embedder", "choose an embedder with --embedder (hash works offline)"}
	}
	return emb, service.EmbedOptions{BatchSize: e.Batch, Concurrency: e.Concurrency}, nil
}
