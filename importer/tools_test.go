package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// The fixtures in testdata/tools are written from the formats' public
// definitions, never guessed:
//
//   - memory.jsonl: the reference MCP memory server,
//     github.com/modelcontextprotocol/servers src/memory/index.ts
//     (commit 76d64c8): loadGraph reads, saveGraph writes JSON lines of
//     {"type":"entity","name","entityType","observations"} and
//     {"type":"relation","from","to","relationType"}, joined by "\n" with
//     no final newline (as the fixture is).
//   - chatgpt-conversations.json: ChatGPT's export as the parsers of it
//     document it (OpenAI publishes no schema): basic-memory's
//     src/basic_memory/importers/chatgpt_importer.py (title, create_time,
//     update_time, mapping of nodes with message, parent, children;
//     content_type text and code; is_visually_hidden_from_conversation),
//     and mitkury/chatgpt-export-parser's docs/chatgpt-data-export-format.md
//     (current_node, conversation_id, multimodal_text parts with
//     image_asset_pointer objects).
//   - claude-conversations.json: claude.ai's export as basic-memory's
//     src/basic_memory/importers/claude_conversations_importer.py reads it
//     (uuid, name, created_at, updated_at, chat_messages with sender,
//     text, content blocks and attachments with file_name and
//     extracted_content).
//   - mem0-memories.json and mem0-v1.json: docs.mem0.ai, "Export Stored
//     Memories" (get_all: {"count", "results"}) and the API reference of
//     search and v1 get memories (id, memory, user_id, metadata,
//     categories, immutable, expiration_date, created_at, updated_at;
//     v1: an array with input, owner, organization).

func readTool(t *testing.T, file string, opts FileOptions) (*Plan, Format) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "tools", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, format, err := ReadFile(ctx, f, file, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p, format
}

func items(p *Plan) map[string]store.Entry {
	m := map[string]store.Entry{}
	for _, it := range p.Items {
		m[it.Entry.Key().String()] = it.Entry
	}
	return m
}

func skips(p *Plan) []string {
	var s []string
	for _, k := range p.Skipped {
		s = append(s, k.String())
	}
	return s
}

func TestDetectFormat(t *testing.T) {
	for file, want := range map[string]Format{
		"memory.jsonl":               FormatMCPMemory,
		"chatgpt-conversations.json": FormatChatGPT,
		"claude-conversations.json":  FormatClaude,
		"mem0-memories.json":         FormatMem0,
		"mem0-v1.json":               FormatMem0,
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "tools", file))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := DetectFormat(data); got != want || err != nil {
			t.Errorf("%s: %q %v, want %q", file, got, err, want)
		}
	}
	for in, want := range map[string]Format{
		`{"category":"a","name":"b","content":"c"}` + "\n":                            FormatJSONL,
		"\xef\xbb\xbf" + `{"type":"relation","from":"a","to":"b","relationType":"r"}`: FormatMCPMemory,
	} {
		if got, err := DetectFormat([]byte(in)); got != want || err != nil {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "hello", `[1, 2]`, `{"x": 1}`, `[{"x": 1}]`} {
		if got, err := DetectFormat([]byte(in)); err == nil {
			t.Errorf("%q: detected %q, want an error", in, got)
		}
	}
}

