package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

// connect returns a client session on NewServer over m, in memory.
func connect(t *testing.T, m *service.Memory) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := NewServer(m, Options{}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newMemory(t *testing.T) *service.Memory {
	t.Helper()
	st, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); st.Close() })
	return m
}

// unions lists the places in a JSON schema whose "type" is a list of
// types (["null","array"]) rather than one type, which strict clients
// (MCP Inspector's strict mode) warn about.
func unions(path string, v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["type"].([]any); ok {
			out = append(out, fmt.Sprintf("%s: type %v", path, v["type"]))
		}
		for k, c := range v {
			out = append(out, unions(path+"/"+k, c)...)
		}
	case []any:
		for i, c := range v {
			out = append(out, unions(fmt.Sprintf("%s/%d", path, i), c)...)
		}
	}
	return out
}

// Every tool's input and output schema, as tools/list sends it, uses one
// plain JSON type per value: no type unions anywhere.
func TestToolSchemasHaveNoTypeUnions(t *testing.T) {
	cs := connect(t, newMemory(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) == 0 {
		t.Fatal("no tools listed")
	}
	for _, tool := range res.Tools {
		for kind, s := range map[string]any{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			for _, u := range unions(tool.Name+"."+kind, v) {
				t.Error(u)
			}
		}
	}
}
