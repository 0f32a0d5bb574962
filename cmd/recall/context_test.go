package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recall context prints Claude Code's hook output for the sample store.
func TestContextCommand(t *testing.T) {
	store := copySample(t)
	c := newCLI(t, nil)
	o := c.runIn(strings.NewReader(`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"想去海边玩"}`),
		"--store", store, "context", "--budget", "300")
	var got struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if o.code != 0 || o.stderr != "" || json.Unmarshal([]byte(o.stdout), &got) != nil {
		t.Fatalf("exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	ac := got.HookSpecificOutput.AdditionalContext
	if got.HookSpecificOutput.HookEventName != "UserPromptSubmit" || !strings.Contains(ac, "[hit] trips:青岛计划") || !strings.Contains(ac, "/300 tokens.") {
		t.Errorf("context: %+v", got)
	}
	// --budget 0: no cap.
	o = c.runIn(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"想去海边玩"}`), "--store", store, "context", "--budget", "0", "--format", "text")
	if o.code != 0 || !strings.Contains(o.stdout, " tokens.\n") || strings.Contains(o.stdout, "/800 tokens") || strings.Contains(o.stdout, "/0 tokens") {
		t.Errorf("--budget 0: %q", o.stdout)
	}
	o = c.runIn(strings.NewReader(`{"hook_event_name":"SessionStart","source":"startup"}`), "--store", store, "context", "--format", "text")
	if o.code != 0 || !strings.HasPrefix(o.stdout, "recall holds the user's long-term memory: 54 entries in 8 categories: daily_life (8), ") {
		t.Errorf("session start: exit %d, %q, %q", o.code, o.stdout, o.stderr)
	}
}

// Every failure prints nothing on stdout, one line on stderr, and exits
// 0: a missing store, a damaged one, bad input, bad flags, arguments.
func TestContextFailsOpen(t *testing.T) {
	dir := t.TempDir()
	damaged := filepath.Join(dir, "damaged.db")
	if err := os.WriteFile(damaged, []byte(strings.Repeat("not a bolt file ", 512)), 0o600); err != nil {
		t.Fatal(err)
	}
	sample := copySample(t)
	good := `{"hook_event_name":"UserPromptSubmit","prompt":"想去海边玩"}`
	for _, c := range []struct {
		name, input string
		args        []string
		want        string
	}{
		{"missing store", good, []string{"--store", filepath.Join(dir, "nowhere"), "context"}, "store does not exist"},
		{"missing bolt file", good, []string{"--store", filepath.Join(dir, "nowhere.db"), "context"}, "does not exist"},
		{"damaged bolt file", good, []string{"--store", damaged, "context"}, "damaged.db"},
		{"bad JSON", `{"hook_event_name": "UserPromptSubmit", "prompt": `, []string{"--store", sample, "context"}, "not a hook input"},
		{"no input", "", []string{"--store", sample, "context"}, "not a hook input"},
		{"unknown flag", good, []string{"--store", sample, "context", "--bogus"}, "unknown flag: --bogus"},
		{"bad flag value", good, []string{"--store", sample, "context", "--budget", "many"}, "invalid argument"},
		{"bad format", good, []string{"--store", sample, "context", "--format", "xml"}, "--format must be json or text"},
		{"arguments", good, []string{"--store", sample, "context", "extra"}, "takes no arguments"},
		{"zero timeout", good, []string{"--store", sample, "context", "--timeout", "0"}, "--timeout must be more than 0"},
		{"negative budget", good, []string{"--store", sample, "context", "--budget", "-5"}, "--budget must be 0 (no cap) or more"},
		{"bad segmenter", good, []string{"--store", sample, "context", "--segmenter", "maybe"}, "segmenter"},
	} {
		o := newCLI(t, nil).runIn(strings.NewReader(c.input), c.args...)
		if o.code != 0 || o.stdout != "" || !strings.HasPrefix(o.stderr, "recall context: ") || !strings.Contains(o.stderr, c.want) || strings.Count(o.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want it to name %q)", c.name, o.code, o.stdout, o.stderr, c.want)
		}
	}
}

// A host that never closes the hook's stdin gets nothing after --timeout,
// exit 0, from the real binary.
func TestContextTimeout(t *testing.T) {
	cmd := exec.Command(recallBinary(t), "--store", copySample(t), "context", "--timeout", "200ms")
	cmd.Env = childEnv(t)
	stdin, err := cmd.StdinPipe() // held open, never written
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("recall context did not give up")
	}
	if err != nil || stdout.String() != "" || !strings.Contains(stderr.String(), "no context within 200ms") {
		t.Errorf("after %v: %v, stdout %q, stderr %q", time.Since(start), err, stdout.String(), stderr.String())
	}
}
