package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A plain `go build` in a git checkout: --version names the commit, both
// in the pseudo-version the toolchain derives and as the revision. Like
// the next test it builds in a folder of its own (a minute on a busy
// machine), so it runs when RECALL_TEST_GOINSTALL=1 (.ci/run sets it).
func TestVersionOfCheckoutBuild(t *testing.T) {
	if os.Getenv("RECALL_TEST_GOINSTALL") != "1" {
		t.Skip("set RECALL_TEST_GOINSTALL=1 to build a fresh clone")
	}
	out, err := exec.Command("git", "rev-parse", "HEAD", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	lines := strings.Fields(string(out))
	rev, top := lines[0][:12], lines[1]
	// A fresh clone (the go command does not see a git worktree's .git
	// file), built with the VCS stamp on whatever GOFLAGS say.
	clone := filepath.Join(t.TempDir(), "recall")
	if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", top, clone).CombinedOutput(); err != nil {
		t.Skipf("git clone: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "recall")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/recall")
	build.Dir = clone
	build.Env = privateModCache(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^recall v0\.0\.0-\d{14}-` + rev + `(\+dirty)? \(revision ` + rev + `, \d{4}-\d\d-\d\dT[0-9:]+Z(, modified)?\)\n$`)
	if !want.Match(out) {
		t.Errorf("--version = %q, want the pseudo-version and revision of %s", out, rev)
	}
}

// `go install github.com/recallhq/recall/cmd/recall@v0.9.1` from a module
// proxy (here a file:// proxy holding this checkout's HEAD as v0.9.1, the
// layout of https://go.dev/ref/mod#goproxy-protocol): --version is the
// release, with no revision (the proxy's zip carries none). It also
// proves that the module zip can be unzipped at all (file names: see
// internal/zipsafe). It builds everything afresh (minutes on a busy
// machine), so it runs when RECALL_TEST_GOINSTALL=1 (.ci/run sets it).
func TestVersionOfInstallAtVersion(t *testing.T) {
	if os.Getenv("RECALL_TEST_GOINSTALL") != "1" {
		t.Skip("set RECALL_TEST_GOINSTALL=1 to install the module through a module proxy")
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	top := strings.TrimSpace(string(root))
	const mod, version = "github.com/recallhq/recall", "v0.9.1"
	proxy := t.TempDir()
	dir := filepath.Join(proxy, mod, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(top, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"2026-12-01T00:00:00Z"}`,
		version + ".mod":  string(gomod),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The module's files at HEAD, without the nested benchmark module(s),
	// which a module zip may not hold.
	args := []string{"-C", top, "archive", "--format=zip", "--prefix=" + mod + "@" + version + "/", "-o", filepath.Join(dir, version+".zip"), "HEAD", "--", "."}
	nested, _ := exec.Command("git", "-C", top, "ls-files", "*/go.mod").Output()
	for _, f := range strings.Fields(string(nested)) {
		args = append(args, ":(exclude)"+filepath.Dir(f))
	}
	if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
		t.Fatalf("git archive: %v\n%s", err, out)
	}
	gobin := t.TempDir()
	cmd := exec.Command("go", "install", mod+"/cmd/recall@"+version)
	cmd.Dir = t.TempDir() // outside any module
	cmd.Env = append(privateModCache(t, proxy), "GOBIN="+gobin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "recall"), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "recall "+version+"\n" {
		t.Errorf("--version = %q, want %q", out, "recall "+version+"\n")
	}
}

// privateModCache is the environment for a go command with a module
// cache of its own, so that the machine's is left as it was (the go
// command records pseudo-versions it computes there): the dependencies
// come, offline, from the machine's download cache, which has the proxy
// layout, after the given proxies.
func privateModCache(t *testing.T, proxies ...string) []string {
	t.Helper()
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, p := range append(proxies, filepath.Join(strings.TrimSpace(string(gomodcache)), "cache", "download")) {
		urls = append(urls, "file://"+filepath.ToSlash(p))
	}
	return append(os.Environ(), "GOMODCACHE="+t.TempDir(), "GOFLAGS=-modcacherw", "GOWORK=off", "GOSUMDB=off",
		"GOPROXY="+strings.Join(urls, ","))
}