func TestReadMCPMemory(t *testing.T) {
	p, format := readTool(t, "memory.jsonl", FileOptions{})
	if format != FormatMCPMemory {
		t.Fatalf("format %q", format)
	}
	got := items(p)
	john := got["person:John_Smith"]
	want := "Speaks fluent Spanish\nGraduated in 2019\nPrefers morning meetings\nworks_at [[organization:Anthropic]]\nleads [[project:Harbor v2]]\n"
	if john.Content != want {
		t.Errorf("John_Smith:\n%q\nwant\n%q", john.Content, want)
	}
	if john.Meta.Extra["source"] != "mcp-memory" || !john.Meta.Created.IsZero() {
		t.Errorf("meta %+v", john.Meta)
	}
	if e, ok := got["project:Harbor v2"]; !ok || e.Content != "" {
		t.Errorf("an entity without observations: %+v %v", e, ok)
	}
	if len(got) != 3 {
		t.Errorf("%d items, want 3: %v", len(got), got)
	}
	s := skips(p)
	for _, want := range []string{
		`memory.jsonl:4: invalid name "Q3/Q4 plan"`,
		`memory.jsonl:7: relation to "Nobody": no entity of that name`,
		`memory.jsonl:8: not valid JSON`,
	} {
		if !slices.ContainsFunc(s, func(x string) bool { return strings.HasPrefix(x, want) }) {
			t.Errorf("no skip %q in %q", want, s)
		}
	}
	if !slices.ContainsFunc(s, func(x string) bool { return strings.Contains(x, `rename it to "Q3-Q4 plan"`) }) {
		t.Errorf("no rename for Q3/Q4 plan in %q", s)
	}
	if len(p.Items)+len(p.Skipped) != 6 { // 4 entities + the bad relation + the bad line
		t.Errorf("%d items + %d skipped, want every record accounted for", len(p.Items), len(p.Skipped))
	}
}

func TestReadChatGPT(t *testing.T) {
	p, format := readTool(t, "chatgpt-conversations.json", FileOptions{})
	if format != FormatChatGPT {
		t.Fatalf("format %q", format)
	}
	got := items(p)
	e, ok := got["chatgpt:Trip to Sanya (6612d1f0)"]
	if !ok {
		t.Fatalf("no Trip to Sanya in %v", slices.Sorted(func(yield func(string) bool) {
			for k := range got {
				if !yield(k) {
					return
				}
			}
		}))
	}
	want := "### User (2024-03-02 09:15)\n\n想去海边玩, where should I go?\n\n" +
		"### Assistant (2024-03-02 09:15)\n\nSanya, on Hainan island.\n\n" +
		"### User (2024-03-02 09:16)\n\n[image]\nWhat is this beach?\n\n" +
		"### Assistant (2024-03-02 09:18)\n\n```python\nprint('Yalong Bay')\n```\n"
	if e.Content != want {
		t.Errorf("content (the current branch, no system message, the regenerated answer left out):\n%s\nwant\n%s", e.Content, want)
	}
	if c := time.Unix(1709370900, 123456000).UTC(); !e.Meta.Created.Equal(c) || !e.Meta.Updated.Equal(time.Unix(1709371200, 500000000)) {
		t.Errorf("times %v %v", e.Meta.Created, e.Meta.Updated)
	}
	if e.Meta.Extra["conversation_id"] != "6612d1f0-3a4b-4c5d-8e9f-0a1b2c3d4e5f" || e.Meta.Extra["title"] != "Trip to Sanya" || e.Meta.Extra["source"] != "chatgpt" {
		t.Errorf("extra %v", e.Meta.Extra)
	}
	// Two conversations titled "New chat" stay apart; an empty one lands
	// with no content.
	if _, ok := got["chatgpt:New chat (77a0b1c2)"]; !ok {
		t.Error("first New chat missing")
	}
	if e, ok := got["chatgpt:New chat (88b1c2d3)"]; !ok || e.Content != "" {
		t.Errorf("second New chat: %+v %v", e, ok)
	}
	if s := skips(p); len(s) != 1 || !strings.HasPrefix(s[0], "chatgpt-conversations.json: item 4: mapping is a JSON string") {
		t.Errorf("skipped %q", s)
	}
}

