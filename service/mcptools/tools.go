package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/buildinfo"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// Instructions tell a model what the server is for, when to retrieve and
// when to write; NewServer sends them in the handshake.
const Instructions = `recall is the user's long-term memory: short notes (entries) about them, their preferences, people, plans, projects and work, each named category:name and linked to others with [[category:name]].

When to retrieve: call retrieve at the start of a task, and before answering anything that may depend on what you know about the user or their project (their past, tastes, people, plans, health, work, earlier decisions), before you answer, not after. Pass their own words as the query. Write time as they said it ("last week", "yesterday", "in May 2024", "since March", "上周", "三天前") and pass now with their UTC offset: only entries of that range are searched. No items means the memory holds nothing on it, not an error.

When to write: when you learn something durable: a fact about the user or their work, a preference, a decision, a correction of what the memory says. Retrieve first to find the entry it belongs to, then append a line to it, edit the passage that is wrong, or add a new entry (add replaces the whole content of an existing one). Do not write chit-chat, greetings, one-off requests, or what only matters for this conversation.

Without a tool call: the prompt "recall" puts the memory relevant to a message before it; the resources recall:// (the categories), recall://{category} (a category's entries) and recall://{category}/{name} (one entry) can be attached to a conversation.`

// nameRules is how the tools explain SPEC §1's naming rules to a model.
const nameRules = "Categories and names may use letters of any script, digits, spaces and most punctuation, at most 200 bytes, not starting with '.'; " +
	"they may not contain / \\ : [ ] | # ^ < > \" ? *. A category may be a path of up to 8 segments joined by '/', e.g. projects/harbor."

// Options configure NewServer.
type Options struct {
	// Version is the server version sent in the handshake; "" means the
	// module version from the build info.
	Version string
	// Logger receives the SDK's warnings; nil discards them.
	Logger *slog.Logger
	// OnInitialized runs once the handshake is complete.
	OnInitialized func()

	// MaxStreams bounds the streams NewHTTPHandler holds open at once
	// (subscriptions/listen, protocol 2026-07-28); one more is refused
	// with an error. 0 means DefaultMaxStreams. Stdio ignores it.
	MaxStreams int
	// StreamTimeout is how long NewHTTPHandler keeps one stream open
	// before it ends it; 0 means DefaultStreamTimeout. Stdio ignores it.
	StreamTimeout time.Duration
}

// NewServer returns an MCP server named "recall" with the Instructions
// and every tool, prompt and resource of Register.
func NewServer(m *service.Memory, opts Options) *mcp.Server {
	v := opts.Version
	if v == "" {
		v = Version()
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "recall", Title: "recall memory", Version: v}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       opts.Logger,
		// The SDK's default capabilities (logging), and resources without
		// listChanged: resources/list follows every write, and the server
		// sends no notification for it (a client lists again).
		// Logging is deprecated from protocol 2026-07-28 on, but older
		// clients got it before resources were added: kept, so the
		// handshake offers what it did.
		//lint:ignore SA1019 kept for clients of earlier protocol versions
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) {
			if opts.OnInitialized != nil {
				opts.OnInitialized()
			}
		},
	})
	Register(srv, m)
	return srv
}

// Version is the module version the binary was built from: the release
// tag for `go install ...@version`, else "dev" with the commit it was
// built from when the build recorded one ("dev+339d3da0c1f2-dirty").
func Version() string {
	info := buildinfo.Read()
	if info.Version != "dev" || info.Revision == "" {
		return info.Version
	}
	v := "dev+" + info.ShortRevision()
	if info.Modified {
		v += "-dirty"
	}
	return v
}

// Register adds recall's tools to srv: retrieve, add, append, edit, get,
// delete, list and categories. Each validates its arguments itself (plain
// JSON types; optional fields are not in "required") and answers a bad one
// with a tool error naming the field. It also adds the prompt PromptName
// and the resources (RootURI, EntryTemplate, CategoryTemplate), with a
// receiving middleware that answers resources/list (the entries, paged)
// and resources/read of every recall:// URI.
func Register(srv *mcp.Server, m *service.Memory) {
	registerTools(srv, m)
	registerPrompts(srv, m)
	registerResources(srv, m)
}

