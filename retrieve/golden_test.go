package retrieve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/internal/sample"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store/fs"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// Golden results over the sample memory that ships with the repo: any
// change to tokenizing, scoring, link expansion or budgeting shows up as a
// diff here. Regenerate with: go test ./retrieve -run Golden -update
func TestGoldenSampleMemory(t *testing.T) {
	st, err := fs.Open(sample.Copy(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eng := retrieve.New(st, retrieve.Options{})
	cases := []struct {
		file string
		req  retrieve.Request
	}{
		{"seaside.json", retrieve.Request{Query: "想去海边玩"}},
		{"seaside-nolinks.json", retrieve.Request{Query: "想去海边玩", NoLinks: true}},
		{"seaside-budget-explain.json", retrieve.Request{Query: "想去海边玩", Budget: 120, Explain: true}},
		{"coffee.json", retrieve.Request{Query: "coffee", Limit: 3}},
		{"kyoto-trip.json", retrieve.Request{Query: "Kyoto trip", Limit: 3}},
		{"deadline.json", retrieve.Request{Query: "deadline", Limit: 2, Budget: 1, Explain: true}},
		{"peanut-allergy.json", retrieve.Request{Query: "花生 allergy", Limit: 4}},
		{"weekend.json", retrieve.Request{Query: "周末安排", Limit: 2}},
		{"punctuation.json", retrieve.Request{Query: "？！..."}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res, err := eng.Retrieve(context.Background(), c.req)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(struct {
				Request retrieve.Request `json:"request"`
				Result  *retrieve.Result `json:"result"`
			}{c.req, res}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", c.file)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("result differs from %s (run with -update if the change is intended):\n%s", path, buf.String())
			}
		})
	}
}
