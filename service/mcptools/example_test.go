package mcptools_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
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
