package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "recall-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "memory.db")

	s, err := bolt.Open(path, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range []store.Entry{
		{Category: "people", Name: "alice", Content: "Alice likes the sea."},
		{Category: "trips", Name: "sanya", Content: "Went to the beach with [[people:alice]]."},
	} {
		if err := s.Put(ctx, e); err != nil {
			log.Fatal(err)
		}
	}

	// While the file is open, nobody else can open it.
	_, err = bolt.Open(path, &bolt.Options{Timeout: 50 * time.Millisecond})
	fmt.Println("second open locked:", errors.Is(err, store.ErrLocked))

	if err := s.Close(); err != nil {
		log.Fatal(err)
	}

	// Entries and the revision live in the file.
	s, err = bolt.Open(path, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	e, err := s.Get(ctx, "people", "alice")
	if err != nil {
		log.Fatal(err)
	}
	rev, err := s.Revision(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Content)
	fmt.Println("revision", rev)
	// Output:
	// second open locked: true
	// Alice likes the sea.
	// revision 2
}
