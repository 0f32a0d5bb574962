package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

func serveStore(t *testing.T, st store.Store, opts httpapi.Options) *httptest.Server {
	t.Helper()
	m := service.New(st, service.Options{})
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	h, err := httpapi.New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func getBackup(t *testing.T, url, token string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// A bolt store's backup, taken while writers keep writing, is one
// consistent instant: each writer's batches put two entries in one
// transaction, and the snapshot holds both or neither of every pair. It
// opens as a store, and the token is required.
func TestBackupSnapshotUnderWrites(t *testing.T) {
	ctx := context.Background()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "live.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 2000 { // a file of some size, so the copy takes a while
		if err := st.Put(ctx, store.Entry{Category: "base", Name: fmt.Sprint(i), Content: strings.Repeat("memory ", 50)}); err != nil {
			t.Fatal(err)
		}
	}
	srv := serveStore(t, st, httpapi.Options{Token: "s3cret"})
	if resp, _ := getBackup(t, srv.URL+"/v1/backup", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: %d, want 401", resp.StatusCode)
	}
	var (
		stop  atomic.Bool
		wg    sync.WaitGroup
		pairs atomic.Int64
	)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				name := fmt.Sprintf("w%d-%d", w, i)
				if err := st.PutBatch(ctx, []store.Entry{{Category: "pair", Name: name + "a", Content: "a"}, {Category: "pair", Name: name + "b", Content: "b"}}); err != nil {
					t.Error(err)
					return
				}
				pairs.Add(1)
			}
		}()
	}
	var snaps [][]byte
	for range 5 {
		resp, body := getBackup(t, srv.URL+"/v1/backup", "s3cret")
		if resp.StatusCode != 200 || resp.Header.Get("X-Recall-Backup-Format") != "snapshot" || resp.Header.Get("Content-Type") != "application/octet-stream" ||
			!strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="recall-backup-`) {
			t.Fatalf("backup: %d %v", resp.StatusCode, resp.Header)
		}
		snaps = append(snaps, body)
	}
	stop.Store(true)
	wg.Wait()
	if pairs.Load() == 0 {
		t.Fatal("no writes ran during the backups")
	}
	for i, b := range snaps {
		path := filepath.Join(t.TempDir(), "b.db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		copy, err := boltstore.Open(path, nil)
		if err != nil {
			t.Fatalf("snapshot %d does not open: %v", i, err)
		}
		names := map[string]bool{}
		base := 0
		for e, err := range copy.All(ctx) {
			if err != nil {
				t.Fatalf("snapshot %d: %v", i, err)
			}
			if e.Category == "base" {
				base++
			} else {
				names[e.Name] = true
			}
		}
		copy.Close()
		if base != 2000 {
			t.Errorf("snapshot %d: %d base entries, want 2000", i, base)
		}
		for n := range names {
			other := strings.TrimSuffix(n, "a") + "b"
			if strings.HasSuffix(n, "b") {
				other = strings.TrimSuffix(n, "b") + "a"
			}
			if !names[other] {
				t.Errorf("snapshot %d holds %s without %s: not one instant", i, n, other)
			}
		}
	}
}

// A folder store has no snapshot: its backup is JSONL that `recall
// import` reads; asking for a snapshot is a 400 naming the field. Without
// a token, a non-loopback Host is refused as for every endpoint.
func TestBackupJSONL(t *testing.T) {
	ctx := context.Background()
	st, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	want := []store.Entry{{Category: "a", Name: "x", Content: "one", Meta: store.Meta{Tags: []string{"t"}}}, {Category: "b", Name: "y", Content: "two"}}
	for _, e := range want {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	srv := serveStore(t, st, httpapi.Options{})
	resp, body := getBackup(t, srv.URL+"/v1/backup", "")
	if resp.StatusCode != 200 || resp.Header.Get("X-Recall-Backup-Format") != "jsonl" || resp.Trailer.Get("X-Recall-Unreadable") != "0" {
		t.Fatalf("backup: %d %v %v\n%s", resp.StatusCode, resp.Header, resp.Trailer, body)
	}
	plan, err := importer.ReadJSONL(ctx, strings.NewReader(string(body)), "backup")
	if err != nil || len(plan.Skipped) > 0 || len(plan.Items) != 2 {
		t.Fatalf("%v %v %d items:\n%s", err, plan.Skipped, len(plan.Items), body)
	}
	for i, it := range plan.Items {
		got, _ := st.Get(ctx, want[i].Category, want[i].Name)
		if !importer.Equal(it.Entry, got) {
			t.Errorf("line %d: %+v, want %+v", i+1, it.Entry, got)
		}
	}
	if resp, body := getBackup(t, srv.URL+"/v1/backup?format=snapshot", ""); resp.StatusCode != 400 || !strings.Contains(string(body), `"field":"format"`) {
		t.Errorf("format=snapshot on a folder: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/v1/backup", nil)
	req.Host = "attacker.example"
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host without a token: %d, want 403", r2.StatusCode)
	}
}
