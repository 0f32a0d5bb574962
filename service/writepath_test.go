package service_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// Random writes through the Memory (Add, Append, Edit, Delete) and behind
// its back (straight to the store), with retrieves all along, on a started
// Memory that fills vectors: no call fails other than as the operation
// says, every retrieve answers, and once the writers stop the published
// index is the store's content, entry for entry. Run it under -race.
func TestRandomWritesOneWritePath(t *testing.T) {
	ctx := context.Background()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			emb, _ := hash.New(hash.Config{})
			vec := cache.New(emb, any(st).(cache.Backend), cache.Options{})
			m := service.New(st, service.Options{Engine: retrieve.Options{Embedder: emb, Vectors: vec}, FillQueue: 8})
			if err := m.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			const keys = 10
			name := func(r *rand.Rand) string { return fmt.Sprintf("n%d", r.IntN(keys)) }
			var wg sync.WaitGroup
			for w := range 4 {
				r := rand.New(rand.NewPCG(seed, uint64(w)))
				wg.Go(func() {
					for i := range 60 {
						n := name(r)
						word := fmt.Sprintf("w%do%d", w, i)
						var err error
						switch r.IntN(6) {
						case 0:
							_, err = m.Add(ctx, service.AddRequest{Category: "c", Name: n, Content: "harbour " + word, Tags: []string{word}})
						case 1:
							_, err = m.Append(ctx, "c", n, word)
						case 2:
							_, err = m.Edit(ctx, "c", n, "harbour", "port")
						case 3:
							_, err = m.Delete(ctx, "c", n)
						case 4: // behind the Memory's back
							err = st.Put(ctx, store.Entry{Category: "c", Name: n, Content: "outside " + word})
						case 5:
							_, _, err = m.Retrieve(ctx, service.RetrieveParams{Query: "harbour port outside"})
						}
						if err != nil && !errors.Is(err, store.ErrNotFound) && !errors.Is(err, service.ErrNoMatch) && !errors.Is(err, service.ErrAmbiguous) {
							t.Errorf("worker %d op %d: %v", w, i, err)
						}
					}
				})
			}
			wg.Wait()
			snap, err := m.Engine().Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var indexed, stored []string
			snap.Docs(func(d *index.Doc) bool {
				indexed = append(indexed, index.EntryText(d.Category+":"+d.Name, d.Content))
				return true
			})
			for e, err := range st.All(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				stored = append(stored, index.EntryText(e.Category+":"+e.Name, e.Content))
			}
			slices.Sort(indexed)
			slices.Sort(stored)
			if !slices.Equal(indexed, stored) {
				t.Errorf("after the writes the index holds\n%q\nthe store\n%q", indexed, stored)
			}
		})
	}
}
