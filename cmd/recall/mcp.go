package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

type mcpOptions struct {
	app    *app
	engine engineFlags
}

func newMCPCmd(a *app) *cobra.Command {
	o := &mcpOptions{app: a}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the memory to an agent host over MCP (stdio)",
		Long: `Mcp runs a Model Context Protocol server on stdin and stdout, for agent hosts
(Claude Desktop, IDE agents, any MCP client) that start it as a subprocess. It
offers the tools retrieve, add, get, delete and list. Stdout carries nothing but
the protocol; diagnostics go to stderr.

It starts at once: the index is built after the handshake, in the background,
and a CJK dictionary or an embedding model is only touched when first needed.
A folder store is watched, so edits made meanwhile by the CLI, an editor or git
are visible to the next retrieve. A bolt store is held by this process for as
long as it runs: other recall commands on it fail with "locked".

A host's configuration names the command, for example:

  {"mcpServers": {"recall": {"command": "recall", "args": ["--store", "/path/to/memory", "mcp"]}}}`,
		Example: `  recall --store ~/memory mcp
  recall --store ~/memory.db mcp --segmenter auto`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.engine.validate(cmd); err != nil {
				return err
			}
			return o.run(cmd.Context())
		},
	}
	o.engine.register(cmd)
	return cmd
}

func (o *mcpOptions) run(ctx context.Context) error {
	a := o.app
	if a.stdin == nil {
		return errors.New("mcp: no stdin to read the protocol from")
	}
	// A host stops its server by closing stdin, then with SIGTERM.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()

	m, err := a.openMemory(ctx, &o.engine, log.New(a.stderr, "recall mcp: ", 0))
	if err != nil {
		return err
	}
	defer m.close()
	m.logf("serving %s over stdio", m.desc)

	srv := newMCPServer(m, a.stderr, func() { go m.warm(ctx) })
	in, ok := a.stdin.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(a.stdin)
	}
	err = srv.Run(ctx, &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{a.stdout}})
	if ctx.Err() != nil || err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the host hung up or stopped us: a normal end
	}
	return fmt.Errorf("mcp: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// version is the module version the binary was built from, for the MCP
// handshake.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// nameRules is how the tools explain SPEC §1's naming rules to a model.
const nameRules = "Categories and names may use letters of any script, digits, spaces, '-', '_' and '.', at most 200 bytes, not starting with '.'; " +
	"they may not contain '/', '\\', ':', '[', ']' or '|'."

const mcpInstructions = `recall is the user's long-term memory: short notes (entries) about their life, preferences, people, plans and work, each named category:name and linked to others with [[category:name]].
Call retrieve before answering anything that may depend on what you know about the user (their past, tastes, people, plans, health, work).
When you learn something durable about them, retrieve first to find the entry it belongs to, then add: with the same category and name to update it (add replaces the whole content), or a new name for a new topic.`

// newMCPServer builds the MCP server over m. onInitialized runs once the
// handshake is complete (the index is warmed then, not before).
func newMCPServer(m *memory, stderr io.Writer, onInitialized func()) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "recall", Title: "recall memory", Version: version()}, &mcp.ServerOptions{
		Instructions: mcpInstructions,
		Logger:       slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) {
			if onInitialized != nil {
				onInitialized()
			}
		},
	})
	no := false
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "retrieve",
		Title: "Retrieve memories",
		Description: `Search the user's long-term memory and return the entries relevant to a query, with the evidence for each.
Call it before answering anything that may depend on the user's past, preferences, people, plans, health or work: whenever remembering something about them would make the answer better. Call it also before add, to find the entry to update instead of creating a duplicate.
The result lists hits (entries matching the query, best first, with their score and the query terms they matched), each followed by the entries it links to ("link via"). budget_tokens caps the total size (default 800 estimated tokens; 0 = no cap): raise it, or set explain to see what was dropped, when you need more. No items means the memory holds nothing on the query; that is not an error.`,
		InputSchema: retrieveSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, p retrieveParams) (*mcp.CallToolResult, *retrieve.Result, error) {
		res, req, err := m.retrieve(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		return textResult(renderResult(res, req.Budget, req.Explain)), res, nil
	})

	mcp.AddTool(srv, &mcp.Tool{
		Name:  "add",
		Title: "Remember (add or update an entry)",
		Description: `Write an entry to the user's memory. add is an upsert: when category:name exists, its content is replaced by the content you pass (so pass the whole updated text, not only the new part) and its tags too when you pass tags; its creation time is kept.
Use short, stable names and one topic per entry, e.g. category "people", name "Emma Liu"; category "trips", name "三亚之行"; category "preferences", name "coffee". Reuse existing categories (see list). Link related entries by writing [[category:name]] in the content, e.g. "Went with [[people:小雨]]"; retrieve brings linked entries along.
` + nameRules,
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, p addParams) (*mcp.CallToolResult, changeResult, error) {
		added, err := m.add(ctx, p.Category, p.Name, p.Content, p.Tags)
		if err != nil {
			return nil, changeResult{}, err
		}
		out := changeResult{Category: p.Category, Name: p.Name, Status: "updated"}
		if added {
			out.Status = "added"
		}
		return textResult(out.Status + " " + keyString(p.Category, p.Name)), out, nil
	})

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "get",
		Title:       "Read one entry",
		Description: `Read one entry in full, with its metadata (tags, created, updated), by its exact category and name as retrieve or list show them: "trips:三亚之行" is category "trips", name "三亚之行".`,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, p keyParams) (*mcp.CallToolResult, entryJSON, error) {
		e, err := m.get(ctx, p.Category, p.Name)
		if err != nil {
			return nil, entryJSON{}, err
		}
		out := entryJSON{Category: e.Category, Name: e.Name, Content: e.Content, Meta: metaObject(e.Meta)}
		return textResult(renderEntry(e)), out, nil
	})

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "delete",
		Title:       "Forget an entry",
		Description: `Delete one entry by its exact category and name. It cannot be undone: to correct an entry, prefer add with the corrected content. Fails when the entry does not exist.`,
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &no},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, p keyParams) (*mcp.CallToolResult, changeResult, error) {
		if err := m.remove(ctx, p.Category, p.Name); err != nil {
			return nil, changeResult{}, err
		}
		out := changeResult{Category: p.Category, Name: p.Name, Status: "deleted"}
		return textResult("deleted " + keyString(p.Category, p.Name)), out, nil
	})

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "list",
		Title:       "List entries",
		Description: `List entries by name (category:name, estimated tokens, tags), sorted by category then name, optionally of one category. Use it to browse, to see which categories exist, or to find an exact name; use retrieve to search by content.`,
		InputSchema: listSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, p listParams) (*mcp.CallToolResult, listResult, error) {
		limit := defaultListLimit
		if p.Limit != nil {
			if *p.Limit < 1 || *p.Limit > maxListLimit {
				return nil, listResult{}, &paramError{"limit", fmt.Sprintf("must be between 1 and %d, got %d", maxListLimit, *p.Limit)}
			}
			limit = *p.Limit
		}
		items, skipped, err := m.list(ctx, p.Category)
		if err != nil {
			return nil, listResult{}, err
		}
		out := listResult{Entries: items, Total: len(items), Skipped: skipped}
		if len(items) > limit {
			out.Entries, out.Truncated = items[:limit], true
		}
		return textResult(renderList(out)), out, nil
	})
	return srv
}

