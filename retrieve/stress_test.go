package retrieve_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// stressFor is how long the randomized test hammers each backend.
const stressFor = 3 * time.Second

// TestConcurrentWritersAgreeWithFreshBuild runs engine writes (Put,
// Update, Delete), direct store writes and deletes, hand edits of the
// folder (fs, watched), Rebuilds and retrieves concurrently on a small set
// of keys, so that compactions, catch-ups, follower applies and rebuilds
// interleave; a second Engine over the same store writes too. Throughout,
// each worker checks that a retrieve started after its own write returned
// sees that write, through either Engine, and watchers check the same of
// every worker's latest returned write (SPEC §4: on bolt, an Engine's
// retrieves skip only its own writes in flight, store.AckRevisioner); at
// the end, the engine's snapshot must hold exactly what a fresh build of
// the store holds. Run it under -race.
func TestConcurrentWritersAgreeWithFreshBuild(t *testing.T) {
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			var (
				st  store.Store
				dir string
			)
			if backend == "fs" {
				dir = fastTempDir(t)
				f, err := fs.Open(dir, &fs.Options{Watch: fs.WatchOptions{Debounce: 10 * time.Millisecond}})
				if err != nil {
					t.Fatal(err)
				}
				if err := f.Watch(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
				st = f
			} else {
				b, err := bolt.Open(fastTempDir(t)+"/m.db", &bolt.Options{NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				st = b
			}
			defer st.Close()
			stress(t, st, dir)
		})
	}
}

func stress(t *testing.T, st store.Store, dir string) {
	ctx := context.Background()
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	e2 := retrieve.New(st, retrieve.Options{})
	defer e2.Close()
	engines := [2]*retrieve.Engine{e, e2}
	const keys = 40
	key := func(r *rand.Rand) (string, string) {
		i := r.IntN(keys)
		return fmt.Sprintf("c%d", i%3), fmt.Sprintf("k%d", i)
	}
	for i := range keys {
		c, n := fmt.Sprintf("c%d", i%3), fmt.Sprintf("k%d", i)
		if err := st.Put(ctx, store.Entry{Category: c, Name: n, Content: "seed alpha"}); err != nil {
			t.Fatal(err)
		}
	}
	warm(t, e)
	warm(t, e2)
	// latest[w] is the sequence number of worker w's newest private write
	// that has returned (-1: none yet).
	var latest [4]atomic.Int64
	for i := range latest {
		latest[i].Store(-1)
	}

	stop := time.Now().Add(stressFor)
	var wg sync.WaitGroup
	fail := make(chan error, 16)
	report := func(err error) {
		select {
		case fail <- err:
		default:
		}
	}
	// Writers. Each also owns one private key, written by engine or
	// store in turn, and checks read-your-writes on it.
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 8))
			for i := 0; time.Now().Before(stop); i++ {
				c, n := key(r)
				word := fmt.Sprintf("w%dx%d", w, i)
				var err error
				switch r.IntN(6) {
				case 0:
					err = e.Put(ctx, store.Entry{Category: c, Name: n, Content: "alpha " + word})
				case 1:
					err = e.Update(ctx, c, n, func(old store.Entry, _ bool) (store.Entry, error) {
						old.Content += " " + word
						return old, nil
					})
				case 2:
					err = e.Delete(ctx, c, n)
				case 3:
					err = st.Put(ctx, store.Entry{Category: c, Name: n, Content: "beta " + word})
				case 4:
					err = st.Delete(ctx, c, n)
				case 5:
					if dir != "" {
						err = handEdit(dir, c, n, "edited by hand "+word)
					} else {
						err = st.Put(ctx, store.Entry{Category: c, Name: n, Content: "gamma " + word})
					}
				}
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					report(err)
					return
				}
				// Read your writes, on the private key.
				mine := fmt.Sprintf("mine%d", w)
				tok := fmt.Sprintf("m%dn%d", w, i)
				ent := store.Entry{Category: "private", Name: mine, Content: fmt.Sprintf("p%d %s", w, tok)}
				switch i % 3 {
				case 0:
					err = e.Put(ctx, ent)
				case 1:
					err = e2.Put(ctx, ent)
				default:
					err = st.Put(ctx, ent)
				}
				if err != nil {
					report(err)
					return
				}
				latest[w].Store(int64(i))
				res, err := engines[i/3%2].Retrieve(ctx, retrieve.Request{Query: tok, NoLinks: true})
				if err != nil {
					report(err)
					return
				}
				if len(res.Items) != 1 || res.Items[0].Name != mine {
					report(fmt.Errorf("worker %d: a retrieve after its write of %q returned %d items", w, tok, len(res.Items)))
					return
				}
			}
		}()
	}
	// Watchers: a retrieve that starts after another worker's write
	// returned sees it or a newer one, through either Engine.
	for v := range 2 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(v), 9))
			for time.Now().Before(stop) {
				w := r.IntN(len(latest))
				seen := latest[w].Load()
				if seen < 0 {
					continue
				}
				res, err := engines[r.IntN(2)].Retrieve(ctx, retrieve.Request{Query: fmt.Sprintf("p%d", w), NoLinks: true})
				if err != nil {
					report(err)
					return
				}
				var got int64 = -1
				for _, it := range res.Items {
					if it.Name == fmt.Sprintf("mine%d", w) {
						_, _ = fmt.Sscanf(it.Content, fmt.Sprintf("p%d m%dn%%d", w, w), &got)
					}
				}
				if got < seen {
					report(fmt.Errorf("watcher: worker %d's write %d had returned, a retrieve found %d (%d items)", w, seen, got, len(res.Items)))
					return
				}
			}
		})
	}
	// Rebuilds and plain retrieves.
	wg.Add(2)
	go func() {
		defer wg.Done()
		for time.Now().Before(stop) {
			if _, err := e.Rebuild(ctx); err != nil {
				report(err)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	go func() {
		defer wg.Done()
		for time.Now().Before(stop) {
			if _, err := e.Retrieve(ctx, retrieve.Request{Query: "alpha beta"}); err != nil {
				report(err)
				return
			}
		}
	}()
	wg.Wait()
	close(fail)
	for err := range fail {
		t.Fatal(err)
	}

	// Quiet now. Hand edits reach the revision when the watch's burst
	// ends; then the engine must agree with a fresh build.
	want := func() map[string]string {
		s, err := retrieve.New(st, retrieve.Options{}).Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return docs(s)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, err := e.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, w := docs(s), want()
		diff := diffDocs(got, w)
		if diff == "" {
			t.Logf("%d entries agree", len(w))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the engine's snapshot differs from a fresh build of the store:\n%s", diff)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func docs(s *index.Snapshot) map[string]string {
	m := map[string]string{}
	s.Docs(func(d *index.Doc) bool {
		m[d.Category+":"+d.Name] = d.Content
		return true
	})
	return m
}

func diffDocs(got, want map[string]string) string {
	var out string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			out += fmt.Sprintf("missing %s = %q\n", k, v)
		} else if g != v {
			out += fmt.Sprintf("stale %s = %q, store has %q\n", k, g, v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			out += fmt.Sprintf("extra %s = %q\n", k, v)
		}
	}
	return out
}

// handEdit replaces an entry's file as an editor does (write aside,
// rename), safe to call from many goroutines.
func handEdit(root, category, name, content string) error {
	p := filepath.Join(root, filepath.FromSlash(category), name+".md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(p), fmt.Sprintf(".edit-%s-%x", name, rand.Uint64()))
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
