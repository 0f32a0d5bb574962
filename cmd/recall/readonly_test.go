package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A bolt file that cannot be written (read-only media; here an immutable
// file, which stops root too) is read by the read commands, as a folder
// store on the same mount is, and a write fails saying why.
func TestReadOnlyBoltFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	c := newCLI(t, nil)
	c.ok("--store", db, "add", "trips", "kyoto", "--content", "Temples and tea in Kyoto", "--tag", "travel")
	if out, err := exec.Command("chattr", "+i", db).CombinedOutput(); err != nil {
		t.Skipf("cannot make the file immutable (chattr +i): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", db).Run() })
	if err := exec.Command("sh", "-c", "echo x >> "+db).Run(); err == nil {
		t.Skip("chattr +i did not stop writes here")
	}
	if out := c.ok("--store", db, "ls", "--long"); !strings.Contains(out, "trips:kyoto") {
		t.Errorf("ls: %q", out)
	}
	if out := c.ok("--store", db, "get", "trips", "kyoto"); !strings.Contains(out, "Temples") {
		t.Errorf("get: %q", out)
	}
	if out := c.ok("--store", db, "retrieve", "kyoto temples"); !strings.Contains(out, "trips:kyoto") {
		t.Errorf("retrieve: %q", out)
	}
	if out := c.ok("--store", db, "categories"); !strings.Contains(out, "trips") {
		t.Errorf("categories: %q", out)
	}
	line := c.fails(exitFailure, "--store", db, "rm", "trips", "kyoto")
	if !strings.Contains(line, "read-only") {
		t.Errorf("rm on a read-only file: %q; want it to say the file is read-only", line)
	}
	line = c.fails(exitFailure, "--store", db, "add", "trips", "nara", "--content", "deer")
	if !strings.Contains(line, "not writable") && !strings.Contains(line, "read-only") {
		t.Errorf("add on a read-only file: %q", line)
	}
}
