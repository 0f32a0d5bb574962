package service_test

import (
	"context"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// feedStore is a store with a hand-driven change feed: note records a
// write made behind the Memory's back and announces it to every
// subscriber (the engine and the Memory both follow the feed, so each
// gets its own channel, and Changes answers by revision without
// consuming anything).
type feedStore struct {
	store.Store
	mu   sync.Mutex
	log  []noted
	subs []chan struct{}
}

type noted struct {
	rev uint64
	key store.Key
}

func (f *feedStore) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rev, err := f.Store.Revision(ctx)
	cs := store.ChangeSet{Since: since, Rev: rev}
	for _, n := range f.log {
		if n.rev > since && n.rev <= rev {
			cs.Keys = append(cs.Keys, n.key)
		}
	}
	return cs, err
}

func (f *feedStore) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	f.mu.Lock()
	f.subs = append(f.subs, ch)
	f.mu.Unlock()
	return ch, func() {}
}

func (f *feedStore) note(ctx context.Context, k store.Key) error {
	rev, err := f.Store.Revision(ctx)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.log = append(f.log, noted{rev, k})
	subs := f.subs
	f.mu.Unlock()
	for _, ch := range subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	return nil
}

// An entry written behind the Memory's back, announced by the store's
// change feed, gets its vector from the background fill's queue, not from
// the start-up sync: the test waits for that sync to have embedded the one
// entry there before (its log line), and only then writes the second.
func TestFillFollowsChangeFeed(t *testing.T) {
	ctx := context.Background()
	st := &feedStore{Store: stores(t)["bolt"]}
	if err := st.Store.Put(ctx, store.Entry{Category: "trips", Name: "hue", Content: "The citadel of Hue"}); err != nil {
		t.Fatal(err)
	}
	emb, _ := hash.New(hash.Config{})
	vec := cache.New(emb, any(st.Store).(cache.Backend), cache.Options{})
	synced := &logSignal{want: "embedded 1 entry", seen: make(chan struct{})}
	m := service.New(st, service.Options{
		Engine: retrieve.Options{Embedder: emb, Vectors: vec},
		Log:    log.New(synced, "", 0),
	})
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	select {
	case <-synced.seen: // the start-up sync is over
	case <-time.After(10 * time.Second):
		t.Fatal("the start-up sync never embedded the first entry")
	}
	e := store.Entry{Category: "trips", Name: "kayak", Content: "Kayaking in Halong Bay"}
	if err := st.Store.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := st.note(ctx, e.Key()); err != nil {
		t.Fatal(err)
	}
	key := cache.Key(index.EntryText(e.Name, e.Content))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := vec.Get(key); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the changed entry never got a vector")
		}
	}
}

// logSignal is a log destination that closes seen at the first line
// containing want.
type logSignal struct {
	want string
	once sync.Once
	seen chan struct{}
}

func (l *logSignal) Write(p []byte) (int, error) {
	if strings.Contains(string(p), l.want) {
		l.once.Do(func() { close(l.seen) })
	}
	return len(p), nil
}
