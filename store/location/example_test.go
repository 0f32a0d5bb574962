package location_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

func ExampleOpen() {
	dir, err := os.MkdirTemp("", "recall-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	st, loc, err := location.Open(ctx, filepath.Join(dir, "memory.db"), &location.Options{Create: true})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	if err := st.Put(ctx, store.Entry{Category: "notes", Name: "hello", Content: "hi"}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(loc.Backend, filepath.Base(loc.Redacted()))
	// Output: bolt memory.db
}

// A URL's password never reaches a description.
func ExampleParse() {
	loc, err := location.Parse("postgres://recall:s3cret@db.example/memory")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(loc)
	// Output: postgres://recall:xxxxx@db.example/memory (postgres)
}
