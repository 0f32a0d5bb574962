package mcptools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func readText(t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri || res.Contents[0].MIMEType != "text/markdown" || res.CacheScope != "private" {
		t.Fatalf("read %s: %+v", uri, res)
	}
	return res.Contents[0].Text
}

// An entry's URI encodes every byte but the unreserved ones, as the
// template's simple expansion does (RFC 6570), so every name a store
// accepts makes a URI the template matches.
func TestEntryURIEncoding(t *testing.T) {
	for _, c := range []struct{ cat, name, want string }{
		{"trips", "seaside", "recall://trips/seaside"},
		{"people", "Emma Liu", "recall://people/Emma%20Liu"},
		{"trips", "三亚之行", "recall://trips/%E4%B8%89%E4%BA%9A%E4%B9%8B%E8%A1%8C"},
		{"projects/harbor", "Q3 plan", "recall://projects%2Fharbor/Q3%20plan"},
		{"notes", "Emma's (draft)!+&=;,$@", "recall://notes/Emma%27s%20%28draft%29%21%2B%26%3D%3B%2C%24%40"},
		{"a~b", "x-y.z_w", "recall://a~b/x-y.z_w"},
	} {
		if got := EntryURI(c.cat, c.name); got != c.want {
			t.Errorf("EntryURI(%q, %q) = %q, want %q", c.cat, c.name, got, c.want)
		}
		cat, name, err := parseURI(c.want)
		if err != nil || cat != c.cat || name != c.name {
			t.Errorf("parseURI(%q) = %q, %q, %v", c.want, cat, name, err)
		}
	}
}

func TestResourcesReadEveryKindOfURI(t *testing.T) {
	m := newMemory(t)
	add(t, m, "trips", "三亚之行", "想去海边玩", "海边")
	add(t, m, "people", "Emma Liu", "Designer in Lisbon.")
	add(t, m, "projects/harbor", "Q3 plan", "Ship the [[people:Emma Liu]] review.")
	add(t, m, "notes", "Emma's (draft)!", "Draft.")
	cs := connect(t, m)

	tmpl, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, rt := range tmpl.ResourceTemplates {
		got[rt.URITemplate] = rt.Description != "" && rt.MIMEType == "text/markdown"
	}
	if len(got) != 2 || !got[EntryTemplate] || !got[CategoryTemplate] {
		t.Errorf("templates: %v", got)
	}

	// Entries, read by the encoded URI and by unencoded spellings.
	for uri, want := range map[string]string{
		EntryURI("trips", "三亚之行"):                          "trips:三亚之行 (tags: 海边; created ",
		"recall://trips/三亚之行":                              "trips:三亚之行 (tags: 海边; created ",
		EntryURI("people", "Emma Liu"):                     "people:Emma Liu (created ",
		"recall://people/Emma Liu":                         "people:Emma Liu (created ",
		EntryURI("projects/harbor", "Q3 plan"):             "projects/harbor:Q3 plan (created ",
		"recall://projects/harbor/Q3%20plan":               "projects/harbor:Q3 plan (created ",
		EntryURI("notes", "Emma's (draft)!"):               "notes:Emma's (draft)! (created ",
		"recall://notes/Emma's%20(draft)!":                 "notes:Emma's (draft)! (created ",
		"recall://projects%2Fharbor/Q3%20plan":             "projects/harbor:Q3 plan (created ",
		"recall://%E4%B8%89/x-no-such-entry-is-not-listed": "",
	} {
		if want == "" {
			continue
		}
		if got := readText(t, cs, uri); !strings.HasPrefix(got, want) {
			t.Errorf("read %s: %q, want it to start %q", uri, got, want)
		}
	}
	if got := readText(t, cs, EntryURI("trips", "三亚之行")); !strings.HasSuffix(got, "\n想去海边玩") {
		t.Errorf("entry content: %q", got)
	}

	// The root lists the categories with their URIs; a category lists its
	// entries with theirs.
	root := readText(t, cs, RootURI)
	for _, line := range []string{
		"- [notes](recall://notes) (1 entry)\n",
		"- [projects/harbor](recall://projects%2Fharbor) (1 entry)\n",
		"- [trips](recall://trips) (1 entry)\n",
	} {
		if !strings.Contains(root, line) {
			t.Errorf("root lacks %q:\n%s", line, root)
		}
	}
	for _, uri := range []string{CategoryURI("projects/harbor"), "recall://projects/harbor/"} {
		got := readText(t, cs, uri)
		if want := "- [projects/harbor:Q3 plan](recall://projects%2Fharbor/Q3%20plan) ("; !strings.HasPrefix(got, want) {
			t.Errorf("category %s: %q", uri, got)
		}
	}

	// Not found, and bad URIs: JSON-RPC errors that name the URI.
	for uri, code := range map[string]int64{
		EntryURI("trips", "nowhere"):           jsonrpc.CodeInvalidParams,
		CategoryURI("nothing-here"):            jsonrpc.CodeInvalidParams,
		"recall://trips/a%2Fb":                 jsonrpc.CodeInvalidParams, // a name with '/'
		"recall://trips/%zz":                   jsonrpc.CodeInvalidParams,
		"recall://.hidden/x":                   jsonrpc.CodeInvalidParams,
		"recall://trips/" + "a:b":              jsonrpc.CodeInvalidParams,
		"other://trips/三亚之行":                   jsonrpc.CodeInvalidParams, // not ours: the SDK's answer
		"recall://" + strings.Repeat("a", 300): jsonrpc.CodeInvalidParams,
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != code {
			t.Errorf("read %s: %v, want code %d", uri, err, code)
		}
	}
}

