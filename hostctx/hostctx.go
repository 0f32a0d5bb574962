package hostctx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/mcptools"
)

// The hook events Run answers (Claude Code's names).
const (
	UserPromptSubmit = "UserPromptSubmit"
	SessionStart     = "SessionStart"
)

// Bounds and defaults.
const (
	// MaxInputBytes bounds the hook input read from stdin (a prompt with
	// a large paste fits).
	MaxInputBytes = 8 << 20
	// MaxOutputChars bounds the context written: Claude Code gives the
	// model up to 10,000 characters whole and a preview of more.
	MaxOutputChars = 10000
	// DefaultTimeout is Options.Timeout's default. It leaves room for a
	// first run that builds the index of a large store (10k entries: 1.9 s
	// on a loaded 2-core machine), which then saves the store's index copy
	// for the next runs (a run cut short saves nothing, so a deadline
	// below the build time would fail every run), and bounds what a hung
	// store costs each prompt.
	DefaultTimeout = 5 * time.Second
	// DefaultBudget is the budget Options.Budget 0 stands for.
	DefaultBudget = retrieve.DefaultBudget
	// DefaultRecent is Options.Recent's default.
	DefaultRecent = 7 * 24 * time.Hour
	// overviewCategories is how many categories the SessionStart line
	// names before "and N more".
	overviewCategories = 20
)

// Format is how the context is written.
type Format int

const (
	// JSON writes {"hookSpecificOutput": {"hookEventName": E,
	// "additionalContext": TEXT}} and a newline.
	JSON Format = iota
	// Text writes the text and a newline.
	Text
)

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Budget caps the estimated tokens of the entries injected; 0 means
	// retrieve.DefaultBudget, a negative value no cap.
	Budget int
	// Recent is how far back SessionStart lists entries; 0 means
	// DefaultRecent.
	Recent time.Duration
	// Timeout bounds the whole run, from reading stdin to writing; 0
	// means DefaultTimeout.
	Timeout time.Duration
	// Format is the output's form (JSON by default).
	Format Format
	// Now is the clock (time phrases, SessionStart's window); nil means
	// time.Now.
	Now func() time.Time
}

// Input is one hook input: the fields Claude Code sends to every command
// hook, and those of the two events answered. Other fields are ignored.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	// Prompt is what the user submitted (UserPromptSubmit).
	Prompt string `json:"prompt"`
	// Source is why the session started (SessionStart): startup, resume,
	// clear or compact.
	Source string `json:"source"`
}

// ErrInput is wrapped by ParseInput's errors.
var ErrInput = errors.New("not a hook input")

// ParseInput reads one hook input: a JSON object of at most
// MaxInputBytes with a hook_event_name.
func ParseInput(r io.Reader) (Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return Input{}, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(b) > MaxInputBytes {
		return Input{}, fmt.Errorf("%w: over %d bytes", ErrInput, MaxInputBytes)
	}
	var in Input
	if err := json.Unmarshal(b, &in); err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if in.HookEventName == "" {
		return Input{}, fmt.Errorf("%w: no hook_event_name", ErrInput)
	}
	return in, nil
}

// Opener opens the memory Run reads, and returns what closes it. Run
// calls it only for an event it answers.
type Opener func(ctx context.Context) (m *service.Memory, closeFn func(), err error)

// Run reads one hook input from r and writes to w the context the host
// injects for it, in one write, or nothing. Every failure (see the
// package's Caveats) writes nothing and is returned.
func Run(ctx context.Context, r io.Reader, w io.Writer, open Opener, opts Options) error {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("panic: %v", p)}
			}
			done <- res
		}()
		res.out, res.err = build(ctx, r, open, opts)
	}()
	select {
	case res := <-done:
		if res.err != nil || len(res.out) == 0 {
			return res.err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("no context within %v: %w", timeout, ctx.Err())
		}
		_, err := w.Write(res.out)
		return err
	case <-ctx.Done():
		return fmt.Errorf("no context within %v: %w", timeout, ctx.Err())
	}
}

type result struct {
	out []byte
	err error
}

// build is Run's work: the whole output, or nil for none.
func build(ctx context.Context, r io.Reader, open Opener, opts Options) ([]byte, error) {
	in, err := ParseInput(r)
	if err != nil {
		return nil, err
	}
	if in.HookEventName != UserPromptSubmit && in.HookEventName != SessionStart {
		return nil, nil
	}
	m, closeFn, err := open(ctx)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	text, err := Context(ctx, m, in, opts)
	if err != nil || text == "" {
		return nil, err
	}
	return Output(in.HookEventName, text, opts.Format)
}

