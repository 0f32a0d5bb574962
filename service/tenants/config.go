package tenants

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/recallhq/recall/store/location"
)

// Config is what a memories file gives (ReadConfig, `recall serve
// --memories FILE`): the memories with their tokens read, the default
// memory and the admin tokens.
type Config struct {
	Memories    []Memory
	Default     string
	AdminTokens []string
}

// configFile is the file's shape. Token sources are ReadTokens's: @FILE
// or env:VAR, one or a list.
type configFile struct {
	Default     string    `yaml:"default"`
	AdminTokens sources   `yaml:"admin_tokens"`
	Memories    []memFile `yaml:"memories"`
}

type memFile struct {
	Name   string  `yaml:"name"`
	Store  string  `yaml:"store"`
	Tokens sources `yaml:"tokens"`
}

// sources is one token source or a list of them.
type sources []string

func (s *sources) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*s = sources{n.Value}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return fmt.Errorf("line %d: tokens are a source (@FILE or env:VAR) or a list of them", n.Line)
	}
	*s = list
	return nil
}

// ReadConfig reads a memories file, YAML (or JSON, which YAML reads too):
//
//	# recall serve --memories /etc/recall/memories.yaml
//	default: alice                       # optional: also served at /v1/... and /mcp
//	admin_tokens: "@/etc/recall/admin.tokens"   # optional: reach every memory
//	memories:
//	  - name: alice
//	    store: /srv/recall/alice.db
//	    tokens: "@alice.tokens"          # a file of tokens, one a line
//	  - name: bob
//	    store: "postgres://recall@db/recall?schema=bob"
//	    tokens: [env:RECALL_TOKEN_BOB, "@bob.next.tokens"]
//
// Token sources are ReadTokens's (@FILE or env:VAR): a memories file holds
// no token itself, so it can be shared and kept in version control.
// Relative paths (stores that are not URLs, @FILE sources) are relative to
// the file's folder. Unknown keys are errors, with their line. getenv nil
// means os.Getenv.
func ReadConfig(path string, getenv func(string) string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("memories file: %w", err)
	}
	var f configFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("memories file %s: %w", path, err)
	}
	if len(f.Memories) == 0 {
		return Config{}, fmt.Errorf("memories file %s lists no memory (memories: - name: ... store: ...)", path)
	}
	base := filepath.Dir(path)
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, p)
	}
	readAll := func(srcs sources) ([]string, error) {
		var toks []string
		for _, src := range srcs {
			if strings.HasPrefix(src, "@") {
				src = "@" + rel(src[1:])
			}
			t, err := ReadTokens(src, getenv)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t...)
		}
		return toks, nil
	}
	c := Config{Default: f.Default}
	if c.AdminTokens, err = readAll(f.AdminTokens); err != nil {
		return Config{}, fmt.Errorf("memories file %s: admin_tokens: %w", path, err)
	}
	for i, m := range f.Memories {
		if err := ValidateName(m.Name); err != nil {
			return Config{}, fmt.Errorf("memories file %s: memory %d: %w", path, i+1, err)
		}
		if m.Store == "" {
			return Config{}, fmt.Errorf("memories file %s: memory %s has no store", path, m.Name)
		}
		st := m.Store
		if loc, err := location.Parse(st); err == nil && loc.Backend != location.Postgres {
			st = rel(st)
		}
		toks, err := readAll(m.Tokens)
		if err != nil {
			return Config{}, fmt.Errorf("memories file %s: memory %s: %w", path, m.Name, err)
		}
		c.Memories = append(c.Memories, Memory{Name: m.Name, Store: st, Tokens: toks})
	}
	return c, nil
}

// Flags are `recall serve`'s flags for several memories: --memories FILE,
// --memory NAME=STORE, --memory-token NAME=SOURCE, --default-memory NAME,
// --idle-close DURATION.
type Flags struct {
	File      string
	Memories  []string
	Tokens    []string
	Default   string
	IdleClose time.Duration
}

// Several reports whether the flags name memories to serve (--memory or
// --memories).
func (f Flags) Several() bool { return len(f.Memories) > 0 || f.File != "" }

// Check reports a combination of flags that does not go together: a store
// of its own (storeGiven: --store was given) beside several memories, or
// a flag for several memories (changed says whether a flag was given)
// without them.
func (f Flags) Check(storeGiven bool, changed func(flag string) bool) error {
	if f.Several() {
		if storeGiven {
			return errors.New("--store and --memory (or --memories) do not go together: give every memory with --memory NAME=STORE or in the --memories file (and --default-memory NAME for the /v1 and /mcp routes)")
		}
		return nil
	}
	for _, fl := range []string{"memory-token", "default-memory", "idle-close"} {
		if changed(fl) {
			return fmt.Errorf("--%s needs --memory NAME=STORE (it is for serving several memories)", fl)
		}
	}
	return nil
}

// Config reads the file (ReadConfig), if any, and adds the memories and
// tokens of the flags (ParseFlags); Default, when set, overrides the
// file's.
func (f Flags) Config(getenv func(string) string) (Config, error) {
	var c Config
	if f.File != "" {
		var err error
		if c, err = ReadConfig(f.File, getenv); err != nil {
			return Config{}, err
		}
	}
	mems, err := ParseFlags(c.Memories, f.Memories, f.Tokens, getenv)
	if err != nil {
		return Config{}, err
	}
	c.Memories = mems
	if f.Default != "" {
		c.Default = f.Default
	}
	return c, nil
}

// HasTokens reports whether c gives any token, to a memory or as an admin
// token: a server off loopback needs one.
func (c Config) HasTokens() bool {
	for _, m := range c.Memories {
		if len(m.Tokens) > 0 {
			return true
		}
	}
	return len(c.AdminTokens) > 0
}