// resources/list pages: RootURI, then the entries by category and name,
// ResourcePage at a time, following nextCursor to the end.
func TestResourcesListPages(t *testing.T) {
	m := newMemory(t)
	n := ResourcePage + 50
	for i := range n {
		add(t, m, "notes", fmt.Sprintf("n %03d", i), "x")
	}
	cs := connect(t, m)
	var uris []string
	cursor, pages := "", 0
	for {
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		if res.NextCursor == "" {
			break
		}
		if len(res.Resources) > ResourcePage+1 {
			t.Errorf("page %d holds %d resources", pages, len(res.Resources))
		}
		cursor = res.NextCursor
	}
	if pages != 2 || len(uris) != n+1 || uris[0] != RootURI || uris[1] != "recall://notes/n%20000" || uris[n] != fmt.Sprintf("recall://notes/n%%20%03d", n-1) {
		t.Errorf("%d pages, %d resources: first %v, last %s", pages, len(uris), uris[:2], uris[len(uris)-1])
	}
	// The SDK's own iterator follows the same cursor.
	count := 0
	for r, err := range cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if count > 0 && !strings.HasPrefix(r.URI, "recall://notes/") || r.Name == "" {
			t.Errorf("resource %+v", r)
		}
		count++
	}
	if count != n+1 {
		t.Errorf("iterator: %d resources", count)
	}
	if _, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: "not a cursor"}); err == nil {
		t.Error("a bad cursor was accepted")
	}
}

// Register on a caller's server keeps the caller's own resources: listed
// on the first page beside RootURI, read by their own handler.
func TestRegisterKeepsTheCallersResources(t *testing.T) {
	m := newMemory(t)
	add(t, m, "notes", "a", "x")
	srv := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "1"}, nil)
	srv.AddResource(&mcp.Resource{URI: "file:///readme", Name: "readme"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///readme", Text: "the host's own"}}}, nil
	})
	Register(srv, m)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if strings.Join(uris, " ") != "file:///readme recall:// recall://notes/a" {
		t.Errorf("resources: %v", uris)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///readme"})
	if err != nil || res.Contents[0].Text != "the host's own" {
		t.Errorf("the caller's resource: %+v, %v", res, err)
	}
	if got := readText(t, cs, "recall://notes/a"); !strings.HasPrefix(got, "notes:a") {
		t.Errorf("recall entry: %q", got)
	}
}