func registerTools(srv *mcp.Server, m *service.Memory) {
	no := false
	addTool(srv, &mcp.Tool{
		Name:  "retrieve",
		Title: "Retrieve memories",
		Description: `Search the user's long-term memory and return the entries relevant to a query, with the evidence for each.
Call it at the start of a task, and before answering anything that may depend on the user's past, preferences, people, plans, health, work or earlier decisions: whenever remembering something about them would make the answer better. Call it also before add, to find the entry to update instead of creating a duplicate.
The result lists hits (best first, with their score and the query words they matched), each followed by the entries it links to ("link via"). budget_tokens caps the total size (default 800 estimated tokens; 0 = no cap): raise it, or set explain to see what was dropped, when you need more. categories and tags narrow the hits.
A long entry with markdown headings comes back as the section that matched (its section field names the heading path, e.g. "Install > On Linux"): get the entry for the whole of it, or pass whole_entries for whole entries.
No items means nothing matched; that is not an error. When the server uses embeddings, hits that matched no query word (matched_terms empty) are only similar in wording or meaning and may be irrelevant: judge them by their content, or pass min_score (e.g. 0.3) to drop the weak ones.
Time: write the time in the query as the user said it, in English or Chinese ("what did we decide last week", "in May 2024", "since March", "上周去了哪里", "2024年5月", "三天前"), or pass after/before (dates such as 2024-05-03). Only entries dated in that range are searched; an entry's date is when it happened if it was given one (add's date), else when it was written. Pass now (the user's current time with their UTC offset) so "yesterday" means their yesterday. The result's time_range {from, to, text} says what range was understood and from which words (absent when the query had no time phrase): check it. A query that is only a time ("last week", "上周"), or an empty query with after/before, lists the entries of that range newest first. Every item then carries its date; a linked entry outside the range is marked outside_range (context, not an answer).`,
		InputSchema:  retrieveSchema(),
		OutputSchema: outSchema[retrieve.Result](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, p service.RetrieveParams) (string, any, error) {
		res, req, err := m.Retrieve(ctx, p)
		if err != nil {
			return "", nil, err
		}
		// The JSON object the CLI prints, as is: the SDK compacts it as it
		// encodes the answer (encoding/json compacts a RawMessage), so a
		// compaction here would be a second one.
		var raw json.RawMessage
		err = service.WithResultJSON(res, func(b []byte) error {
			raw = bytes.Clone(b)
			return nil
		})
		if err != nil {
			return "", nil, err
		}
		return renderResult(res, req.Budget, req.Explain), raw, nil
	})

	addTool(srv, &mcp.Tool{
		Name:  "add",
		Title: "Remember (add or replace an entry)",
		Description: `Write an entry to the user's memory: when you learn something durable about the user or their work (a fact, a preference, a decision, a correction), not chit-chat or a one-off request. add is an upsert: when category:name exists, its whole content is replaced by the content you pass, and its tags too when you pass tags; its creation time is kept. The answer says what an update replaced (size, first line, tags). Pass if_absent true to create only: then an existing entry is an error and nothing is written. To add a line to an existing entry use append; to change one passage use edit.
Use short, stable names and one topic per entry, e.g. category "people", name "Emma Liu"; category "trips", name "三亚之行"; category "preferences", name "coffee". Reuse existing categories (see categories). Link related entries by writing [[category:name]] in the content, e.g. "Went with [[people:小雨]]"; retrieve brings linked entries along.
` + nameRules,
		InputSchema:  schemaFor[addParams](),
		OutputSchema: outSchema[service.Change](),
		Annotations:  &mcp.ToolAnnotations{IdempotentHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, p addParams) (string, any, error) {
		if p.Content == nil {
			return "", nil, &service.ParamError{Field: "content", Reason: "is required"}
		}
		req := service.AddRequest{Category: p.Category, Name: p.Name, Content: *p.Content, Tags: p.Tags, IfAbsent: p.IfAbsent, Supersedes: p.Supersedes}
		if p.Date != "" {
			d, err := service.ParseDate("date", p.Date)
			if err != nil {
				return "", nil, err
			}
			req.Date = d
		}
		if p.Expires != "" {
			t, err := service.ParseExpires("expires", p.Expires)
			if err != nil {
				return "", nil, err
			}
			req.Expires = t
		}
		c, err := m.Add(ctx, req)
		if err != nil {
			return "", nil, err
		}
		return renderChange(c), c, nil
	})

	addTool(srv, &mcp.Tool{
		Name:         "append",
		Title:        "Add text to the end of an entry",
		Description:  `Add text at the end of an existing entry, without resending it: use it to record one more fact about a topic. A line break separates it from the existing content when needed. The entry must exist (create it with add). Tags and dates are kept.`,
		InputSchema:  schemaFor[appendParams](),
		OutputSchema: outSchema[service.Change](),
		Annotations:  &mcp.ToolAnnotations{OpenWorldHint: &no},
	}, func(ctx context.Context, p appendParams) (string, any, error) {
		c, err := m.Append(ctx, p.Category, p.Name, p.Text)
		if err != nil {
			return "", nil, err
		}
		return "appended to " + keyString(c.Category, c.Name), c, nil
	})

	addTool(srv, &mcp.Tool{
		Name:         "edit",
		Title:        "Replace one passage of an entry",
		Description:  `Replace one exact passage of an entry's content with new text, without resending the rest. old_text must occur exactly once in the content (copy it from get or retrieve, with enough surrounding words to be unique); otherwise nothing is written and the error says why. new_text "" deletes the passage. Tags and dates are kept.`,
		InputSchema:  schemaFor[editParams](),
		OutputSchema: outSchema[service.Change](),
		Annotations:  &mcp.ToolAnnotations{OpenWorldHint: &no},
	}, func(ctx context.Context, p editParams) (string, any, error) {
		if p.NewText == nil {
			return "", nil, &service.ParamError{Field: "new_text", Reason: `is required ("" deletes old_text)`}
		}
		c, err := m.Edit(ctx, p.Category, p.Name, p.OldText, *p.NewText)
		if err != nil {
			return "", nil, err
		}
		return "edited " + keyString(c.Category, c.Name), c, nil
	})

	addTool(srv, &mcp.Tool{
		Name:         "get",
		Title:        "Read one entry",
		Description:  `Read one entry in full, with its metadata (tags, created, updated), by its exact category and name as retrieve or list show them: "trips:三亚之行" is category "trips", name "三亚之行".`,
		InputSchema:  schemaFor[keyParams](),
		OutputSchema: outSchema[service.Entry](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, p keyParams) (string, any, error) {
		e, err := m.Get(ctx, p.Category, p.Name)
		if err != nil {
			return "", nil, err
		}
		return renderEntry(e), service.EntryFor(e), nil
	})

	addTool(srv, &mcp.Tool{
		Name:         "delete",
		Title:        "Forget an entry",
		Description:  `Delete one entry by its exact category and name. It cannot be undone: to correct an entry, prefer edit or add. Fails when the entry does not exist.`,
		InputSchema:  schemaFor[keyParams](),
		OutputSchema: outSchema[service.Change](),
		Annotations:  &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: &no},
	}, func(ctx context.Context, p keyParams) (string, any, error) {
		c, err := m.Delete(ctx, p.Category, p.Name)
		if err != nil {
			return "", nil, err
		}
		return "deleted " + keyString(c.Category, c.Name), c, nil
	})

	addTool(srv, &mcp.Tool{
		Name:         "list",
		Title:        "List entries",
		Description:  `List entries by name (category:name, estimated tokens, tags), sorted by category then name, a page at a time, optionally of one category. When next_cursor is in the result, pass it as cursor for the next page. Use categories to see which categories exist, and retrieve to search by content.`,
		InputSchema:  listSchema(),
		OutputSchema: outSchema[service.ListPage](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, p listParams) (string, any, error) {
		req := service.ListRequest{Category: p.Category, Cursor: p.Cursor}
		if p.Limit != nil {
			if *p.Limit < 1 {
				return "", nil, &service.ParamError{Field: "limit", Reason: fmt.Sprintf("must be between 1 and %d, got %d", service.MaxListLimit, *p.Limit)}
			}
			req.Limit = *p.Limit
		}
		page, err := m.List(ctx, req)
		if err != nil {
			return "", nil, err
		}
		return renderList(page), page, nil
	})

	addTool(srv, &mcp.Tool{
		Name:         "categories",
		Title:        "List categories",
		Description:  `List every category of the memory with its number of entries. Use it to reuse an existing category when you add, or to choose categories for retrieve and list.`,
		InputSchema:  schemaFor[struct{}](),
		OutputSchema: outSchema[categoriesResult](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, func(ctx context.Context, _ struct{}) (string, any, error) {
		cats, err := m.Categories(ctx)
		if err != nil {
			return "", nil, err
		}
		return renderCategories(cats), categoriesResult{Categories: cats}, nil
	})
}

// Tool arguments and results. The jsonschema tags are what a model reads.

type addParams struct {
	Category   string   `json:"category" jsonschema:"The kind of memory, e.g. people, preferences, trips, work, health."`
	Name       string   `json:"name" jsonschema:"The entry's name within its category, e.g. a person's name or a topic such as coffee."`
	Content    *string  `json:"content" jsonschema:"The whole text of the entry (markdown). It replaces the previous content. Link other entries with [[category:name]]."`
	Tags       []string `json:"tags,omitempty" jsonschema:"Optional tags. When given they replace the entry's tags; when left out an update keeps them."`
	IfAbsent   bool     `json:"if_absent,omitempty" jsonschema:"true: only create the entry; when it exists, fail and write nothing instead of replacing it. Use it when you have not read the entry."`
	Date       string   `json:"date,omitempty" jsonschema:"When the thing this entry records happened, if that is not now: a date such as 2024-05-03 or a time such as 2024-05-03T14:30:00+08:00. Time-range retrieves place the entry at this date (else at its creation time). When left out an update keeps the entry's date."`
	Supersedes []string `json:"supersedes,omitempty" jsonschema:"The entries this one replaces because it corrects or updates them, as links, e.g. [\"[[places:Paris flat]]\"] when the user moved. They stay stored but retrieve no longer returns them (unless include_superseded). When left out an update keeps them; [] removes them."`
	Expires    string   `json:"expires,omitempty" jsonschema:"When this stops being true, for facts that hold only for a while (a temporary address, this sprint's goal): a date such as 2026-07-01 (from its start) or a time such as 2026-07-01T09:00:00+02:00. From then on retrieve no longer returns it (unless include_expired); it stays stored."`
}

type appendParams struct {
	Category string `json:"category" jsonschema:"The entry's category, e.g. people."`
	Name     string `json:"name" jsonschema:"The entry's name, e.g. Emma Liu."`
	Text     string `json:"text" jsonschema:"The text to add at the end, e.g. 'Allergic to peanuts (told me 2025-06-01).'"`
}

type editParams struct {
	Category string  `json:"category" jsonschema:"The entry's category."`
	Name     string  `json:"name" jsonschema:"The entry's name."`
	OldText  string  `json:"old_text" jsonschema:"The exact passage to replace, as it appears in the content; it must occur exactly once."`
	NewText  *string `json:"new_text" jsonschema:"The text to put in its place; empty to delete the passage."`
}

type keyParams struct {
	Category string `json:"category" jsonschema:"The entry's category, e.g. trips."`
	Name     string `json:"name" jsonschema:"The entry's name, e.g. 三亚之行."`
}

type listParams struct {
	Category string `json:"category,omitempty" jsonschema:"Only entries of this category. Leave out for all."`
	Limit    *int   `json:"limit,omitempty" jsonschema:"At most this many entries per page, 1-10000. Default 200."`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to continue after it."`
}

type categoriesResult struct {
	Categories []service.CategoryCount `json:"categories"`
}

// addTool registers a tool whose handler gets its arguments decoded by
// service.DecodeParams (readable errors naming the field, no mangled text)
// and returns a text for the model and a value for structuredContent.
func addTool[In any](srv *mcp.Server, t *mcp.Tool, h func(context.Context, In) (string, any, error)) {
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		if err := service.DecodeParams(args, &in); err != nil {
			return errorResult(err), nil
		}
		text, out, err := h(ctx, in)
		if err != nil {
			return errorResult(err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: out}, nil
	})
}

// errorResult is a failed call as the model sees it: one line naming the
// field at fault when there is one.
func errorResult(err error) *mcp.CallToolResult {
	msg := err.Error()
	var pe *service.ParamError
	if errors.As(err, &pe) && pe.Field == "" {
		msg = "arguments: " + msg
	}
	if errors.Is(err, store.ErrNotFound) {
		msg += " (check the exact category and name with list or retrieve)"
	}
	if errors.Is(err, service.ErrExists) {
		msg += " (get it first, then append to it or edit it, or add without if_absent to replace it)"
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// retrieveSchema is the schema of RetrieveParams with the defaults and
// bounds a model should see.
func retrieveSchema() *jsonschema.Schema {
	s := schemaFor[service.RetrieveParams]()
	// An empty query is a timeline when after or before is given; the
	// service says so when neither is.
	s.Properties["query"].MaxLength = ptr(service.MaxQueryBytes)
	setRange(s.Properties["limit"], 1, service.MaxLimit, fmt.Sprint(retrieve.DefaultLimit))
	setRange(s.Properties["budget_tokens"], 0, -1, fmt.Sprint(retrieve.DefaultBudget))
	s.Properties["expand_links"].Default = json.RawMessage("true")
	s.Properties["explain"].Default = json.RawMessage("false")
	s.Properties["whole_entries"].Default = json.RawMessage("false")
	s.Properties["min_score"].Minimum = ptr(-1.0)
	s.Properties["min_score"].Maximum = ptr(1.0)
	s.Properties["min_score"].Default = json.RawMessage(fmt.Sprint(service.DefaultMinScore))
	s.Properties["categories"].MaxItems = ptr(service.MaxFilterValues)
	s.Properties["tags"].MaxItems = ptr(service.MaxFilterValues)
	return s
}

func listSchema() *jsonschema.Schema {
	s := schemaFor[listParams]()
	setRange(s.Properties["limit"], 1, service.MaxListLimit, fmt.Sprint(service.DefaultListLimit))
	return s
}

// schemaFor infers the input schema of T with plain JSON types: a pointer
// field (optional, or "given or not") is its element's type, never a
// ["null", T] union, which real clients mishandle; only the non-pointer
// fields without omitempty are required.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err)) // a bug in the struct tags
	}
	plain(s)
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return s
}

// plain drops "null" from a union of types, in s and every schema below
// it: an optional value is left out, never sent as null (the JSON of
// recall's results omits empty optional fields and writes empty lists as
// []), so one plain type per value is the truth, and strict clients (MCP
// Inspector) warn about unions.
func plain(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		var ts []string
		for _, t := range s.Types {
			if t != "null" {
				ts = append(ts, t)
			}
		}
		if len(ts) == 1 {
			s.Type, s.Types = ts[0], nil
		} else {
			s.Types = ts
		}
	}
	plain(s.Items)
	plain(s.AdditionalProperties)
	for _, p := range s.Properties {
		plain(p)
	}
	for _, d := range s.Defs {
		plain(d)
	}
}

// outSchema is the schema of a tool's structured result, with plain types
// as schemaFor's.
func outSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err))
	}
	plain(s)
	return s
}

// setRange sets bounds (hi < 0: none) and a default on an integer property.
func setRange(s *jsonschema.Schema, lo, hi int, def string) {
	s.Minimum = ptr(float64(lo))
	if hi >= 0 {
		s.Maximum = ptr(float64(hi))
	}
	s.Default = json.RawMessage(def)
}

func ptr[T any](v T) *T { return &v }

func keyString(category, name string) string {
	return store.Key{Category: category, Name: name}.String()
}
