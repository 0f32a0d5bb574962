package tenants_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/service/tenants"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A memories file: relative stores and token files are the file's
// folder's, URLs are kept, tokens come from files and the environment,
// and a Server made from it serves each memory with its tokens.
func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "alice.tokens"), "# alice\nalice-old\nalice-new\n")
	writeFile(t, filepath.Join(dir, "admin.tokens"), "admin-1\n")
	alice := newStore(t, "bolt")
	os.Rename(alice, filepath.Join(dir, "alice.db"))
	writeFile(t, filepath.Join(dir, "memories.yaml"), `# served by recall serve --memories
default: alice
admin_tokens: "@admin.tokens"
memories:
  - name: alice
    store: alice.db
    tokens: "@alice.tokens"
  - name: bob
    store: "postgres://recall@db.invalid/recall?schema=bob"
    tokens: [env:BOB_TOKEN]
`)
	env := func(k string) string { return map[string]string{"BOB_TOKEN": "bob-1"}[k] }
	c, err := tenants.ReadConfig(filepath.Join(dir, "memories.yaml"), env)
	if err != nil {
		t.Fatal(err)
	}
	if c.Default != "alice" || strings.Join(c.AdminTokens, ",") != "admin-1" || len(c.Memories) != 2 {
		t.Fatalf("%+v", c)
	}
	if m := c.Memories[0]; m.Store != filepath.Join(dir, "alice.db") || strings.Join(m.Tokens, ",") != "alice-old,alice-new" {
		t.Errorf("alice: %+v", m)
	}
	if m := c.Memories[1]; m.Store != "postgres://recall@db.invalid/recall?schema=bob" || strings.Join(m.Tokens, ",") != "bob-1" {
		t.Errorf("bob: %+v", m)
	}
	s, err := tenants.New(tenants.Options{Memories: c.Memories, AdminTokens: c.AdminTokens, Default: c.Default})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tok := range []string{"alice-old", "alice-new", "admin-1"} {
		if rec := do(s, "GET", "/v1/m/alice/entries/trips/sanya", "", tok); rec.Code != 200 {
			t.Errorf("token %s: %d %s", tok, rec.Code, rec.Body)
		}
	}
	if rec := do(s, "GET", "/v1/m/alice/entries/trips/sanya", "", "bob-1"); rec.Code != 404 {
		t.Errorf("bob's token on alice: %d", rec.Code)
	}

	// JSON is YAML too; flags add to the file, --default-memory wins.
	writeFile(t, filepath.Join(dir, "m.json"), `{"memories": [{"name": "alice", "store": "alice.db", "tokens": "@alice.tokens"}]}`)
	c, err = tenants.Flags{File: filepath.Join(dir, "m.json"), Memories: []string{"carol=" + newStore(t, "folder")},
		Tokens: []string{"carol=env:BOB_TOKEN", "alice=env:BOB_TOKEN"}, Default: "carol"}.Config(env)
	if err != nil || len(c.Memories) != 2 || c.Default != "carol" || len(c.Memories[0].Tokens) != 3 {
		t.Errorf("JSON file and flags: %+v %v", c, err)
	}
}

func TestReadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"memories:\n  - name: a\n    store: a.db\n    token: x\n", "line 4: field token not found"},
		{"memories:\n  - name: A\n    store: a.db\n", `memory 1: invalid memory name "A"`},
		{"memories:\n  - name: a\n", "memory a has no store"},
		{"default: a\n", "lists no memory"},
		{"memories:\n  - name: a\n    store: a.db\n    tokens: s3cret-literal\n", "@FILE"},
		{"memories:\n  - name: a\n    store: a.db\n    tokens: {x: 1}\n", "line 4: tokens are a source"},
		{"memories: [", "memories file"},
	} {
		p := filepath.Join(dir, "m.yaml")
		writeFile(t, p, c.text)
		_, err := tenants.ReadConfig(p, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := tenants.ReadConfig(filepath.Join(dir, "none.yaml"), nil); err == nil || !strings.Contains(err.Error(), "memories file") {
		t.Errorf("missing file: %v", err)
	}
}

// Check refuses a store of its own beside several memories, and the flags
// for several memories without them.
func TestFlagsCheck(t *testing.T) {
	given := func(names ...string) func(string) bool {
		return func(f string) bool { return slices.Contains(names, f) }
	}
	for _, tt := range []struct {
		f       tenants.Flags
		store   bool
		changed []string
		want    string // "" means no error
	}{
		{tenants.Flags{}, true, nil, ""},
		{tenants.Flags{Memories: []string{"a=a.db"}}, false, []string{"memory-token", "idle-close"}, ""},
		{tenants.Flags{File: "m.yaml"}, true, nil, "--store and --memory (or --memories) do not go together"},
		{tenants.Flags{Memories: []string{"a=a.db"}}, true, nil, "--store and --memory"},
		{tenants.Flags{}, false, []string{"memory-token"}, "--memory-token needs --memory NAME=STORE"},
		{tenants.Flags{}, true, []string{"default-memory"}, "--default-memory needs --memory NAME=STORE"},
		{tenants.Flags{}, false, []string{"idle-close"}, "--idle-close needs --memory NAME=STORE"},
	} {
		err := tt.f.Check(tt.store, given(tt.changed...))
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v store=%v changed=%v: %v, want %q", tt.f, tt.store, tt.changed, err, tt.want)
		}
		if tt.f.Several() != (len(tt.f.Memories) > 0 || tt.f.File != "") {
			t.Errorf("%+v: Several %v", tt.f, tt.f.Several())
		}
	}
}
