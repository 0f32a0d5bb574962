package main

import (
	"path/filepath"
	"testing"
)

// TestLsCategoryNFC: ls CATEGORY normalises the category to NFC (SPEC §1),
// so plain ls (names only), --long, --json and --limit list the same
// entries when it is typed in another normal form.
func TestLsCategoryNFC(t *testing.T) {
	c := newCLI(t, nil)
	for _, path := range []string{filepath.Join(t.TempDir(), "notes"), filepath.Join(t.TempDir(), "m.db")} {
		c.ok("--store", path, "add", "caf\u00e9", "menu", "--content", "soup")
		nfd := "cafe\u0301"
		want := "caf\u00e9:menu"
		for _, args := range [][]string{{}, {"--long"}, {"--limit", "5"}} {
			got := c.ok(append([]string{"--store", path, "ls", nfd}, args...)...)
			if len(got) < len(want) || got[:len(want)] != want {
				t.Errorf("%s: ls %s %q = %q, want %q first", path, nfd, args, got, want)
			}
		}
		if got := c.ok("--store", path, "ls", "--json", nfd); got == "[]\n" {
			t.Errorf("%s: ls --json %s lists nothing", path, nfd)
		}
	}
}
