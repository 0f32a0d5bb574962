package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// --analyzer english matches word forms and shows the query's words, not
// stems; $RECALL_ANALYZER is its default; spec does not stem.
func TestRetrieveAnalyzer(t *testing.T) {
	dir := t.TempDir()
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "health", "routine", "--content", "She runs every morning.")
	matched := func(c *cli, args ...string) [][]string {
		t.Helper()
		var res struct {
			Items []struct {
				MatchedTerms []string `json:"matched_terms"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(c.ok(append([]string{"--store", dir, "retrieve", "--json"}, args...)...)), &res); err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, it := range res.Items {
			out = append(out, it.MatchedTerms)
		}
		return out
	}
	if got := matched(c, "running", "--analyzer", "spec"); len(got) != 0 {
		t.Errorf("spec matched %q", got)
	}
	if got := matched(c, "Running", "--analyzer", "english"); len(got) != 1 || !slices.Equal(got[0], []string{"running"}) {
		t.Errorf("english matched %q, want [[running]]", got)
	}
	env := newCLI(t, map[string]string{"RECALL_ANALYZER": "english-stop"})
	if got := matched(env, "the running"); len(got) != 1 || !slices.Equal(got[0], []string{"running"}) {
		t.Errorf("$RECALL_ANALYZER=english-stop matched %q", got)
	}
	if got := matched(env, "running", "--analyzer", "spec"); len(got) != 0 {
		t.Errorf("--analyzer spec did not override $RECALL_ANALYZER: %q", got)
	}
	if out := c.ok("--store", dir, "reindex", "--analyzer", "english", "--segmenter", "on"); !strings.HasSuffix(out, "(analyzer english+gse:zh_s)\n") {
		t.Errorf("reindex = %q", out)
	}
	if msg := c.fails(2, "--store", dir, "retrieve", "x", "--analyzer", "klingon"); !strings.Contains(msg, "--analyzer") || !strings.Contains(msg, "english") {
		t.Errorf("unknown analyzer: %q", msg)
	}
	bad := newCLI(t, map[string]string{"RECALL_ANALYZER": "klingon"})
	if msg := bad.fails(2, "--store", dir, "retrieve", "x"); !strings.Contains(msg, "RECALL_ANALYZER") {
		t.Errorf("bad $RECALL_ANALYZER: %q", msg)
	}
}
