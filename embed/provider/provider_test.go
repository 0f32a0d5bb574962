package provider

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"": None, "  ": None, " Hash ": Hash, "OPENAI": OpenAI, "ollama": Ollama, "bert": "bert"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
		if Known(Normalize(in)) == (want == "bert") {
			t.Errorf("Known(%q) = %v", want, !(want == "bert"))
		}
	}
}

func TestNew(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	if emb, err := New(Config{Provider: None}); emb != nil || err != nil {
		t.Fatalf("none: %v, %v; want nil, nil", emb, err)
	}
	emb, err := New(Config{Provider: Hash})
	if err != nil || !strings.HasPrefix(emb.Model(), "hash") {
		t.Fatalf("hash: %v, %v", emb, err)
	}
	if _, err := New(Config{Provider: Hash, URL: "http://x"}); err == nil {
		t.Fatal("hash took a URL")
	}
	if _, err := New(Config{Provider: "bert"}); err == nil || !strings.Contains(err.Error(), `"bert"`) {
		t.Fatalf("unknown provider: %v", err)
	}

	// The environment gives the endpoint when URL is empty: a bad one there
	// is the provider's error, so it was read.
	for _, tt := range []struct{ provider, key string }{{OpenAI, "OPENAI_BASE_URL"}, {Ollama, "OLLAMA_HOST"}} {
		env = map[string]string{tt.key: "ftp://nowhere", "OPENAI_API_KEY": "k"}
		if _, err := New(Config{Provider: tt.provider, Getenv: getenv}); err == nil {
			t.Errorf("%s: $%s=ftp://nowhere accepted", tt.provider, tt.key)
		}
		env = map[string]string{tt.key: "http://127.0.0.1:1", "OPENAI_API_KEY": "k"}
		emb, err := New(Config{Provider: tt.provider, Model: "m", Getenv: getenv})
		if err != nil || !strings.HasPrefix(emb.Model(), tt.provider+":m") {
			t.Errorf("%s: %v, %v; want a %s:m embedder", tt.provider, emb, err, tt.provider)
		}
		// URL wins over the environment.
		env[tt.key] = "ftp://nowhere"
		if _, err := New(Config{Provider: tt.provider, URL: "http://127.0.0.1:1", Getenv: getenv}); err != nil {
			t.Errorf("%s with URL: %v", tt.provider, err)
		}
	}
}
