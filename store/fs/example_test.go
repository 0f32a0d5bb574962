package fs_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

func Example() {
	root, err := os.MkdirTemp("", "recall-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)

	s, err := fs.Open(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	at := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	err = s.Put(ctx, store.Entry{
		Category: "trips",
		Name:     "sanya",
		Content:  "The sea at Sanya is very blue. See [[people:alice]].\n",
		Meta: store.Meta{
			Tags:    []string{"travel"},
			Created: at,
			Updated: at,
			Extra:   map[string]any{"mood": "sunny"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}

	path, err := s.Path("trips", "sanya")
	if err != nil {
		log.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(filepath.ToSlash(rel))
	fmt.Print(string(data))
	// Output:
	// trips/sanya.md
	// ---
	// tags:
	//   - travel
	// created: 2024-03-01T09:30:00Z
	// updated: 2024-03-01T09:30:00Z
	// mood: sunny
	// ---
	// The sea at Sanya is very blue. See [[people:alice]].
}

// A file written by hand, without front matter, is an entry too.
func ExampleStore_Get() {
	root, err := os.MkdirTemp("", "recall-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.MkdirAll(filepath.Join(root, "people"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "people", "alice.md"), []byte("Alice likes the sea."), 0o644); err != nil {
		log.Fatal(err)
	}

	s, err := fs.Open(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	e, err := s.Get(context.Background(), "people", "alice")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %s (tags: %d)\n", e.Key(), e.Content, len(e.Meta.Tags))
	// Output:
	// people:alice: Alice likes the sea. (tags: 0)
}

// A server watches its folder, so that an entry another program writes is
// counted like one written through the store.
func ExampleStore_Watch() {
	root, err := os.MkdirTemp("", "recall-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	s, err := fs.Open(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	changed := make(chan struct{}, 1)
	err = s.Watch(ctx, func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	// Someone else (an editor, git, another recall process) adds a file.
	if err := os.MkdirAll(filepath.Join(root, "people"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "people", "bob.md"), []byte("Bob plays the cello."), 0o644); err != nil {
		log.Fatal(err)
	}
	<-changed
	rev, _ := s.Revision(ctx)
	fmt.Println("revision moved:", rev > 0)
	// Output:
	// revision moved: true
}
