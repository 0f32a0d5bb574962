package mcptools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The instructions a host gives the model say when to retrieve and when
// to write, name the tools they rely on, and point at the prompt and the
// resources; the handshake carries them.
func TestInstructionsSayWhenToRetrieveAndWrite(t *testing.T) {
	cs := connect(t, newMemory(t))
	got := cs.InitializeResult().Instructions
	if got != Instructions {
		t.Fatalf("handshake instructions differ from Instructions: %q", got)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	for _, rule := range []struct{ what, text string }{
		// When to retrieve.
		{"retrieve at the start of a task", "call retrieve at the start of a task"},
		{"retrieve before answering", "before answering anything that may depend on what you know about the user or their project"},
		{"retrieve first, answer after", "before you answer, not after"},
		{"time phrases in English", `"last week"`},
		{"time phrases in Chinese", `"上周"`},
		{"the user's clock", "pass now with their UTC offset"},
		{"nothing found is not an error", "No items means the memory holds nothing on it, not an error"},
		// When to write.
		{"write durable facts", "something durable"},
		{"write preferences", "a preference"},
		{"write corrections", "a correction of what the memory says"},
		{"find the entry first", "Retrieve first to find the entry it belongs to"},
		{"add replaces", "add replaces the whole content"},
		{"no chit-chat", "Do not write chit-chat"},
		// Without a tool call.
		{"the prompt", `the prompt "` + PromptName + `"`},
		{"the resources", RootURI + " (the categories), " + CategoryTemplate + " (a category's entries) and " + EntryTemplate + " (one entry)"},
	} {
		if !strings.Contains(Instructions, rule.text) {
			t.Errorf("instructions do not say %s (%q)", rule.what, rule.text)
		}
	}
	for _, tool := range []string{"retrieve", "append", "edit", "add"} {
		if !names[tool] {
			t.Errorf("the instructions rely on a tool %q the server does not offer", tool)
		}
		if !strings.Contains(Instructions, tool+" ") {
			t.Errorf("instructions do not name %s", tool)
		}
	}
}

// Every tool, prompt argument and resource template says what it is for,
// and every parameter of every tool (at any depth) has a description: a
// model reads nothing else.
func TestEveryToolAndParameterIsDescribed(t *testing.T) {
	cs := connect(t, newMemory(t))
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 8 {
		t.Errorf("%d tools", len(tools.Tools))
	}
	for _, tool := range tools.Tools {
		if len(tool.Description) < 100 || tool.Title == "" {
			t.Errorf("tool %s: title %q, description too thin: %q", tool.Name, tool.Title, tool.Description)
		}
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		s := new(jsonschema.Schema)
		if err := json.Unmarshal(b, s); err != nil {
			t.Fatal(err)
		}
		if tool.Name != "categories" && len(s.Properties) == 0 {
			t.Errorf("tool %s: no parameters", tool.Name)
		}
		var walk func(path string, s *jsonschema.Schema)
		walk = func(path string, s *jsonschema.Schema) {
			for name, p := range s.Properties {
				if len(p.Description) < 15 {
					t.Errorf("tool %s: parameter %s%s: description %q", tool.Name, path, name, p.Description)
				}
				walk(path+name+".", p)
			}
			if s.Items != nil {
				walk(path+"[].", s.Items)
			}
		}
		walk("", s)
	}
	// When to call: retrieve at the start and before answering; add for
	// durable things, not chit-chat.
	desc := map[string]string{}
	for _, tool := range tools.Tools {
		desc[tool.Name] = tool.Description
	}
	for name, want := range map[string]string{
		"retrieve": "Call it at the start of a task, and before answering",
		"add":      "when you learn something durable about the user or their work (a fact, a preference, a decision, a correction), not chit-chat",
	} {
		if !strings.Contains(desc[name], want) {
			t.Errorf("tool %s: description lacks %q", name, want)
		}
	}

	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prompts.Prompts {
		if len(p.Description) < 100 || p.Title == "" {
			t.Errorf("prompt %s: %+v", p.Name, p)
		}
		for _, a := range p.Arguments {
			if len(a.Description) < 15 {
				t.Errorf("prompt %s: argument %s: description %q", p.Name, a.Name, a.Description)
			}
		}
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []struct{ name, title, desc string }{}
	for _, rt := range tmpl.ResourceTemplates {
		all = append(all, struct{ name, title, desc string }{rt.Name, rt.Title, rt.Description})
	}
	for _, r := range res.Resources {
		all = append(all, struct{ name, title, desc string }{r.Name, r.Title, r.Description})
	}
	if len(all) != 3 {
		t.Errorf("resources and templates of an empty memory: %+v", all)
	}
	for _, r := range all {
		if r.title == "" || len(r.desc) < 30 {
			t.Errorf("resource %s: %+v", r.name, r)
		}
	}
}

// The server advertises prompts and resources (without listChanged for
// resources: it sends no notifications) beside its tools.
func TestCapabilities(t *testing.T) {
	cs := connect(t, newMemory(t))
	caps := cs.InitializeResult().Capabilities
	//lint:ignore SA1019 the handshake still offers logging (NewServer)
	if caps.Tools == nil || caps.Prompts == nil || caps.Resources == nil || caps.Resources.ListChanged || caps.Logging == nil {
		t.Errorf("capabilities: %+v", caps)
	}
}
