package setup_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/location"
)

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func ptr(f float64) *float64 { return &f }

// Check names the setting at fault, in the words recall prints, and
// builds nothing.
func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name    string
		c       setup.Config
		setting string // "" for no error
		msg     string
	}{
		{"zero value", setup.Config{Getenv: env()}, "", ""},
		{"every setting", setup.Config{Analyzer: "spec", Segmenter: "auto", Embedder: "HASH", Alpha: ptr(1), Getenv: env()}, "", ""},
		{"unknown analyzer", setup.Config{Analyzer: "french", Getenv: env()}, "--analyzer", `--analyzer: unknown analyzer "french"`},
		{"unknown analyzer from the environment", setup.Config{Getenv: env("RECALL_ANALYZER", "klingon")}, "$RECALL_ANALYZER", `$RECALL_ANALYZER: unknown analyzer "klingon"`},
		{"the flag wins over the environment", setup.Config{Analyzer: "english", Getenv: env("RECALL_ANALYZER", "klingon")}, "", ""},
		{"segmenter", setup.Config{Segmenter: "maybe", Getenv: env()}, "--segmenter", `--segmenter: unknown segmentation mode "maybe"`},
		{"alpha zero", setup.Config{Alpha: ptr(0), Getenv: env()}, "--alpha", "--alpha 0 is outside (0, 1]"},
		{"alpha above one", setup.Config{Alpha: ptr(1.5), Getenv: env()}, "--alpha", "--alpha 1.5 is outside (0, 1]"},
		{"hash takes no URL", setup.Config{Embedder: "hash", EmbedURL: "http://x", Getenv: env()}, "--embed-url", "--embed-url makes no sense with --embedder hash"},
		{"unknown embedder", setup.Config{Embedder: "Word2Vec", Getenv: env()}, "--embedder", `unknown embedder "word2vec" (want none, hash, openai or ollama)`},
		{"unknown embedder from the environment", setup.Config{Getenv: env("RECALL_EMBEDDER", "bert")}, "--embedder", `unknown embedder "bert"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Check()
			if tt.setting == "" {
				if err != nil {
					t.Fatalf("Check = %v", err)
				}
				return
			}
			var se *setup.Error
			if !errors.As(err, &se) || se.Setting != tt.setting || !strings.HasPrefix(err.Error(), tt.msg) {
				t.Fatalf("Check = %#v, want setting %s, message %q...", err, tt.setting, tt.msg)
			}
		})
	}
}

// Options builds the engine the settings name: the analyzer (with gse
// attached, not loaded, when segmentation is on), the store's index copy,
// and with an embedder the store's vector cache.
func TestOptions(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opts, err := setup.Config{Getenv: env("RECALL_ANALYZER", "english")}.Options(st)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Analyzer.Name() != "english" || opts.Embedder != nil || opts.Vectors != nil {
		t.Errorf("from the environment: analyzer %s, embedder %v, vectors %v", opts.Analyzer.Name(), opts.Embedder, opts.Vectors)
	}
	if opts.Persist == nil {
		t.Error("no index copy in the store")
	}
	opts, err = setup.Config{Segmenter: "on", Embedder: "hash", Alpha: ptr(0.5), Getenv: env()}.Options(st)
	if err != nil {
		t.Fatal(err)
	}
	if got := opts.Analyzer.Name(); got != index.DefaultAnalyzer+"+gse:zh_s" {
		t.Errorf("analyzer %s", got)
	}
	if gse.Loaded() {
		t.Error("the gse dictionary was loaded before any CJK text")
	}
	if opts.Embedder == nil || opts.Vectors == nil || opts.Alpha != 0.5 {
		t.Errorf("embedder %v, vectors %v, alpha %v", opts.Embedder, opts.Vectors, opts.Alpha)
	}
	if _, err := (setup.Config{Analyzer: "nope", Getenv: env()}).Options(st); err == nil {
		t.Error("Options with an unknown analyzer succeeded")
	}
}

func TestRefillHint(t *testing.T) {
	for _, tt := range []struct {
		c    setup.Config
		want string
	}{
		{setup.Config{}, "run `recall embed` to embed them again"},
		{setup.Config{Embedder: "ollama", EmbedModel: "nomic-embed-text"}, "run `recall embed --embedder ollama --embed-model nomic-embed-text` to embed them again"},
	} {
		if got := tt.c.RefillHint(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.c, got, tt.want)
		}
	}
}

// OpenMemory refuses a missing store unless asked to create it, and a
// bad setting closes the store it opened.
func TestOpenMemory(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	_, _, err := setup.Config{Getenv: env()}.OpenMemory(ctx, path, location.Options{}, nil)
	if !errors.Is(err, location.ErrNotExist) || !strings.Contains(err.Error(), "pass --create") {
		t.Fatalf("a missing store: %v", err)
	}
	if _, _, err := (setup.Config{Analyzer: "nope", Getenv: env()}).OpenMemory(ctx, path, location.Options{Create: true}, nil); err == nil {
		t.Fatal("an unknown analyzer gave a Memory")
	}
	m, loc, err := setup.Config{Getenv: env()}.OpenMemory(ctx, path, location.Options{Create: true}, nil) // the bolt file is free again
	if err != nil {
		t.Fatal(err)
	}
	defer m.Store().Close()
	defer m.Close()
	if loc.Backend != location.Bolt || loc.String() == "" {
		t.Errorf("location %v", loc)
	}
}

// Opener never creates a store, even when asked to, names no --create in
// its error, and its close function frees the store for the next opener.
func TestOpener(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	open := setup.Config{Getenv: env()}.Opener(path, location.Options{Create: true})
	if _, _, err := open(ctx); !errors.Is(err, location.ErrNotExist) || strings.Contains(err.Error(), "--create") {
		t.Fatalf("a missing store: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the opener created %s: %v", path, err)
	}
	m, _, err := setup.Config{Getenv: env()}.OpenMemory(ctx, path, location.Options{Create: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	m.Store().Close()
	for range 2 { // the bolt file's lock is released by done
		m, done, err := open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "x"}); err != nil {
			t.Fatal(err)
		}
		done()
	}
}
