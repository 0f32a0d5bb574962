package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// ServeStdio answers a host that writes its requests and closes stdin,
// and then returns nil: the host hanging up is a normal end.
func TestServeStdio(t *testing.T) {
	m := newMemory(t)
	in := strings.NewReader(initFrame + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), m, in, &out, Options{}, nil); err != nil {
		t.Fatalf("ServeStdio = %v, want nil at the end of stdin", err)
	}
	ids := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a struct {
			ID    json.RawMessage `json:"id"`
			Error *struct{}       `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil || a.Error != nil {
			t.Fatalf("answer %q: %v", l, err)
		}
		ids[string(a.ID)] = true
	}
	if !ids["1"] || !ids["2"] {
		t.Errorf("answers %q, want initialize's and the ping's", out.String())
	}
	if err := ServeStdio(context.Background(), m, nil, &out, Options{}, nil); err == nil {
		t.Error("ServeStdio without stdin gave no error")
	}
}
