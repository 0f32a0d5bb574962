package mcptools

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
)

// serveHTTP mounts NewHTTPHandler at /mcp of an httpapi.Handler, as
// `recall serve` does, on a real loopback listener, and returns its URL.
func serveHTTP(t testing.TB, m *service.Memory, opts httpapi.Options) string {
	t.Helper()
	api, err := httpapi.New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	api.Handle("/mcp", NewHTTPHandler(m, Options{}))
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// connectHTTP connects the SDK's own Streamable HTTP client to url,
// speaking protocol version (""; the client's newest).
func connectHTTP(t testing.TB, url string, client *http.Client, version string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// toolsJSON is every tool as the client lists it, as JSON.
func toolsJSON(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Tools)
	return string(b)
}

// Over HTTP the server offers what it offers on stdio: the same
// instructions, the same tools with the same schemas, the same answers;
// for every protocol version a client may speak.
func TestHTTPServesTheSameServer(t *testing.T) {
	m := newMemory(t)
	url := serveHTTP(t, m, httpapi.Options{})
	local := connect(t, m)
	wantTools := toolsJSON(t, local)
	callTool(t, local, "add", map[string]any{"category": "people", "name": "Emma", "content": "Designer in Lisbon.", "tags": []string{"friend"}})
	args := map[string]any{"query": "designer", "limit": 1}
	want := callTool(t, local, "retrieve", args)

	for _, v := range []string{"", "2025-11-25", "2025-06-18", "2025-03-26"} {
		cs, err := connectHTTP(t, url, nil, v)
		if err != nil {
			t.Fatalf("version %q: connect: %v", v, err)
		}
		if got := cs.InitializeResult().Instructions; got != Instructions {
			t.Errorf("version %q: instructions %q", v, got)
		}
		if got := toolsJSON(t, cs); got != wantTools {
			t.Errorf("version %q: tools differ from stdio's:\n%s\nwant\n%s", v, got, wantTools)
		}
		got := callTool(t, cs, "retrieve", args)
		if text(got) != text(want) || !reflect.DeepEqual(got.StructuredContent, want.StructuredContent) {
			t.Errorf("version %q: retrieve answered %q, want %q", v, text(got), text(want))
		}
	}
}