// Tool arguments and results. The jsonschema tags are what a model reads.

type addParams struct {
	Category string   `json:"category" jsonschema:"The kind of memory, e.g. people, preferences, trips, work, health."`
	Name     string   `json:"name" jsonschema:"The entry's name within its category, e.g. a person's name or a topic such as coffee."`
	Content  string   `json:"content" jsonschema:"The whole text of the entry (markdown). It replaces the previous content. Link other entries with [[category:name]]."`
	Tags     []string `json:"tags,omitempty" jsonschema:"Optional tags. When given they replace the entry's tags; when left out an update keeps them."`
}

type keyParams struct {
	Category string `json:"category" jsonschema:"The entry's category, e.g. trips."`
	Name     string `json:"name" jsonschema:"The entry's name, e.g. 三亚之行."`
}

type listParams struct {
	Category string `json:"category,omitempty" jsonschema:"Only entries of this category. Leave out for all."`
	Limit    *int   `json:"limit,omitempty" jsonschema:"At most this many entries, 1-10000. Default 200."`
}

type changeResult struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	Status   string `json:"status" jsonschema:"added, updated or deleted."`
}

type listResult struct {
	Entries   []lsItem `json:"entries"`
	Total     int      `json:"total" jsonschema:"How many entries matched, including those cut by limit."`
	Truncated bool     `json:"truncated" jsonschema:"Whether limit cut the list."`
	Skipped   int      `json:"skipped,omitempty" jsonschema:"Entries the store could not read (for example a hand-edited file with broken front matter)."`
}

// retrieveSchema is the schema inferred from retrieveParams, with the
// defaults and bounds a model should see.
func retrieveSchema() *jsonschema.Schema {
	s := mustSchema[retrieveParams]()
	s.Properties["query"].MinLength = ptr(1)
	setRange(s.Properties["limit"], 1, maxLimit, "10")
	setRange(s.Properties["budget_tokens"], 0, -1, strconv.Itoa(retrieve.DefaultBudget))
	s.Properties["expand_links"].Default = json.RawMessage("true")
	s.Properties["explain"].Default = json.RawMessage("false")
	return s
}

func listSchema() *jsonschema.Schema {
	s := mustSchema[listParams]()
	setRange(s.Properties["limit"], 1, maxListLimit, strconv.Itoa(defaultListLimit))
	return s
}

func mustSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err)) // a bug in the struct tags
	}
	return s
}

// setRange sets bounds (max < 0: none) and a default on an integer property.
func setRange(s *jsonschema.Schema, lo, hi int, def string) {
	s.Minimum = ptr(float64(lo))
	if hi >= 0 {
		s.Maximum = ptr(float64(hi))
	}
	s.Default = json.RawMessage(def)
}

func ptr[T any](v T) *T { return &v }

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func keyString(category, name string) string {
	return store.Key{Category: category, Name: name}.String()
}

// renderResult is the compact text of a retrieve that a model reads next to
// the structured result:
//
//	[hit] trips:三亚之行 (bm25 2.36; matched 海边, 边玩)
//	<content>
//
//	[link via trips:三亚之行] people:妈妈
//	<content>
//
//	2 items, 120/800 tokens.
func renderResult(res *retrieve.Result, budget int, explain bool) string {
	var b strings.Builder
	for _, it := range res.Items {
		b.WriteString(renderItemHeader(it))
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(it.Content, "\r\n"))
		b.WriteString("\n\n")
	}
	if len(res.Items) == 0 {
		b.WriteString("No memory matched the query.\n")
	} else {
		tokens := fmt.Sprintf("%d/%d tokens", res.BudgetUsed, budget)
		if budget < 0 {
			tokens = fmt.Sprintf("%d tokens", res.BudgetUsed)
		}
		fmt.Fprintf(&b, "%s, %s.\n", plural(len(res.Items), "item", "items"), tokens)
	}
	if len(res.UnresolvedLinks) > 0 {
		fmt.Fprintf(&b, "Links to missing entries: %s\n", strings.Join(res.UnresolvedLinks, ", "))
	}
	if explain && len(res.Dropped) > 0 {
		dropped := make([]string, len(res.Dropped))
		for i, it := range res.Dropped {
			dropped[i] = fmt.Sprintf("%s (%d tokens)", keyString(it.Category, it.Name), it.TokensEst)
		}
		fmt.Fprintf(&b, "Dropped by the token budget: %s\n", strings.Join(dropped, ", "))
	}
	return b.String()
}

func renderItemHeader(it retrieve.Item) string {
	key := keyString(it.Category, it.Name)
	if it.Source == retrieve.SourceLink {
		via := ""
		if it.Via != nil {
			via = " via " + keyString(it.Via.Category, it.Via.Name)
		}
		return "[link" + via + "] " + key
	}
	var ev []string
	if it.CosScore != nil {
		ev = append(ev, "score "+score2(it.Score))
	}
	if it.BM25Score != nil {
		ev = append(ev, "bm25 "+score2(*it.BM25Score))
	}
	if it.CosScore != nil {
		ev = append(ev, "cos "+score2(*it.CosScore))
	}
	s := strings.Join(ev, ", ")
	if len(it.MatchedTerms) > 0 {
		s += "; matched " + strings.Join(it.MatchedTerms, ", ")
	}
	return "[hit] " + key + " (" + s + ")"
}

func score2(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// renderEntry is one entry for a model: the key and metadata on one line,
// then the content.
func renderEntry(e store.Entry) string {
	var meta []string
	if len(e.Meta.Tags) > 0 {
		meta = append(meta, "tags: "+strings.Join(e.Meta.Tags, ", "))
	}
	if !e.Meta.Created.IsZero() {
		meta = append(meta, "created "+e.Meta.Created.UTC().Format(time.DateOnly))
	}
	if !e.Meta.Updated.IsZero() {
		meta = append(meta, "updated "+e.Meta.Updated.UTC().Format(time.DateOnly))
	}
	head := e.Key().String()
	if len(meta) > 0 {
		head += " (" + strings.Join(meta, "; ") + ")"
	}
	return head + "\n" + e.Content
}

func renderList(l listResult) string {
	var b strings.Builder
	for _, it := range l.Entries {
		fmt.Fprintf(&b, "%s (%d tokens", keyString(it.Category, it.Name), it.TokensEst)
		if tags, ok := it.Meta[metaTags].([]string); ok && len(tags) > 0 {
			fmt.Fprintf(&b, "; tags: %s", strings.Join(tags, ", "))
		}
		b.WriteString(")\n")
	}
	switch {
	case l.Total == 0:
		b.WriteString("No entries.\n")
	case l.Truncated:
		fmt.Fprintf(&b, "%d of %d entries shown; ask with a category or a larger limit for more.\n", len(l.Entries), l.Total)
	default:
		fmt.Fprintf(&b, "%s.\n", plural(l.Total, "entry", "entries"))
	}
	if l.Skipped > 0 {
		fmt.Fprintf(&b, "%s could not be read.\n", plural(l.Skipped, "entry", "entries"))
	}
	return b.String()
}
