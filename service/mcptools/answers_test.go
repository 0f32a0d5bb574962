package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/internal/sample"
	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

var update = flag.Bool("update", false, "rewrite testdata/answers.golden")

// The tools' answers (text and structured content) over the sample
// memory, byte for byte as testdata/answers.golden holds them. The golden
// file was written by the code before prompts and resources were added
// (issue 25), which left every tool answer as it was.
func TestToolAnswersByteForByte(t *testing.T) {
	st, err := fsstore.Open(sample.Copy(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); st.Close() })
	cs := connect(t, m)
	var got bytes.Buffer
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"retrieve", map[string]any{"query": "想去海边玩"}},
		{"retrieve", map[string]any{"query": "peanut allergy", "limit": 3, "budget_tokens": 0, "explain": true}},
		{"retrieve", map[string]any{"query": "coffee", "categories": []string{"daily_life"}, "expand_links": false}},
		{"retrieve", map[string]any{"query": "", "after": "2025-05-01", "before": "2025-06-01", "now": "2025-06-04T09:00:00+08:00"}},
		{"retrieve", map[string]any{"query": "last week", "now": "2025-06-04T09:00:00+08:00"}},
		{"retrieve", map[string]any{"query": "quantum chromodynamics"}},
		{"retrieve", map[string]any{"query": "x", "limit": 0}},
		{"get", map[string]any{"category": "trips", "name": "三亚之行"}},
		{"get", map[string]any{"category": "trips", "name": "nowhere"}},
		{"list", map[string]any{"limit": 3}},
		{"list", map[string]any{"category": "people"}},
		{"categories", map[string]any{}},
		{"append", map[string]any{"category": "people", "name": "小雨", "text": "Moved to Hangzhou."}},
		{"edit", map[string]any{"category": "people", "name": "小雨", "old_text": "Moved to Hangzhou.", "new_text": "Moved to Suzhou."}},
		{"edit", map[string]any{"category": "people", "name": "小雨", "old_text": "absent", "new_text": ""}},
		{"add", map[string]any{"category": "notes", "name": "golden", "content": "first\nsecond", "tags": []string{"a"}}},
		{"add", map[string]any{"category": "notes", "name": "golden", "content": "replaced"}},
		{"add", map[string]any{"category": "notes", "name": "golden", "content": "x", "if_absent": true}},
		{"delete", map[string]any{"category": "notes", "name": "golden"}},
		{"delete", map[string]any{"category": "notes", "name": "golden"}},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(struct {
			Tool string         `json:"tool"`
			Args map[string]any `json:"args"`
			*mcp.CallToolResult
		}{c.name, c.args, res})
		if err != nil {
			t.Fatal(err)
		}
		got.Write(b)
		got.WriteByte('\n')
	}
	golden := filepath.Join("testdata", "answers.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Errorf("answer %d differs:\n got %s\nwant %s", i, gl[i], wl[i])
			}
		}
		if len(gl) != len(wl) {
			t.Errorf("%d answers, want %d", len(gl), len(wl))
		}
	}
}
