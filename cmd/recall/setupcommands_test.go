package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/treetest"
)

// sampleTests are the tests that read the sample memory (through
// internal/sample's copy), by package: the part of the README's second
// command that could meet what its first command left in the checkout.
var sampleTests = map[string]string{
	"./retrieve/":         "TestGoldenSampleMemory|TestSectionsGoldenWholeEntries",
	"./service/mcptools/": "TestToolAnswersByteForByte",
	"./cmd/recall/":       "TestRetrievePersistsIndexFolder",
	"./internal/sample/":  ".",
}

// setupCommands returns the README's two set-up commands: the first two
// sh blocks of its "## Set up" section.
func setupCommands(t *testing.T, md []byte) (run, test string) {
	t.Helper()
	at := bytes.Index(md, []byte("\n## Set up\n"))
	if at < 0 {
		t.Fatal(`README.md has no "## Set up" section`)
	}
	line := bytes.Count(md[:at], []byte("\n")) + 2
	blocks, err := tourBlocks(md)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, b := range blocks {
		if b.line > line && len(cmds) < 2 {
			cmds = append(cmds, strings.TrimSpace(b.text))
		}
	}
	if len(cmds) < 2 {
		t.Fatalf("README.md's set-up section has %d sh blocks, want 2", len(cmds))
	}
	return cmds[0], cmds[1]
}

// TestReadmeSetupCommands: in a fresh copy of the repository, the
// README's first set-up command (a retrieve from the sample memory) runs
// twice, then the tests that read the sample memory, then the command
// again, and the copy is left exactly as it was: either order, twice.
// (The second command is the whole test suite; what it shares with the
// first is the sample memory, so those are the tests run here.)
func TestReadmeSetupCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run and go test in a fresh copy of the repository")
	}
	root, md := readme(t)
	first, second := setupCommands(t, md)
	if !strings.Contains(first, "--store examples/memory") || !strings.HasPrefix(second, "go test") {
		t.Fatalf("set-up commands %q and %q: not a retrieve from the sample memory and the tests", first, second)
	}
	_, clone, env := freshCopy(t, root)
	before := treetest.Snapshot(t, clone)
	sh := func(what, script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-ec", script)
		cmd.Dir, cmd.Env = clone, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, tail(string(out), 4000))
		}
		if d := treetest.Diff(before, treetest.Snapshot(t, clone)); len(d) != 0 {
			t.Fatalf("%s changed the checkout:\n%s", what, strings.Join(d, "\n"))
		}
		return string(out)
	}
	answer := sh("the first command", first)
	if !strings.Contains(answer, "hit") {
		t.Fatalf("the first command answered no hit:\n%s", answer)
	}
	if again := sh("the first command again", first); again != answer {
		t.Fatalf("the first command answered differently the second time:\n%s\nwant\n%s", again, answer)
	}
	for pkg, run := range sampleTests {
		sh("the sample-memory tests of "+pkg, "go test -count=1 -run '"+run+"' "+pkg)
	}
	if last := sh("the first command after the tests", first); last != answer {
		t.Fatalf("the first command after the tests answered:\n%s\nwant\n%s", last, answer)
	}
}
