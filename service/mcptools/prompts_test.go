package mcptools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
)

func add(t *testing.T, m *service.Memory, category, name, content string, tags ...string) {
	t.Helper()
	if _, err := m.Add(context.Background(), service.AddRequest{Category: category, Name: name, Content: content, Tags: tags}); err != nil {
		t.Fatal(err)
	}
}

func getPrompt(t *testing.T, cs *mcp.ClientSession, args map[string]string) (*mcp.GetPromptResult, error) {
	t.Helper()
	return cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: PromptName, Arguments: args})
}

func promptText(t *testing.T, res *mcp.GetPromptResult) string {
	t.Helper()
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("prompt messages: %+v", res.Messages)
	}
	return res.Messages[0].Content.(*mcp.TextContent).Text
}

// The recall prompt is listed with its two arguments, and prompts/get
// returns one user message: the retrieve tool's own text for the message,
// under ContextIntro, then the message.
func TestPromptPutsTheRetrieveBeforeTheMessage(t *testing.T) {
	m := newMemory(t)
	add(t, m, "trips", "三亚之行", "想去海边玩, with [[people:妈妈]]")
	add(t, m, "people", "妈妈", "Likes the sea.")
	add(t, m, "work", "harbor", "Deploys on Fridays are frozen.")
	cs := connect(t, m)

	list, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Prompts) != 1 || list.Prompts[0].Name != "recall" {
		t.Fatalf("prompts: %+v", list.Prompts)
	}
	args := list.Prompts[0].Arguments
	if len(args) != 2 || args[0].Name != "message" || !args[0].Required || args[1].Name != "budget_tokens" || args[1].Required ||
		!strings.Contains(args[1].Description, "Default 800") {
		t.Errorf("prompt arguments: %+v %+v", args[0], args[1])
	}

	res, err := getPrompt(t, cs, map[string]string{"message": "想去海边玩"})
	if err != nil {
		t.Fatal(err)
	}
	tool := text(callTool(t, cs, "retrieve", map[string]any{"query": "想去海边玩"}))
	want := ContextIntro + "\n\n" + strings.TrimRight(tool, "\n") + "\n\n---\n\n想去海边玩"
	if got := promptText(t, res); got != want {
		t.Errorf("prompt text:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(tool, "[hit] trips:三亚之行") || !strings.Contains(tool, "[link via trips:三亚之行] people:妈妈") || strings.Contains(tool, "harbor") {
		t.Errorf("retrieve text: %s", tool)
	}
	if res.Description != "2 entries from recall for the message" {
		t.Errorf("description %q", res.Description)
	}

	// The budget argument reaches the retrieve: the first item is always
	// kept, its link is dropped.
	res, err = getPrompt(t, cs, map[string]string{"message": "想去海边玩", "budget_tokens": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := promptText(t, res); !strings.Contains(got, "1 item, ") || !strings.Contains(got, "13/1 tokens.\n\n---") || strings.Contains(got, "[link") {
		t.Errorf("budget 1: %s", got)
	}

	// Nothing matched: the message alone, with a line that says so.
	res, err = getPrompt(t, cs, map[string]string{"message": "quantum chromodynamics"})
	if err != nil {
		t.Fatal(err)
	}
	if got := promptText(t, res); got != "recall's memory holds nothing that matches the user's message.\n\n---\n\nquantum chromodynamics" {
		t.Errorf("no match: %q", got)
	}
}

// Bad arguments are JSON-RPC invalid params errors that say what is wrong.
func TestPromptBadArguments(t *testing.T) {
	cs := connect(t, newMemory(t))
	for _, c := range []struct {
		args map[string]string
		want string
	}{
		{nil, `argument "message" is required`},
		{map[string]string{"message": "  "}, `argument "message" is required`},
		{map[string]string{"message": "x", "budget_tokens": "lots"}, `"budget_tokens" must be a whole number`},
		{map[string]string{"message": "x", "budget_tokens": "-1"}, `"budget_tokens" must be a whole number`},
	} {
		_, err := getPrompt(t, cs, c.args)
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, c.want) {
			t.Errorf("%v: %v, want invalid params %q", c.args, err, c.want)
		}
	}
}

// A message over the bounds of a query (a pasted log) is not an error: it
// is searched by its beginning.
func TestPromptLongMessage(t *testing.T) {
	m := newMemory(t)
	add(t, m, "work", "harbor", "The harbor service deploys on Fridays.")
	cs := connect(t, m)
	var b strings.Builder
	b.WriteString("harbor deploy failed again, log follows:")
	for i := 0; b.Len() < 3*service.MaxQueryBytes; i++ {
		fmt.Fprintf(&b, " token%d", i) // far more than MaxQueryTerms distinct terms
	}
	long := b.String()
	if _, _, err := m.Retrieve(context.Background(), service.RetrieveParams{Query: long}); err == nil {
		t.Fatal("the long message fits a query: the test proves nothing")
	}
	res, err := getPrompt(t, cs, map[string]string{"message": long})
	if err != nil {
		t.Fatal(err)
	}
	got := promptText(t, res)
	if !strings.Contains(got, "[hit] work:harbor") || !strings.HasSuffix(got, "---\n\n"+long) {
		t.Errorf("long message: %.300s", got)
	}
	// A long CJK message (bigrams count as terms) too.
	cjk := "海边" + strings.Repeat("天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜金生丽水玉出昆冈", 60)
	add(t, m, "trips", "海边", "海边 trip.")
	res, err = getPrompt(t, cs, map[string]string{"message": cjk})
	if err != nil {
		t.Fatal(err)
	}
	if got := promptText(t, res); !strings.Contains(got, "[hit] trips:海边") {
		t.Errorf("long CJK message: %.300s", got)
	}
}
