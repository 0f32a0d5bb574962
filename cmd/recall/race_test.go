package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Issue 8, item 1: an update that leaves tags out must not write back tags
// it read before a concurrent tag change landed. Client A sets the tags
// with each PUT, client B only changes the content; once both are done (and
// B sent a few more), the tags are A's last ones. Before the upsert went
// through store.Update, 3 rounds in 8 ended with an older tag.
func TestServeTagChangeNotLostToConcurrentUpdate(t *testing.T) {
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory")
			if backend == "bolt" {
				path += ".db"
			}
			srv := newTestServer(t, openBackend(t, backend, path), "")
			const rounds, puts = 8, 60
			for r := range rounds {
				entry := fmt.Sprintf("/v1/entries/race/r%d", r)
				var wg sync.WaitGroup
				wg.Go(func() {
					for i := 1; i <= puts; i++ {
						put(t, srv, entry, fmt.Sprintf(`{"content": "A %d", "tags": ["t%d"]}`, i, i))
					}
				})
				wg.Go(func() {
					for range puts {
						put(t, srv, entry, `{"content": "B"}`)
					}
				})
				wg.Wait()
				for range 3 {
					put(t, srv, entry, `{"content": "B"}`)
				}
				var e struct {
					Meta struct {
						Tags []string `json:"tags"`
					} `json:"meta"`
				}
				if err := json.Unmarshal(srv.want(t, 200, "GET", entry, ""), &e); err != nil {
					t.Fatal(err)
				}
				if want := fmt.Sprintf("t%d", puts); !slices.Equal(e.Meta.Tags, []string{want}) {
					t.Errorf("round %d: tags %v after the last tag change set [%s]", r, e.Meta.Tags, want)
				}
			}
		})
	}
}

// The same race between two `recall add` processes on one folder store.
func TestAddProcessesDoNotLoseTags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	bin := recallBinary(t)
	add := func(args ...string) {
		cmd := exec.Command(bin, append([]string{"--store", dir, "add", "race", "x"}, args...)...)
		cmd.Env = childEnv(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("recall add %v: %v\n%s", args, err, out)
		}
	}
	add("--content", "start")
	const rounds, adds = 6, 20
	for r := range rounds {
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 1; i <= adds; i++ {
				add("--content", fmt.Sprintf("A %d", i), "--tag", fmt.Sprintf("r%d-t%d", r, i))
			}
		})
		wg.Go(func() {
			for range adds {
				add("--content", "B")
			}
		})
		wg.Wait()
		add("--content", "B")
		st := openFS(t, dir, nil)
		e, err := st.Get(context.Background(), "race", "x")
		st.Close()
		if want := fmt.Sprintf("r%d-t%d", r, adds); err != nil || !slices.Equal(e.Meta.Tags, []string{want}) {
			t.Errorf("round %d: tags %v (%v), want [%s]", r, e.Meta.Tags, err, want)
		}
	}
}

// put sends one PUT from any goroutine, reporting a failure with t.Error.
func put(t *testing.T, srv *testServer, path, body string) {
	req, err := http.NewRequest("PUT", srv.url+path, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.client.Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Errorf("PUT %s %s: %d %s", path, body, resp.StatusCode, b)
	}
}
