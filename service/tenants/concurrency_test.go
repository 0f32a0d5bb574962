package tenants_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// opens counts the memories a Server opens, by name.
type opens struct {
	mu sync.Mutex
	n  map[string]int
}

func (o *opens) open(name string, st store.Store) (*service.Memory, error) {
	o.mu.Lock()
	if o.n == nil {
		o.n = map[string]int{}
	}
	o.n[name]++
	o.mu.Unlock()
	return service.New(st, service.Options{}), nil
}

func (o *opens) count(name string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n[name]
}

func newServer(t *testing.T, idle time.Duration, o *opens, backends ...string) (*tenants.Server, []string) {
	t.Helper()
	var mems []tenants.Memory
	var names []string
	for i, b := range backends {
		name := fmt.Sprintf("m%d", i)
		mems = append(mems, tenants.Memory{Name: name, Store: newStore(t, b), Tokens: []string{"tok-" + name}})
		names = append(names, name)
	}
	s, err := tenants.New(tenants.Options{Memories: mems, IdleClose: idle, Open: o.open})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	storesMu.Lock()
	for _, m := range mems {
		stores[storeKey{s, m.Name}] = m.Store
	}
	storesMu.Unlock()
	return s, names
}

type storeKey struct {
	s    *tenants.Server
	name string
}

var (
	storesMu sync.Mutex
	stores   = map[storeKey]string{}
)

func storeOf(t *testing.T, s *tenants.Server, name string) string {
	storesMu.Lock()
	defer storesMu.Unlock()
	return stores[storeKey{s, name}]
}

// Concurrent first requests to a memory open it once; every one of them
// is answered from it.
func TestConcurrentFirstOpen(t *testing.T) {
	var o opens
	s, names := newServer(t, 0, &o, "bolt", "folder", "bolt")
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 48 {
		wg.Go(func() {
			<-start
			name := names[i%len(names)]
			if rec := do(s, "POST", "/v1/m/"+name+"/retrieve", `{"query":"sea"}`, "tok-"+name); rec.Code != http.StatusOK {
				t.Errorf("%s: %d %s", name, rec.Code, rec.Body)
			}
		})
	}
	close(start)
	wg.Wait()
	for _, name := range names {
		if n := o.count(name); n != 1 {
			t.Errorf("memory %s opened %d times, want once", name, n)
		}
	}
}

// Randomized, for -race: writers and readers on random memories while
// the memories close when idle (a few milliseconds) and reopen. Every
// request succeeds, every answered write is read back (from a memory
// opened again), and memories did close and reopen meanwhile.
func TestIdleCloseUnderLoad(t *testing.T) {
	var o opens
	s, names := newServer(t, 3*time.Millisecond, &o, "bolt", "folder", "bolt", "folder")
	var wg sync.WaitGroup
	written := make([][]string, 8)
	for g := range written {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for i := range 25 {
				name := names[r.IntN(len(names))]
				entry := fmt.Sprintf("g%d/n%d", g, i)
				body := fmt.Sprintf(`{"content":"note %d of writer %d"}`, i, g)
				if rec := do(s, "PUT", "/v1/m/"+name+"/entries/"+entry, body, "tok-"+name); rec.Code != http.StatusCreated {
					t.Errorf("PUT %s on %s: %d %s", entry, name, rec.Code, rec.Body)
					return
				}
				written[g] = append(written[g], name+" "+entry)
				if r.IntN(3) == 0 {
					time.Sleep(time.Duration(r.IntN(8)) * time.Millisecond)
				}
				if rec := do(s, "POST", "/v1/m/"+name+"/retrieve", `{"query":"writer"}`, "tok-"+name); rec.Code != http.StatusOK {
					t.Errorf("retrieve on %s: %d %s", name, rec.Code, rec.Body)
				}
			}
		})
	}
	wg.Wait()
	time.Sleep(20 * time.Millisecond) // every memory closes
	reopened := 0
	for _, ws := range written {
		for _, w := range ws {
			name, entry, _ := strings.Cut(w, " ")
			if rec := do(s, "GET", "/v1/m/"+name+"/entries/"+entry, "", "tok-"+name); rec.Code != http.StatusOK {
				t.Errorf("GET %s on %s after the load: %d %s", entry, name, rec.Code, rec.Body)
			}
		}
	}
	for _, name := range names {
		if o.count(name) > 1 {
			reopened++
		}
	}
	if reopened == 0 {
		t.Error("no memory was closed when idle and opened again: the test tested nothing")
	}
}

// A request in flight keeps its memory open however long it takes; the
// memory closes once it is over and idle.
func TestInFlightSurvivesIdleClose(t *testing.T) {
	var o opens
	idle := 5 * time.Millisecond
	s, names := newServer(t, idle, &o, "bolt")
	name := names[0]
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		req, _ := http.NewRequestWithContext(context.Background(), "PUT", "http://localhost/v1/m/"+name+"/entries/slow/one", pr)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer tok-"+name)
		rec := &recorder{header: http.Header{}}
		s.ServeHTTP(rec, req)
		done <- rec.code
	}()
	pw.Write([]byte(`{"content":`))
	time.Sleep(20 * idle) // the idle closer ran many times
	pw.Write([]byte(`"slow but whole"}`))
	pw.Close()
	if code := <-done; code != http.StatusCreated {
		t.Fatalf("slow PUT: %d, want 201", code)
	}
	if n := o.count(name); n != 1 {
		t.Errorf("memory opened %d times during one request, want once", n)
	}
	time.Sleep(20 * idle)
	if rec := do(s, "GET", "/v1/m/"+name+"/entries/slow/one", "", "tok-"+name); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "slow but whole") {
		t.Errorf("GET after: %d %s", rec.Code, rec.Body)
	}
	if n := o.count(name); n != 2 {
		t.Errorf("memory opened %d times, want twice (closed when idle after the request)", n)
	}
}

// recorder is a ResponseWriter for a request served on another goroutine.
type recorder struct {
	header http.Header
	code   int
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return len(b), nil
}
func (r *recorder) WriteHeader(code int) { r.code = code }

// Close while first requests are opening memories: every request gets
// an answer (200, or 503 once the server is shutting down), and once
// Close returns every store is closed — each bolt file can be opened at
// once by someone else.
func TestCloseDuringOpens(t *testing.T) {
	for round := range 5 {
		var o opens
		s, names := newServer(t, 0, &o, "bolt", "bolt", "bolt", "bolt", "bolt", "bolt")
		var wg sync.WaitGroup
		for i := range 24 {
			wg.Go(func() {
				name := names[i%len(names)]
				rec := do(s, "POST", "/v1/m/"+name+"/retrieve", `{"query":"sea"}`, "tok-"+name)
				if rec.Code != http.StatusOK && rec.Code != http.StatusServiceUnavailable {
					t.Errorf("%s: %d %s", name, rec.Code, rec.Body)
				}
			})
		}
		time.Sleep(time.Duration(round) * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		for _, name := range names {
			path := storeOf(t, s, name)
			st, err := boltstore.Open(path, &boltstore.Options{Timeout: 10 * time.Millisecond})
			if err != nil {
				t.Fatalf("round %d: %s after Close: %v", round, name, err)
			}
			st.Close()
		}
		wg.Wait()
	}
}
