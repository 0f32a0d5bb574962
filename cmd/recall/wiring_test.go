package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxWiringLines is what cmd/recall may hold besides its tests: it only
// wires flags to importable packages (issue 21), so logic a Go host might
// want goes into those packages, with their own tests, not here.
const maxWiringLines = 1500

func TestOnlyWiring(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(b, []byte("\n"))
	}
	if total == 0 || total > maxWiringLines {
		t.Errorf("cmd/recall holds %d lines of code besides its tests, more than %d: move logic into a package a Go host can use (setup, service, render, ...)", total, maxWiringLines)
	}
}
