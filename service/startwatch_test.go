package service_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store/fs"
)

// slowWatch is a real folder store whose Watch waits until released
// before setting up, as setting up a watch over a large folder on a
// loaded machine does.
type slowWatch struct {
	*fs.Store
	release chan struct{}
	called  chan struct{}
}

func (s *slowWatch) Watch(ctx context.Context, onChange func()) error {
	close(s.called)
	<-s.release
	return s.Store.Watch(ctx, onChange)
}

// TestStartDoesNotWaitForWatch: Start returns (and `recall mcp` answers
// its handshake) while the folder's watch is still being set up; an edit
// made outside the Memory in that window is found by retrieve once the
// watch is up, one made after it too; Close waits for the set-up.
func TestStartDoesNotWaitForWatch(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, "notes", name+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("old", "an old note about harbours")
	fst, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fst.Close()
	st := &slowWatch{Store: fst, release: make(chan struct{}), called: make(chan struct{})}
	m := service.New(st, service.Options{})
	ctx := context.Background()

	started := make(chan error, 1)
	go func() { started <- m.Start(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(st.release)
		t.Fatal("Start waited for the watch to be set up")
	}
	<-st.called
	// Behind the Memory's back, before the watch is in place.
	write("during", "written while the watch was set up: lighthouses")
	close(st.release)

	find := func(query, name string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: query})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range res.Items {
				if it.Name == name {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("retrieve %q never found notes:%s", query, name)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	find("lighthouses", "during")
	write("after", "written once the watch was up: breakwaters")
	find("breakwaters", "after")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCloseWaitsForWatchSetup: a Memory closed while its watch is being
// set up returns from Close only after the set-up ended, and leaves no
// watch running (a new one can start on the store).
func TestCloseWaitsForWatchSetup(t *testing.T) {
	fst, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fst.Close()
	st := &slowWatch{Store: fst, release: make(chan struct{}), called: make(chan struct{})}
	m := service.New(st, service.Options{})
	started := make(chan error, 1)
	go func() { started <- m.Start(context.Background()) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(st.release)
		t.Fatal("Start waited for the watch to be set up")
	}
	<-st.called
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while the watch was still being set up")
	case <-time.After(50 * time.Millisecond):
	}
	close(st.release)
	<-closed
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := fst.Watch(ctx, nil); err != nil {
		t.Fatalf("a watch is still running after Close: %v", err)
	}
}
