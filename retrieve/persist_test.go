package retrieve

import (
	"context"
	"iter"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// countingStore counts full reads of the store: a load from the persisted
// copy makes none.
type countingStore struct {
	store.Store
	all atomic.Int32
}

func (c *countingStore) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	c.all.Add(1)
	return c.Store.All(ctx)
}

func TestPersistedIndex(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g := synth.New(5, 3_000)
	ents := g.Entries(800, 40)
	ents = append(ents, store.Entry{Category: "c", Name: "linker", Content: "see [[" + ents[0].Category + ":" + ents[0].Name + "]] zebra"})
	if err := st.PutBatch(ctx, ents); err != nil {
		t.Fatal(err)
	}
	var queries []string
	for i := 0; i < 60; i++ {
		queries = append(queries, g.Query(1+i%4))
	}
	queries = append(queries, "zebra", g.Common(3)[0]+" "+g.Common(3)[2])
	answers := func(e *Engine) []*Result {
		var out []*Result
		for _, q := range queries {
			res, err := e.Retrieve(ctx, Request{Query: q, Limit: 20, Budget: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res)
		}
		return out
	}
	// engine opens a new engine the way a new process would, and reports
	// whether its Load read the whole store.
	engine := func(an *index.Analyzer) (*Engine, bool) {
		t.Helper()
		cs := &countingStore{Store: st}
		e := New(cs, Options{Analyzer: an, Persist: st})
		stats, err := e.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Entries != len(ents) {
			t.Fatalf("Load indexed %d entries, want %d", stats.Entries, len(ents))
		}
		return e, cs.all.Load() > 0
	}

	want := answers(New(st, Options{}))

	e, built := engine(nil)
	if !built {
		t.Fatal("first Load did not build from the store")
	}
	e.Close() // waits for the save
	e, built = engine(nil)
	if built {
		t.Fatal("second Load read the store instead of the persisted copy")
	}
	if got := answers(e); !reflect.DeepEqual(got, want) {
		t.Fatal("answers from the persisted copy differ from a built index")
	}
	e.Close()

	// Another analyzer: rebuilt, and saved for that analyzer, which the
	// default analyzer then does not trust either.
	es, built := engine(index.Spec())
	if !built {
		t.Fatal("copy of another analyzer trusted")
	}
	es.Close()
	if e, built = engine(nil); !built {
		t.Fatal("copy saved for another analyzer trusted")
	}
	e.Close()

	// A write after the copy makes it stale for an engine over a store
	// without a change feed (countingStore hides bolt's): nothing names
	// what the write changed. (With the feed the copy is caught up:
	// TestPersistedIndexCatchesUp.)
	if _, built = engine(nil); built {
		t.Fatal("fresh copy not used")
	}
	if err := st.Put(ctx, store.Entry{Category: "c", Name: "late", Content: "zebra again"}); err != nil {
		t.Fatal(err)
	}
	ents = append(ents, store.Entry{}) // one more entry to count
	e, built = engine(nil)
	if !built {
		t.Fatal("stale copy trusted after a write")
	}
	res, err := e.Retrieve(ctx, Request{Query: "zebra"})
	if err != nil || len(res.Items) < 2 {
		t.Fatalf("after the write: %v, %+v", err, res)
	}
	e.Close()

	// Damage: a copy at the right revision that fails its checksum.
	data, rev, err := st.LoadIndex(ctx)
	if err != nil || data == nil {
		t.Fatalf("no copy saved after the rebuild: %v", err)
	}
	data[len(data)/2] ^= 1
	if err := st.SaveIndex(ctx, rev, data); err != nil {
		t.Fatal(err)
	}
	e, built = engine(nil)
	if !built {
		t.Fatal("damaged copy trusted")
	}
	e.Close()
	if _, built = engine(nil); built {
		t.Fatal("damaged copy not replaced by the rebuild's")
	}
}
