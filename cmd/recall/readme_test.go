package main

// The README's tour, run as a new user would run it.
//
// TestReadmeTour takes every fenced block tagged ```sh in README.md and
// runs them, in order and as written, in one bash session (so an export
// in one block holds in the next) that starts in a fresh copy of the
// repository's tracked files, with a fresh empty HOME, a freshly built
// recall first on PATH, Go's module and build caches (read offline:
// GOPROXY=off) and nothing else of the caller's environment. Where the
// system allows it (unshare), the session runs in its own network
// namespace with only a loopback: nothing can reach the network, and a
// server the README starts on its default port meets no other.
//
// The convention, agreed between everyone who edits the README: a block
// that cannot run so (it needs an API key, a remote host, a server in the
// foreground, or is the test suite itself) has, on the line right before
// its opening fence, exactly
//
//	<!-- tour: skip (the reason) -->
//
// and is not run. A skip line anywhere else, or without a reason, fails
// the test, and so does any other line that opens an HTML comment
// mentioning the tour (a misspelt skip line must not run its block). A
// block that starts a server in the background (&) stops it
// itself (kill $!); whatever is left when the session ends is killed with
// the session's process group. The whole session is bounded in time.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/treetest"
)

// tourBlock is one ```sh block of the README.
type tourBlock struct {
	line int    // of the opening fence, 1-based
	text string // the commands
	skip string // the reason, when skipped
}

var skipLine = regexp.MustCompile(`^<!-- tour: skip \((.+)\) -->$`)

// tourBlocks reads the ```sh blocks of a markdown file and checks the
// skip lines.
func tourBlocks(md []byte) ([]tourBlock, error) {
	var (
		blocks  []tourBlock
		cur     *tourBlock
		body    strings.Builder
		pending string // the reason of a skip line just read
		pendAt  int
		inFence bool
	)
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if inFence {
			if strings.HasPrefix(l, "```") {
				inFence = false
				if cur != nil {
					cur.text = body.String()
					blocks = append(blocks, *cur)
					cur = nil
				}
				continue
			}
			if cur != nil {
				body.WriteString(l + "\n")
			}
			continue
		}
		if pending != "" && l != "```sh" {
			return nil, fmt.Errorf("README.md:%d: a tour skip line must be right before a ```sh fence", pendAt)
		}
		if strings.HasPrefix(strings.TrimSpace(l), "<!--") && strings.Contains(l, "tour") {
			m := skipLine.FindStringSubmatch(l)
			if m == nil || strings.TrimSpace(m[1]) == "" {
				return nil, fmt.Errorf("README.md:%d: %q: write <!-- tour: skip (reason) --> with a reason", n, l)
			}
			pending, pendAt = m[1], n
			continue
		}
		if strings.HasPrefix(l, "```") {
			inFence = true
			if l == "```sh" {
				cur = &tourBlock{line: n, skip: pending}
				body.Reset()
			}
			pending = ""
		}
	}
	if pending != "" {
		return nil, fmt.Errorf("README.md:%d: a tour skip line must be right before a ```sh fence", pendAt)
	}
	return blocks, sc.Err()
}

