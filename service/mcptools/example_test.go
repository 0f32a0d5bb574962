package mcptools_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	fsstore "github.com/recallhq/recall/store/fs"
)

// A Go program adds recall's tools to its own MCP server (here reached
// through an in-memory transport; a real one runs on stdio with
// mcptools.StdioTransport or on HTTP).
func Example() {
	dir, _ := os.MkdirTemp("", "recall-example")
	defer os.RemoveAll(dir)
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})

	srv := mcp.NewServer(&mcp.Implementation{Name: "my-agent-tools", Version: "1"}, nil)
	mcptools.Register(srv, m)

	ctx := context.Background()
	ct, sst := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, sst, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(res.Content[0].(*mcp.TextContent).Text, "\n")
	}
	call("add", map[string]any{"category": "people", "name": "Emma", "content": "Designer in Lisbon [[places:Lisbon]]", "tags": []string{"friend"}})
	call("retrieve", map[string]any{"query": "designer", "limit": 1, "expand_links": false})
	// Output:
	// added people:Emma
	// [hit] people:Emma (bm25 0.29; matched designer)
	// Designer in Lisbon [[places:Lisbon]]
	//
	// 1 item, 6/800 tokens.
}

// NewHTTPHandler serves the tools over MCP Streamable HTTP; mounted on
// the JSON API's handler, it has its token, Host and Origin checks (here
// a token, sent by the client on every request).
func ExampleNewHTTPHandler() {
	dir, _ := os.MkdirTemp("", "recall-example")
	defer os.RemoveAll(dir)
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})

	api, err := httpapi.New(m, httpapi.Options{Token: "s3cret"})
	if err != nil {
		log.Fatal(err)
	}
	api.Handle("/mcp", mcptools.NewHTTPHandler(m, mcptools.Options{}))
	srv := httptest.NewServer(api) // recall serve: httpapi.Serve(ctx, ln, api, logger)
	defer srv.Close()

	ctx := context.Background()
	client := &http.Client{Transport: bearer("s3cret")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	for _, call := range []mcp.CallToolParams{
		{Name: "add", Arguments: map[string]any{"category": "preferences", "name": "coffee", "content": "Flat white, no sugar."}},
		{Name: "retrieve", Arguments: map[string]any{"query": "coffee"}},
	} {
		res, err := cs.CallTool(ctx, &call)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// added preferences:coffee
	// [hit] preferences:coffee (bm25 0.29; matched coffee)
	// Flat white, no sugar.
	//
	// 1 item, 5/800 tokens.
}

// bearer sends a bearer token with every request.
type bearer string

func (t bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(t))
	return http.DefaultTransport.RoundTrip(r)
}
