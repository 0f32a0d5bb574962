package retrieve

import (
	"context"
	"errors"
	"iter"
	"sort"
	"sync"

	"github.com/recallhq/recall/store"
)

// memStore is a minimal in-memory store.Store for tests of the pipeline
// that need to control revisions precisely.
type memStore struct {
	mu  sync.Mutex
	m   map[store.Key]store.Entry
	rev uint64
	// scans counts calls to All: a full index build is one scan.
	scans int
	// gate, when set, holds every All until it is closed.
	gate chan struct{}
}

func newMemStore(es ...store.Entry) *memStore {
	s := &memStore{m: map[store.Key]store.Entry{}}
	for _, e := range es {
		s.m[e.Key()] = e
	}
	return s
}

func (s *memStore) Get(_ context.Context, c, n string) (store.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[store.Key{Category: c, Name: n}]
	if !ok {
		return e, store.ErrNotFound
	}
	return e, nil
}

func (s *memStore) Put(_ context.Context, e store.Entry) error {
	if err := store.Validate(e); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[e.Key()] = e
	s.rev++
	return nil
}

func (s *memStore) Update(_ context.Context, c, n string, fn func(store.Entry, bool) (store.Entry, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := store.Key{Category: c, Name: n}
	old, found := s.m[k]
	if !found {
		old = store.Entry{Category: c, Name: n}
	}
	e, err := fn(old, found)
	if errors.Is(err, store.ErrNoChange) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := store.Validate(e); err != nil {
		return err
	}
	s.m[k] = e
	s.rev++
	return nil
}

func (s *memStore) Delete(_ context.Context, c, n string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := store.Key{Category: c, Name: n}
	if _, ok := s.m[k]; !ok {
		return store.ErrNotFound
	}
	delete(s.m, k)
	s.rev++
	return nil
}

func (s *memStore) All(context.Context) iter.Seq2[store.Entry, error] {
	s.mu.Lock()
	s.scans++
	es := make([]store.Entry, 0, len(s.m))
	for _, e := range s.m {
		es = append(es, e)
	}
	gate := s.gate
	s.mu.Unlock()
	sort.Slice(es, func(i, j int) bool { return es[i].Key().String() < es[j].Key().String() })
	return func(yield func(store.Entry, error) bool) {
		if gate != nil {
			<-gate
		}
		for _, e := range es {
			if !yield(e, nil) {
				return
			}
		}
	}
}

func (s *memStore) Revision(context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rev, nil
}

func (s *memStore) Close() error { return nil }