func TestTourBlocksParse(t *testing.T) {
	md := "intro\n```sh\necho one\n```\n<!-- tour: skip (needs a key) -->\n```sh\necho two\n```\n```go\nx := 1\n```\n```sh\necho three\necho four\n```\n"
	blocks, err := tourBlocks([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	want := []tourBlock{{2, "echo one\n", ""}, {6, "echo two\n", "needs a key"}, {12, "echo three\necho four\n", ""}}
	if fmt.Sprint(blocks) != fmt.Sprint(want) {
		t.Fatalf("blocks = %+v, want %+v", blocks, want)
	}
	for _, bad := range []string{
		"<!-- tour: skip (x) -->\n\n```sh\necho\n```\n",  // not right before
		"<!-- tour: skip -->\n```sh\necho\n```\n",        // no reason
		"<!-- tour: skip (x) -->\n```go\nx\n```\n",       // not a sh block
		"text\n<!-- tour: skip (x) -->\n",                // at the end
		"<!-- tour:skip (x) -->\n```sh\necho\n```\n",     // misspelt
		"<!-- tour: skip () -->\n```sh\necho\n```\n",     // empty reason
		"<!-- tour: skip (x) --> \n```sh\necho\n```\n",   // trailing space
		"<!--  tour: skip (x) -->\n```sh\necho\n```\n",   // two spaces
		"<!-- tour: skip (x) -->\n```bash\necho\n```\n",  // only sh blocks run or skip
		"<!-- tour: skip (x)-->\n```sh\necho\n```\n",     // no space before -->
		"<!-- tour: skip (x) -->\n```sh \necho\n```\n",   // fence with a trailing space
		"<!-- tour: skip (x) -->\n````sh\necho\n````\n",  // four backticks
		"<!-- tour: skip (x) -->\n``` sh\necho\n```\n",   // space after the fence
		"<!-- tour: skip (x) -->\n\t```sh\necho\n```\n",  // indented fence
		"<!-- tour: skip (x) -->\n```shell\necho\n```\n", // another tag
	} {
		if _, err := tourBlocks([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestReadmeTour(t *testing.T) {
	if testing.Short() {
		t.Skip("builds recall and runs the README's commands")
	}
	for _, tool := range []string{"bash", "curl", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the tour needs %s: %v", tool, err)
		}
	}
	root, md := readme(t)
	blocks, err := tourBlocks(md)
	if err != nil {
		t.Fatal(err)
	}

	tmp, clone, env := freshCopy(t, root)
	bin := filepath.Join(tmp, "bin")
	// The tour reads the sample memory in place (the README's first
	// command); it must leave it as it was, or the README's second command
	// (go test) would meet what the first left there.
	sampleDir := filepath.Join(clone, "examples", "memory")
	sampleBefore := treetest.Snapshot(t, sampleDir)
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "recall"), "./cmd/recall")
	build.Dir, build.Env = clone, env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	var script strings.Builder
	script.WriteString("set -e\n")
	run := 0
	for i, b := range blocks {
		if b.skip != "" {
			continue
		}
		run++
		fmt.Fprintf(&script, "echo '::tour block %d (README.md:%d)'\n%s", i+1, b.line, b.text)
	}
	script.WriteString("echo '::tour done'\n")
	if run < 5 {
		t.Fatalf("only %d runnable sh blocks in README.md: is the parser right?", run)
	}
	scriptPath := filepath.Join(tmp, "tour.sh")
	if err := os.WriteFile(scriptPath, []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", scriptPath)
	if isolated() {
		// Own network namespace: a loopback only.
		cmd = exec.CommandContext(ctx, "unshare", "--net", "--map-root-user", "bash", "-c",
			`ip link set lo up && exec bash "$0"`, scriptPath)
	}
	cmd.Dir, cmd.Env = clone, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Start()
	if err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	err = cmd.Wait()
	// A server a block left running goes with the session.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	text := out.String()
	if err != nil || !strings.Contains(text, "::tour done") {
		last := "before the first block"
		if i := strings.LastIndex(text, "::tour block "); i >= 0 {
			last = strings.SplitN(text[i+2:], "\n", 2)[0]
		}
		t.Fatalf("the tour failed in %s: %v (ctx: %v)\n%s", last, err, ctx.Err(), tail(text, 4000))
	}
	if d := treetest.Diff(sampleBefore, treetest.Snapshot(t, sampleDir)); len(d) != 0 {
		t.Errorf("the tour changed examples/memory:\n%s", strings.Join(d, "\n"))
	}
	t.Logf("ran %d of %d sh blocks of README.md (isolated network: %v)", run, len(blocks), isolated())
}

// freshCopy copies the repository's files (as git lists them) into a new
// folder, as a fresh clone holds them, and returns the temporary folder,
// the copy in it, and an environment for commands run there: a fresh empty
// HOME, <tmp>/bin first on PATH, the caller's Go caches, no network for
// the go command.
func freshCopy(t *testing.T, root string) (tmp, clone string, env []string) {
	t.Helper()
	tmp = t.TempDir()
	clone = filepath.Join(tmp, "recall")
	copyTracked(t, root, clone)
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	goenv := func(k string) string {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		return strings.TrimSpace(string(out))
	}
	env = []string{
		"HOME=" + home,
		"PATH=" + filepath.Join(tmp, "bin") + ":" + filepath.Join(goenv("GOROOT"), "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"GOCACHE=" + goenv("GOCACHE"),
		"GOMODCACHE=" + goenv("GOMODCACHE"),
		// -trimpath: the copy lives in a new folder each run; without it
		// nothing it compiles would be found in the build cache.
		"GOPROXY=off", "GOSUMDB=off", "GOTOOLCHAIN=local", "GOFLAGS=-trimpath",
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
	}
	return tmp, clone, env
}

// readme returns the checkout's root and its README.md.
func readme(t *testing.T) (root string, md []byte) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	md, err = os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return root, md
}

// isolated reports whether bash can run in a network namespace of its own.
func isolated() bool {
	if _, err := exec.LookPath("unshare"); err != nil {
		return false
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return false
	}
	return exec.Command("unshare", "--net", "--map-root-user", "ip", "link", "set", "lo", "up").Run() == nil
}

// copyTracked copies the files git tracks under root (as a clone holds
// them, with the working tree's contents) to dst.
func copyTracked(t *testing.T, root, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("the tour copies the repository's files with git ls-files: %v", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the working tree, or not a file
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
