package importer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// No input makes ReadFile panic or hang, in any format, detected or
// forced; every item it yields passes the checks Plan.add makes.
func FuzzReadFile(f *testing.F) {
	for _, file := range []string{"memory.jsonl", "chatgpt-conversations.json", "claude-conversations.json", "mem0-memories.json", "mem0-v1.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "tools", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}
	f.Add([]byte(`[{"mapping":{"a":{"id":"a","parent":"a","children":["a"]}},"current_node":"a"}]`), uint8(3)) // a cycle
	f.Add([]byte(`{"results":[{"id":"x","memory":"y","categories":[""]}]}`), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		var format Format
		if i := int(which) % (len(Formats) + 1); i > 0 {
			format = Formats[i-1]
		}
		var (
			p   *Plan
			err error
		)
		done := make(chan struct{})
		go func() {
			defer close(done)
			p, _, err = ReadFile(ctx, bytes.NewReader(data), "fuzz", FileOptions{Format: format})
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%q, format %q) hangs", data, format)
		}
		if err != nil {
			return
		}
		for _, it := range p.Items {
			if err := store.Validate(it.Entry); err != nil && !isMetaOnly(err) {
				t.Fatalf("item %s is invalid: %v", it.Entry.Key(), err)
			}
		}
	})
}

// isMetaOnly: Plan.add checks identity and content; metadata limits are
// the store's to enforce at write time (reported as rejected).
func isMetaOnly(err error) bool {
	return bytes.Contains([]byte(err.Error()), []byte("meta"))
}

// A file cut short at any byte (an interrupted download) is an error or
// a plan, never a panic or a hang; what it yields is valid.
func TestReadFileTruncated(t *testing.T) {
	for _, file := range []string{"memory.jsonl", "chatgpt-conversations.json", "claude-conversations.json", "mem0-memories.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "tools", file))
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if testing.Short() {
			step = 97
		}
		for n := 0; n < len(data); n += step {
			p, _, err := ReadFile(ctx, bytes.NewReader(data[:n]), file, FileOptions{})
			if err != nil {
				continue
			}
			for _, it := range p.Items {
				if err := store.Validate(it.Entry); err != nil && !isMetaOnly(err) {
					t.Fatalf("%s cut at %d: item %s is invalid: %v", file, n, it.Entry.Key(), err)
				}
			}
		}
	}
}