func TestReadClaude(t *testing.T) {
	p, format := readTool(t, "claude-conversations.json", FileOptions{Category: "chats/claude"})
	if format != FormatClaude {
		t.Fatalf("format %q", format)
	}
	got := items(p)
	e, ok := got["chats/claude:Kyoto itinerary (1c9f2a4e)"]
	if !ok {
		t.Fatalf("items %v", got)
	}
	want := "### User (2024-04-01 08:00)\n\nPlan three days in Kyoto.\n\nAttachment: notes.txt\n\n```\nTemples, not museums.\n```\n\n" +
		"### Assistant (2024-04-01 08:00)\n\nDay one: Fushimi Inari at dawn.\n"
	if e.Content != want {
		t.Errorf("content:\n%s\nwant\n%s", e.Content, want)
	}
	if !e.Meta.Created.Equal(time.Date(2024, 4, 1, 8, 0, 0, 0, time.UTC)) || !e.Meta.Updated.Equal(time.Date(2024, 4, 1, 9, 30, 0, 123456000, time.UTC)) {
		t.Errorf("times %v %v", e.Meta.Created, e.Meta.Updated)
	}
	if e, ok := got["chats/claude:Untitled (2d0a3b5f)"]; !ok || !strings.Contains(e.Content, "Old-style message with text only.") {
		t.Errorf("untitled: %+v %v", e, ok)
	}
	if s := skips(p); len(s) != 1 || !strings.Contains(s[0], `created_at: "yesterday" is not an RFC 3339 time`) {
		t.Errorf("skipped %q", s)
	}
}

func TestReadMem0(t *testing.T) {
	p, format := readTool(t, "mem0-memories.json", FileOptions{})
	if format != FormatMem0 {
		t.Fatalf("format %q", format)
	}
	got := items(p)
	e := got["mem0:7d2c1b0a-9e8f-4d6c-b5a4-3c2b1a0f9e8d"]
	if e.Content != "Dev works at TechCorp as a senior engineer" || !slices.Equal(e.Meta.Tags, []string{"professional_details"}) ||
		e.Meta.Extra["user_id"] != "dev" || e.Meta.Extra["metadata"].(map[string]any)["type"] != "professional" ||
		!e.Meta.Created.Equal(time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)) {
		t.Errorf("dev: %+v", e)
	}
	if len(got) != 2 {
		t.Errorf("%d items", len(got))
	}
	if s := skips(p); len(s) != 1 || !strings.HasSuffix(s[0], "item 3: memory without an id") {
		t.Errorf("skipped %q", s)
	}
	p, _ = readTool(t, "mem0-v1.json", FileOptions{})
	if e := items(p)["mem0:9f4e3d2c-1b0a-4f8e-d7c6-5e4d3c2b1a0f"]; !strings.HasPrefix(e.Content, "Carl is leading") {
		t.Errorf("v1: %+v", p.Items)
	}
}

// Each format lands in a store and a second import of the same file
// writes nothing: every entry is unchanged and the revision stays.
func TestToolsReimportWritesNothing(t *testing.T) {
	for _, file := range []string{"memory.jsonl", "chatgpt-conversations.json", "claude-conversations.json", "mem0-memories.json"} {
		t.Run(file, func(t *testing.T) {
			st, err := fsstore.Open(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			p, _ := readTool(t, file, FileOptions{})
			rep, err := p.Write(ctx, st, WriteOptions{})
			if err != nil || rep.Added != len(p.Items) || len(rep.Rejected) > 0 {
				t.Fatalf("first: %+v %v", rep, err)
			}
			rev, _ := st.Revision(ctx)
			p, _ = readTool(t, file, FileOptions{})
			rep, err = p.Write(ctx, st, WriteOptions{})
			if err != nil || rep.Unchanged != len(p.Items) || rep.Imported() != 0 {
				t.Errorf("again: %+v %v", rep, err)
			}
			if r, _ := st.Revision(ctx); r != rev {
				t.Errorf("revision moved %d -> %d", rev, r)
			}
		})
	}
}

// --format forces a format: JSONL of the wrong shape is then reported
// line by line, not guessed at.
func TestReadFileForcedFormat(t *testing.T) {
	p, format := readTool(t, "memory.jsonl", FileOptions{Format: FormatJSONL})
	if format != FormatJSONL || len(p.Items) != 0 || len(p.Skipped) != 8 {
		t.Errorf("%q: %d items, %d skipped", format, len(p.Items), len(p.Skipped))
	}
	if _, err := ParseFormat("obsidian"); err == nil || !strings.Contains(err.Error(), "jsonl, mcp-memory, chatgpt, claude, mem0") {
		t.Errorf("ParseFormat: %v", err)
	}
}