// Context is the text to inject for in: see the package doc. It is ""
// for an event it does not answer, and when the memory has nothing to
// say.
func Context(ctx context.Context, m *service.Memory, in Input, opts Options) (string, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	p := service.RetrieveParams{Now: now().Format(time.RFC3339Nano)}
	if b := opts.Budget; b != 0 {
		b = max(b, 0) // negative: no cap, which the params spell 0
		p.BudgetTokens = &b
	}
	var text string
	switch in.HookEventName {
	case UserPromptSubmit:
		if strings.TrimSpace(in.Prompt) == "" {
			return "", nil
		}
		res, req, err := m.RetrieveMessage(ctx, in.Prompt, p)
		if err != nil {
			return "", err
		}
		text = mcptools.ContextText(res, req)
	case SessionStart:
		var err error
		if text, err = sessionStart(ctx, m, in, p, now(), opts.Recent); err != nil {
			return "", err
		}
	default:
		return "", nil
	}
	return cut(text, MaxOutputChars), nil
}

// sessionStart is SessionStart's text: a line on the memory, then the
// entries about the project (the working directory's name), then the
// entries dated in the last recent that are not already there. The
// project's entries take at most half the budget; the recent ones the
// rest.
func sessionStart(ctx context.Context, m *service.Memory, in Input, p service.RetrieveParams, now time.Time, recent time.Duration) (string, error) {
	if recent <= 0 {
		recent = DefaultRecent
	}
	budget := retrieve.DefaultBudget
	if p.BudgetTokens != nil {
		budget = *p.BudgetTokens // 0: no cap
	}
	var project *retrieve.Result
	var projectReq retrieve.Request
	name := projectName(in.CWD)
	if name != "" {
		q := p
		q.Query, q.NoTime = name, true
		if budget > 0 {
			q.BudgetTokens = ptr(max(budget/2, 1))
		}
		res, req, err := m.Retrieve(ctx, q)
		if err != nil {
			return "", err
		}
		if hits := slices.ContainsFunc(res.Items, func(it retrieve.Item) bool { return len(it.MatchedTerms) > 0 }); hits {
			project, projectReq = res, req
		}
	}
	// The timeline loads the index (from the store's copy when current),
	// which then counts the categories without reading an entry.
	t := p
	t.After = now.Add(-recent).Format(time.RFC3339Nano)
	if budget > 0 && project != nil {
		t.BudgetTokens = ptr(max(budget-project.BudgetUsed, 1))
	}
	res, req, err := m.Retrieve(ctx, t)
	if err != nil {
		return "", err
	}
	snap, err := m.Engine().Snapshot(ctx)
	if err != nil {
		return "", err
	}
	counts := map[string]int{}
	total := 0
	snap.Docs(func(d *index.Doc) bool {
		counts[d.Category]++
		total++
		return true
	})
	if total == 0 {
		return "", nil
	}
	cats := slices.Sorted(maps.Keys(counts))
	names := make([]string, 0, min(len(cats), overviewCategories))
	for _, c := range cats[:min(len(cats), overviewCategories)] {
		names = append(names, fmt.Sprintf("%s (%d)", c, counts[c]))
	}
	if more := len(cats) - len(names); more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "recall holds the user's long-term memory: %s in %s: %s. When recall's retrieve tool is available, search it before answering anything about the user or their work.",
		plural(total, "entry", "entries"), plural(len(cats), "category", "categories"), strings.Join(names, ", "))
	if project != nil {
		fmt.Fprintf(&b, "\n\nEntries about %q (the working directory's name):\n\n%s", name, mcptools.ResultText(project, projectReq))
		res = without(res, project)
	}
	if len(res.Items) > 0 {
		res.TimeRange = nil // said in words below
		fmt.Fprintf(&b, "\n\nEntries dated in the last %s, newest first:\n\n%s", days(recent), mcptools.ResultText(res, req))
	}
	return b.String(), nil
}

// projectName is the name of the folder a session works in, when it can
// name a project: not the root, not a hidden folder.
func projectName(cwd string) string {
	if cwd == "" {
		return ""
	}
	name := filepath.Base(filepath.Clean(cwd))
	if name == "." || name == string(filepath.Separator) || strings.HasPrefix(name, ".") {
		return ""
	}
	return name
}

// without is res less the items that seen already holds, with its
// budget used counted again.
func without(res, seen *retrieve.Result) *retrieve.Result {
	have := map[string]bool{}
	for _, it := range seen.Items {
		have[it.Category+"\x00"+it.Name] = true
	}
	out := *res
	out.Items, out.BudgetUsed = nil, 0
	for _, it := range res.Items {
		if !have[it.Category+"\x00"+it.Name] {
			out.Items = append(out.Items, it)
			out.BudgetUsed += it.TokensEst
		}
	}
	return &out
}

func ptr[T any](v T) *T { return &v }

// Output is text as Claude Code takes it for event, in format f, with a
// final newline.
func Output(event, text string, f Format) ([]byte, error) {
	if f == Text {
		return []byte(text + "\n"), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}{HookSpecificOutput: struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}{event, text}})
	return buf.Bytes(), err
}

// cut returns s cut to at most n characters, saying so at the end.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	const note = "\n[cut: call retrieve for the rest]"
	keep := n - utf8.RuneCountInString(note)
	i := 0
	for k := 0; k < keep; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + note
}

func days(d time.Duration) string {
	if n := int(d.Round(time.Hour).Hours()); n%24 != 0 {
		return plural(n, "hour", "hours")
	}
	return plural(int(d.Round(time.Hour).Hours())/24, "day", "days")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
