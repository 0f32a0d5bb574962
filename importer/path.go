package importer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// PathOptions tune ReadPath and ReadInput. The zero value is the default.
type PathOptions struct {
	// Format forces the format of a file; empty means told by its content.
	Format Format
	// RootCategory is the category of the notes at the top of a vault
	// (VaultOptions.RootCategory).
	RootCategory string
	// Category is the category of a file's entries (FileOptions.Category).
	Category string
	// Stdin is what the path "-" reads (as ReadInput reads a .jsonl
	// file); nil refuses "-".
	Stdin io.Reader
	// Store is the location of the store the plan is for: a folder that
	// is the store itself is refused, since importing a folder store
	// into itself would only rewrite every file.
	Store string
}

// ReadPath reads path as `recall import PATH` does: "-" is opts.Stdin; a
// folder is read with ReadVault (unless it is opts.Store); a file with
// ReadInput, as recall's JSONL when its name ends in .jsonl or .ndjson.
// Its errors start with "import", for a one-line report.
func ReadPath(ctx context.Context, path string, opts PathOptions) (*Plan, error) {
	if path == "-" {
		if opts.Stdin == nil {
			return nil, errors.New("import -: no stdin")
		}
		return ReadInput(ctx, opts.Stdin, "stdin", true, opts)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if info.IsDir() {
		if a, errA := filepath.Abs(path); opts.Store != "" && errA == nil {
			if b, errB := filepath.Abs(opts.Store); errB == nil && a == b {
				return nil, fmt.Errorf("import %s: that folder is the store itself", path)
			}
		}
		plan, err := ReadVault(ctx, path, VaultOptions{RootCategory: opts.RootCategory})
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		return plan, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	ext := strings.ToLower(filepath.Ext(path))
	return ReadInput(ctx, f, path, ext == ".jsonl" || ext == ".ndjson", opts)
}

// ReadInput reads a file named name in the format opts.Format names, else
// the one its content shows. A file whose name says JSONL (jsonl; stdin
// too, for recall) is recall's JSONL unless its content is another tool's
// JSON lines, so that a file whose first line is broken is still read line
// by line, each bad line reported. An empty file holds nothing to import.
func ReadInput(ctx context.Context, r io.Reader, name string, jsonl bool, opts PathOptions) (*Plan, error) {
	fo := FileOptions{Format: opts.Format, Category: opts.Category}
	br := bufio.NewReaderSize(r, detectBytes)
	if fo.Format == "" {
		head, _ := peekUpTo(br, detectBytes)
		f, err := DetectFormat(head)
		switch {
		case jsonl && f != FormatMCPMemory:
			fo.Format = FormatJSONL
		case err != nil && len(bytes.TrimSpace(head)) == 0:
			fo.Format = FormatJSONL // an empty file holds nothing to import
		case err != nil:
			return nil, fmt.Errorf("import %s: not a folder or a .jsonl file, nor a file of another tool that recall reads: %w", name, err)
		default:
			fo.Format = f
		}
	}
	plan, _, err := ReadFile(ctx, br, name, fo)
	if err != nil {
		return nil, fmt.Errorf("import %w", err)
	}
	return plan, nil
}
