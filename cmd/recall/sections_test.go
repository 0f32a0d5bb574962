package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --whole-entries answers every golden case byte for byte as before, on
// both backends.
func TestRetrieveGoldenWholeEntries(t *testing.T) {
	stores := sampleStores(t)
	for _, tc := range goldenCases {
		t.Run(tc.golden, func(t *testing.T) {
			c := newCLI(t, nil)
			for _, kind := range []string{"fs", "bolt"} {
				golden(t, tc.golden, c.ok(append([]string{"--store", stores[kind]}, append(tc.args, "--whole-entries")...)...))
			}
		})
	}
}

// A long note of a folder with headings answers by its section, in the
// human output and in --json; --whole-entries gives the whole note.
func TestRetrieveSections(t *testing.T) {
	dir := t.TempDir()
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 90)
	note := "Intro. " + filler + "\n\n## Install\n\n### On Linux\nzebrafish with apt.\n" + filler + "\n\n## Usage\nRun it. " + filler + "\n"
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes", "guide.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, nil)
	out := c.ok("--store", dir, "retrieve", "zebrafish apt")
	if !strings.Contains(out, "1. hit notes:guide § Install > On Linux  score=") || !strings.Contains(out, "    ### On Linux\n") || strings.Contains(out, "Intro.") {
		t.Errorf("human output:\n%s", out)
	}
	res, _ := resultJSON(t, c, "--store", dir, "retrieve", "zebrafish apt")
	if it := res.Items[0]; it.Section != "Install > On Linux" || !strings.HasPrefix(it.Content, "## Install\n\n### On Linux\n") {
		t.Errorf("--json: %+v", it)
	}
	whole, _ := resultJSON(t, c, "--store", dir, "retrieve", "zebrafish apt", "--whole-entries")
	if it := whole.Items[0]; it.Section != "" || it.Content != note {
		t.Errorf("--whole-entries: %+v", it)
	}
}
