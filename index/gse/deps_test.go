package gse

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const gseModule = "github.com/go-ego/gse"

func deps(t *testing.T, pkg string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out))
}

// A library program that uses retrieve (and a store, and an analyzer) with
// segmentation off links neither gse nor its dictionaries; cmd/recall,
// which offers --segmenter, does.
func TestCoreDoesNotLinkGSE(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	lib := deps(t, "./testdata/libprog")
	if !slices.Contains(lib, "github.com/recallhq/recall/retrieve") {
		t.Fatalf("the library program does not link retrieve: %q", lib)
	}
	for _, p := range lib {
		if p == gseModule || strings.HasPrefix(p, gseModule+"/") || p == "github.com/recallhq/recall/index/gse" {
			t.Errorf("a library program using retrieve links %s", p)
		}
	}
	if cli := deps(t, "github.com/recallhq/recall/cmd/recall"); !slices.Contains(cli, gseModule) {
		t.Errorf("cmd/recall does not link %s: the check above proves nothing", gseModule)
	}
}
