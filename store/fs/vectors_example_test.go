package fs_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"os"

	"github.com/recallhq/recall/store/fs"
)

// The vector cache keeps vectors per model, keyed by the hex SHA-256 of the
// embedded text. Package embed/cache drives it; this shows the raw calls.
func ExampleStore_PutVectors() {
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
	sum := sha256.Sum256([]byte("alice The sea at Sanya is very blue."))
	key := hex.EncodeToString(sum[:])
	if err := s.PutVectors(ctx, "hash:v1:4", []string{key}, [][]float32{{0.5, -0.5, 0, 1}}); err != nil {
		log.Fatal(err)
	}
	for _, model := range []string{"hash:v1:4", "hash:v1:8"} {
		n := 0
		err := s.LoadVectors(ctx, model, func(k string, vec []float32) error {
			n++
			fmt.Println(model, k[:8], vec)
			return nil
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(model, "has", n, "vectors")
	}
	rev, _ := s.Revision(ctx)
	fmt.Println("revision", rev)
	// Output:
	// hash:v1:4 f440c0bf [0.5 -0.5 0 1]
	// hash:v1:4 has 1 vectors
	// hash:v1:8 has 0 vectors
	// revision 0
}
