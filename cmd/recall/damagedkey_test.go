package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damageKey writes three entries into a bolt file and replaces one byte
// of one entry's name, wherever the file holds it, with b.
func damageKey(t *testing.T, b byte) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "m.db")
	c := newCLI(t, nil)
	for _, n := range []string{"aaa", "bbb", "ccc"} {
		c.ok("--store", db, "add", "notes", n, "--content", "entry "+n)
	}
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("notes\x00bbb")
	if bytes.Count(raw, key) == 0 {
		t.Fatal("key not found in the file")
	}
	raw = bytes.ReplaceAll(raw, key, []byte{'n', 'o', 't', 'e', 's', 0, 'b', b, 'b'})
	if err := os.WriteFile(db, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return db
}

// A damaged bolt key is reported, escaped, and the other entries are
// listed; nothing prints the damaged bytes raw (an ESC from a damaged
// file must not reach the terminal), and the exit status says something
// was left out.
func TestLsDamagedBoltKey(t *testing.T) {
	for _, b := range []byte{0x1b, 0xff} {
		db := damageKey(t, b)
		c := newCLI(t, nil)
		for _, args := range [][]string{{"ls"}, {"ls", "--long"}, {"ls", "--json"}, {"ls", "--limit", "10"}} {
			o := c.run(append([]string{"--store", db}, args...)...)
			if o.code != exitFailure {
				t.Errorf("%v (byte %#x): exit %d, want %d", args, b, o.code, exitFailure)
			}
			if !strings.Contains(o.stdout, "aaa") || !strings.Contains(o.stdout, "ccc") || strings.Contains(o.stdout, "notes:b") {
				t.Errorf("%v (byte %#x): stdout %q; want aaa and ccc, not the damaged one", args, b, o.stdout)
			}
			if strings.ContainsRune(o.stdout+o.stderr, 0x1b) || strings.ContainsRune(o.stdout+o.stderr, 0xfffd) || strings.Contains(o.stdout+o.stderr, "\xff") {
				t.Errorf("%v (byte %#x): raw bytes printed: stdout %q stderr %q", args, b, o.stdout, o.stderr)
			}
			if want := []string{`\x1b`, `\xff`}[map[byte]int{0x1b: 0, 0xff: 1}[b]]; !strings.Contains(o.stderr, want) {
				t.Errorf("%v (byte %#x): stderr %q does not name the damaged key escaped (%s)", args, b, o.stderr, want)
			}
		}
	}
}
