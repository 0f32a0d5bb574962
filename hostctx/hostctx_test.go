package hostctx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// now is the clock of the tests: Wednesday 4 June 2025, 09:00 in +08:00.
var now = time.Date(2025, 6, 4, 9, 0, 0, 0, time.FixedZone("", 8*3600))

func newMemory(t *testing.T) *service.Memory {
	t.Helper()
	st, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); st.Close() })
	return m
}

func add(t *testing.T, m *service.Memory, category, name, content string, date time.Time) {
	t.Helper()
	if _, err := m.Add(context.Background(), service.AddRequest{Category: category, Name: name, Content: content, Date: date}); err != nil {
		t.Fatal(err)
	}
}

// opener hands out m and counts the calls.
func opener(m *service.Memory, calls *int) Opener {
	return func(context.Context) (*service.Memory, func(), error) {
		*calls++
		return m, func() {}, nil
	}
}

type hookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

func run(t *testing.T, input string, open Opener, opts Options) (string, error) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return now }
	}
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader(input), &out, open, opts)
	return out.String(), err
}

// A Claude Code UserPromptSubmit input, as its hooks reference shows it.
const promptInput = `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/harbor","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"%s"}`

func TestUserPromptSubmitInjectsTheRetrieve(t *testing.T) {
	m := newMemory(t)
	add(t, m, "work", "harbor", "Harbor deploys are frozen on Fridays. See [[people:Noor]].", time.Time{})
	add(t, m, "people", "Noor", "Noor owns the release.", time.Time{})
	add(t, m, "trips", "seaside", "Went to the seaside.", time.Time{})
	calls := 0
	out, err := run(t, strings.Replace(promptInput, "%s", "can we deploy harbor today?", 1), opener(m, &calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got hookOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
		t.Fatalf("output is not one JSON line: %q (%v)", out, err)
	}
	res, req, err := m.RetrieveMessage(context.Background(), "can we deploy harbor today?", service.RetrieveParams{Now: now.Format(time.RFC3339)})
	if err != nil {
		t.Fatal(err)
	}
	want := mcptools.ContextText(res, req)
	if got.HookSpecificOutput.HookEventName != "UserPromptSubmit" || got.HookSpecificOutput.AdditionalContext != want {
		t.Errorf("output %+v, want the context\n%s", got, want)
	}
	if !strings.Contains(want, "[hit] work:harbor") || !strings.Contains(want, "[link via work:harbor] people:Noor") || strings.Contains(want, "seaside") {
		t.Errorf("context: %s", want)
	}

	// --format text: the same text, plain.
	out, err = run(t, strings.Replace(promptInput, "%s", "can we deploy harbor today?", 1), opener(m, &calls), Options{Format: Text})
	if err != nil || out != want+"\n" {
		t.Errorf("text format: %q, %v", out, err)
	}

	// A budget: the first hit is kept, its link dropped.
	out, err = run(t, strings.Replace(promptInput, "%s", "harbor", 1), opener(m, &calls), Options{Budget: 1, Format: Text})
	if err != nil || !strings.Contains(out, "[hit] work:harbor") || strings.Contains(out, "[link") || !strings.Contains(out, "/1 tokens.") {
		t.Errorf("budget 1: %q, %v", out, err)
	}

	// Nothing matches, an empty prompt: nothing at all.
	for _, prompt := range []string{"quantum chromodynamics", "", "   "} {
		if out, err := run(t, strings.Replace(promptInput, "%s", prompt, 1), opener(m, &calls), Options{}); out != "" || err != nil {
			t.Errorf("prompt %q: %q, %v", prompt, out, err)
		}
	}

	// A time phrase in the prompt is the retrieve's time range.
	add(t, m, "diary", "beach day", "Swam at the beach.", now.AddDate(0, 0, -8))
	add(t, m, "diary", "old beach", "A beach long ago.", now.AddDate(-1, 0, 0))
	out, err = run(t, strings.Replace(promptInput, "%s", "what beach did I go to last week", 1), opener(m, &calls), Options{Format: Text})
	if err != nil || !strings.Contains(out, `Time range "last week"`) || !strings.Contains(out, "diary:beach day") || strings.Contains(out, "old beach") {
		t.Errorf("time phrase: %q, %v", out, err)
	}
}

func TestSessionStartGivesTheMemoryAndItsRecentEntries(t *testing.T) {
	m := newMemory(t)
	calls := 0
	input := `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/home/u","hook_event_name":"SessionStart","source":"startup"}`

	// An empty memory: nothing to say.
	if out, err := run(t, input, opener(m, &calls), Options{}); out != "" || err != nil {
		t.Errorf("empty memory: %q, %v", out, err)
	}
	add(t, m, "people", "Noor", "Noor owns the harbor release.", now.AddDate(0, 0, -30))
	add(t, m, "work", "harbor freeze", "Harbor is frozen until the audit.", now.AddDate(0, 0, -2))
	add(t, m, "work", "standup", "Standup moved to 10:00.", now.AddDate(0, 0, -1))
	out, err := run(t, input, opener(m, &calls), Options{Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	head := "recall holds the user's long-term memory: 3 entries in 2 categories: people (1), work (2). When recall's retrieve tool is available, search it before answering anything about the user or their work.\n\nEntries dated in the last 7 days, newest first:\n\n"
	if !strings.HasPrefix(out, head) {
		t.Fatalf("session start:\n%s", out)
	}
	body := out[len(head):]
	if i, j := strings.Index(body, "work:standup"), strings.Index(body, "work:harbor freeze"); i < 0 || j < i || strings.Contains(body, "Noor") || strings.Contains(body, "Time range") {
		t.Errorf("recent entries:\n%s", body)
	}
	// Recent is an option: with one day, only the standup.
	out, _ = run(t, input, opener(m, &calls), Options{Format: Text, Recent: 36 * time.Hour})
	if !strings.Contains(out, "in the last 36 hours") || strings.Contains(out, "harbor freeze") || !strings.Contains(out, "work:standup") {
		t.Errorf("recent 36h:\n%s", out)
	}
	// JSON names the event.
	out, _ = run(t, input, opener(m, &calls), Options{})
	var got hookOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.HookSpecificOutput.HookEventName != "SessionStart" {
		t.Errorf("json: %q", out)
	}
}

// A session in a project's folder starts with the entries about the
// project (by the folder's name), then the recent entries not already
// given.
func TestSessionStartInAProjectFolder(t *testing.T) {
	m := newMemory(t)
	add(t, m, "work", "harbor freeze", "Harbor is frozen until the audit.", now.AddDate(0, 0, -2))
	add(t, m, "work", "harbor design", "Harbor keeps one queue per tenant.", now.AddDate(-1, 0, 0))
	add(t, m, "work", "standup", "Standup moved to 10:00.", now.AddDate(0, 0, -1))
	calls := 0
	out, err := run(t, `{"hook_event_name":"SessionStart","source":"startup","cwd":"/home/u/src/harbor"}`, opener(m, &calls), Options{Format: Text, Budget: 400})
	if err != nil {
		t.Fatal(err)
	}
	project, recent, ok := strings.Cut(out, "Entries dated in the last 7 days, newest first:")
	if !ok || !strings.Contains(project, "\n\nEntries about \"harbor\" (the working directory's name):\n\n") ||
		!strings.Contains(project, "[hit] work:harbor freeze") || !strings.Contains(project, "[hit] work:harbor design") || !strings.Contains(project, "/200 tokens.") ||
		!strings.Contains(recent, "work:standup") || strings.Contains(recent, "harbor") {
		t.Errorf("session start in harbor/:\n%s", out)
	}
	// A folder whose name matches nothing adds no section.
	out, _ = run(t, `{"hook_event_name":"SessionStart","source":"startup","cwd":"/home/u/src/quasar"}`, opener(m, &calls), Options{Format: Text})
	if strings.Contains(out, "Entries about") || !strings.Contains(out, "work:harbor freeze") {
		t.Errorf("session start in quasar/:\n%s", out)
	}
}

func TestProjectName(t *testing.T) {
	for cwd, want := range map[string]string{"/home/u/src/harbor": "harbor", "/home/u/src/harbor/": "harbor", "/": "", "": "", "/home/u/.config": "", "relative/dir": "dir"} {
		if got := projectName(cwd); got != want {
			t.Errorf("projectName(%q) = %q, want %q", cwd, got, want)
		}
	}
}

// Over 20 categories, the line names the first 20 and counts the rest.
func TestSessionStartManyCategories(t *testing.T) {
	m := newMemory(t)
	for i := range 23 {
		add(t, m, fmt.Sprintf("c%02d", i), "x", "old", now.AddDate(-1, 0, 0))
	}
	calls := 0
	out, err := run(t, `{"hook_event_name":"SessionStart","source":"compact"}`, opener(m, &calls), Options{Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	want := "recall holds the user's long-term memory: 23 entries in 23 categories: c00 (1), c01 (1), "
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "c19 (1), and 3 more. When recall") || strings.Contains(out, "c20") || strings.Contains(out, "Entries dated") {
		t.Errorf("session start: %q", out)
	}
}

// Events it does not answer print nothing and do not open the store.
func TestOtherEventsGiveNothing(t *testing.T) {
	calls := 0
	m := newMemory(t)
	add(t, m, "work", "harbor", "Harbor.", time.Time{})
	for _, in := range []string{
		`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"prompt":"harbor"}`,
		`{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false}`,
	} {
		if out, err := run(t, in, opener(m, &calls), Options{}); out != "" || err != nil {
			t.Errorf("%s: %q, %v", in, out, err)
		}
	}
	if calls != 0 {
		t.Errorf("the store was opened %d times", calls)
	}
}

// Every failure writes nothing and says why.
func TestFailOpen(t *testing.T) {
	m := newMemory(t)
	add(t, m, "work", "harbor", "Harbor.", time.Time{})
	good := strings.Replace(promptInput, "%s", "harbor", 1)
	calls := 0
	// A real bolt store held by another handle: opening it again waits
	// for the lock longer than the run may take.
	dbPath := filepath.Join(t.TempDir(), "held.db")
	held, err := boltstore.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	closedStore, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	closedStore.Close()

	for _, c := range []struct {
		name  string
		input io.Reader
		open  Opener
		opts  Options
		want  string
	}{
		{"bad JSON", strings.NewReader(`{"hook_event_name":`), opener(m, &calls), Options{}, "not a hook input"},
		{"not an object", strings.NewReader(`["UserPromptSubmit"]`), opener(m, &calls), Options{}, "not a hook input"},
		{"no event", strings.NewReader(`{"prompt":"harbor"}`), opener(m, &calls), Options{}, "no hook_event_name"},
		{"empty input", strings.NewReader(""), opener(m, &calls), Options{}, "not a hook input"},
		{"input too large", io.MultiReader(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"`), strings.NewReader(strings.Repeat("a", MaxInputBytes))), opener(m, &calls), Options{}, "over 8388608 bytes"},
		{"open fails", strings.NewReader(good), func(context.Context) (*service.Memory, func(), error) {
			return nil, nil, store.ErrLocked
		}, Options{}, "locked"},
		{"store closed", strings.NewReader(good), func(context.Context) (*service.Memory, func(), error) {
			return service.New(closedStore, service.Options{}), func() {}, nil
		}, Options{}, "closed"},
		{"panic", strings.NewReader(good), func(context.Context) (*service.Memory, func(), error) {
			panic("boom")
		}, Options{}, "panic: boom"},
		{"stdin never ends", blockingReader{}, opener(m, &calls), Options{Timeout: 50 * time.Millisecond}, "no context within 50ms"},
		{"store lock held", strings.NewReader(good), func(context.Context) (*service.Memory, func(), error) {
			st, err := boltstore.Open(dbPath, &boltstore.Options{Timeout: 5 * time.Second})
			if err != nil {
				return nil, nil, err
			}
			return service.New(st, service.Options{}), func() { st.Close() }, nil
		}, Options{Timeout: 100 * time.Millisecond}, "no context within 100ms"},
	} {
		var out bytes.Buffer
		opts := c.opts
		opts.Now = func() time.Time { return now }
		start := time.Now()
		err := Run(context.Background(), c.input, &out, c.open, opts)
		if out.Len() != 0 || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: wrote %q, error %v, want one naming %q", c.name, out.String(), err, c.want)
		}
		if c.opts.Timeout > 0 && time.Since(start) > 10*c.opts.Timeout+time.Second {
			t.Errorf("%s: returned after %v", c.name, time.Since(start))
		}
		if c.opts.Timeout > 0 && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v is not a deadline", c.name, err)
		}
	}
}

// blockingReader is a stdin that never sends anything.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

// The output is cut at MaxOutputChars characters, on a character
// boundary, saying so.
func TestOutputIsCut(t *testing.T) {
	m := newMemory(t)
	add(t, m, "notes", "长文", "海边"+strings.Repeat("很长的一段文字。", 3000), time.Time{})
	calls := 0
	out, err := run(t, strings.Replace(promptInput, "%s", "海边", 1), opener(m, &calls), Options{Format: Text, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(out, "\n")
	if n := len([]rune(text)); n != MaxOutputChars || !strings.HasSuffix(text, "\n[cut: call retrieve for the rest]") || !strings.Contains(text, "[hit] notes:长文") {
		t.Errorf("%d characters, ending %q", n, text[len(text)-60:])
	}
}

func TestParseInput(t *testing.T) {
	in, err := ParseInput(strings.NewReader(`{"session_id":"s1","transcript_path":"/t","cwd":"/w","hook_event_name":"SessionStart","source":"compact","model":"x"}`))
	if err != nil || in != (Input{SessionID: "s1", TranscriptPath: "/t", CWD: "/w", HookEventName: "SessionStart", Source: "compact"}) {
		t.Errorf("%+v, %v", in, err)
	}
	if _, err := ParseInput(strings.NewReader(`{}`)); !errors.Is(err, ErrInput) {
		t.Errorf("{}: %v", err)
	}
}
