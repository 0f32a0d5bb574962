package importer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store/bolt"
)

func Example() {
	ctx := context.Background()
	lines := `{"category":"trips","name":"kyoto","content":"Temples in spring.","meta":{"tags":["travel","travel"]}}
{"category":"trips","name":"bad:name","content":"x"}
{"category":"people","name":"alice","content":"Keeps bees.","content":"twice"}
`
	plan, err := importer.ReadJSONL(ctx, strings.NewReader(lines), "memories.jsonl")
	if err != nil {
		panic(err)
	}
	for _, s := range plan.Skipped {
		fmt.Printf("skipped %s, rename %q\n", s.Where, s.Rename) // s.Reason says why
	}

	dir, _ := os.MkdirTemp("", "importer-example")
	defer os.RemoveAll(dir)
	st, err := bolt.Open(filepath.Join(dir, "memory.db"), nil)
	if err != nil {
		panic(err)
	}
	defer st.Close()
	for range 2 {
		rep, err := plan.Write(ctx, st, importer.WriteOptions{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("added %d, updated %d, unchanged %d\n", rep.Added, rep.Updated, rep.Unchanged)
	}
	// Output:
	// skipped memories.jsonl:2, rename "bad-name"
	// skipped memories.jsonl:3, rename ""
	// added 1, updated 0, unchanged 0
	// added 0, updated 0, unchanged 1
}
