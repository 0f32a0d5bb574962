package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/recallhq/recall/service/mcptools"
)

// TestMCPContextWithInspector reads the prompt and the resources of
// `recall serve`'s /mcp with the MCP Inspector's CLI, as a person checking
// a server would: prompts/list, prompts/get with key=value arguments,
// resources/templates/list, resources/list, resources/read.
func TestMCPContextWithInspector(t *testing.T) {
	dir, node := npmPackage(t, "inspector", "@modelcontextprotocol/inspector")
	store := copySample(t)
	base, _ := serveCLI(t, store)
	home := t.TempDir()
	inspect := func(v any, args ...string) string {
		t.Helper()
		args = append([]string{"node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js", "--cli", base + "/mcp", "--transport", "http"}, args...)
		cmd := exec.Command(node, args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			out = append(out, ee.Stderr...)
		}
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s", args[3:], err, out)
		}
		if err := json.Unmarshal(out, v); err != nil {
			t.Fatalf("inspector %v: %v\n%s", args[3:], err, out)
		}
		return string(out)
	}

	var prompts struct {
		Prompts []struct {
			Name      string `json:"name"`
			Arguments []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"arguments"`
		} `json:"prompts"`
	}
	inspect(&prompts, "--method", "prompts/list")
	if len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "recall" || len(prompts.Prompts[0].Arguments) != 2 {
		t.Errorf("prompts/list: %+v", prompts)
	}

	var prompt struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	out := inspect(&prompt, "--method", "prompts/get", "--prompt-name", "recall", "--prompt-args", "message=想去海边玩", "budget_tokens=300")
	if len(prompt.Messages) != 1 || prompt.Messages[0].Role != "user" ||
		!strings.HasPrefix(prompt.Messages[0].Content.Text, mcptools.ContextIntro+"\n\n[hit] trips:青岛计划 (") ||
		!strings.HasSuffix(prompt.Messages[0].Content.Text, "/300 tokens.\n\n---\n\n想去海边玩") {
		t.Errorf("prompts/get: %s", out)
	}

	var templates struct {
		ResourceTemplates []struct {
			URITemplate string `json:"uriTemplate"`
		} `json:"resourceTemplates"`
	}
	out = inspect(&templates, "--method", "resources/templates/list")
	if len(templates.ResourceTemplates) != 2 {
		t.Errorf("resources/templates/list: %s", out)
	}

	var list struct {
		Resources []struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		} `json:"resources"`
	}
	out = inspect(&list, "--method", "resources/list")
	if len(list.Resources) != 55 || list.Resources[0].URI != "recall://" {
		t.Errorf("resources/list: %d resources: %.500s", len(list.Resources), out)
	}

	var read struct {
		Contents []struct {
			URI  string `json:"uri"`
			Text string `json:"text"`
		} `json:"contents"`
	}
	uri := mcptools.EntryURI("trips", "三亚之行")
	out = inspect(&read, "--method", "resources/read", "--uri", uri)
	if len(read.Contents) != 1 || read.Contents[0].URI != uri || !strings.HasPrefix(read.Contents[0].Text, "trips:三亚之行 (") {
		t.Errorf("resources/read %s: %s", uri, out)
	}
}
