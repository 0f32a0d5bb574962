package provider

import (
	"fmt"
	"os"
	"strings"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/embed/ollama"
	"github.com/recallhq/recall/embed/openai"
)

// The provider names, as --embedder and $RECALL_EMBEDDER take them.
const (
	None   = "none"
	Hash   = "hash"
	OpenAI = "openai"
	Ollama = "ollama"
)

// Config chooses and configures an embedder.
type Config struct {
	// Provider is None, Hash, OpenAI or Ollama; Normalize reads what a
	// person typed.
	Provider string
	// Model is the provider's model name; "" is the provider's default
	// (openai: text-embedding-3-small; ollama: nomic-embed-text).
	Model string
	// URL is the endpoint. "" means $OPENAI_BASE_URL for openai and
	// $OLLAMA_HOST for ollama, else the provider's default. hash takes
	// none.
	URL string
	// Getenv looks up the environment ($OPENAI_API_KEY, $OPENAI_BASE_URL,
	// $OLLAMA_HOST); nil means os.Getenv.
	Getenv func(string) string
}

// Normalize returns the provider name s names: trimmed, lower-cased, and
// None for "".
func Normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		s = None
	}
	return s
}

// Known reports whether name (normalized) is a provider New builds.
func Known(name string) bool {
	switch name {
	case None, Hash, OpenAI, Ollama:
		return true
	}
	return false
}

// New returns the embedder c chooses, or nil for None.
func New(c Config) (embed.Embedder, error) {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	switch c.Provider {
	case None:
		return nil, nil
	case Hash:
		if c.URL != "" {
			return nil, fmt.Errorf("the hash embedder takes no URL, got %q", c.URL)
		}
		return hash.New(hash.Config{})
	case OpenAI:
		base := c.URL
		if base == "" {
			base = getenv("OPENAI_BASE_URL")
		}
		return openai.New(openai.Config{APIKey: getenv("OPENAI_API_KEY"), BaseURL: base, Model: c.Model})
	case Ollama:
		host := c.URL
		if host == "" {
			host = getenv("OLLAMA_HOST")
		}
		return ollama.New(ollama.Config{Host: host, Model: c.Model})
	default:
		return nil, fmt.Errorf("unknown embedder %q (want none, hash, openai or ollama)", c.Provider)
	}
}
