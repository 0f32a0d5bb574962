package tenants

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

var osStat = os.Stat

// tenant is one memory the Server holds, open or not.
//
// The one rule: t.live is published, replaced and taken away only under
// t.mu, and a request uses a live memory only between acquire (which
// counts it in, under t.mu) and release. Opening happens outside t.mu,
// one at a time per memory (Server.group); closing takes the memory away
// under t.mu first, so no request can start on it, and waits for those
// counted in before closing it.
type tenant struct {
	name string
	loc  location.Location

	mu      sync.Mutex
	live    *live         // nil: not open
	closing chan struct{} // closed once the last close has finished; nil when none ran
}

// live is an open memory and its handlers.
type live struct {
	m      *service.Memory
	st     store.Store
	api    http.Handler        // at /v1/m/NAME
	single http.Handler        // at /v1 and /healthz; nil but for the default memory
	mcp    func() http.Handler // made by the first MCP request (its tool schemas are ~190 KB)

	inflight int       // requests using it (under tenant.mu)
	last     time.Time // when the last of them ended (under tenant.mu)
	done     sync.WaitGroup
}

// acquire returns t's open memory, counted in until release, opening it
// first when it is not open: concurrent first requests share one open.
// Waiting stops when ctx ends; the open itself goes on for the others.
func (s *Server) acquire(ctx context.Context, t *tenant) (*live, error) {
	for {
		t.mu.Lock()
		if l := t.live; l != nil {
			l.inflight++
			l.done.Add(1)
			t.mu.Unlock()
			return l, nil
		}
		t.mu.Unlock()
		if s.isClosed() {
			return nil, ErrClosed
		}
		ch := s.group.DoChan(t.name, func() (any, error) { return nil, s.openTenant(t) })
		select {
		case res := <-ch:
			if res.Err != nil {
				return nil, res.Err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (t *tenant) release(l *live) {
	t.mu.Lock()
	l.inflight--
	l.last = time.Now()
	t.mu.Unlock()
	l.done.Done()
}

// openTenant opens t's store and memory and publishes them, unless they
// are open already. A close still running (idle) is waited for first, so
// that a bolt file's lock is free.
func (s *Server) openTenant(t *tenant) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.opening.Add(1)
	s.mu.Unlock()
	defer s.opening.Done()
	t.mu.Lock()
	if t.live != nil {
		t.mu.Unlock()
		return nil
	}
	closing := t.closing
	t.mu.Unlock()
	if closing != nil {
		<-closing
	}
	start := time.Now()
	l, err := s.build(t)
	if err != nil {
		s.log.Printf("memory %s: %v", t.name, err)
		return fmt.Errorf("memory %s cannot be opened: %w", t.name, err)
	}
	t.mu.Lock()
	if s.isClosed() {
		t.mu.Unlock()
		closeLive(l)
		return ErrClosed
	}
	l.last = time.Now()
	t.live = l
	t.mu.Unlock()
	s.log.Printf("memory %s: opened %s in %v", t.name, t.loc, time.Since(start).Round(time.Millisecond))
	return nil
}

// build opens t's store, the Memory over it (started: index warm-up,
// change following) and its handlers.
func (s *Server) build(t *tenant) (*live, error) {
	o := s.cache
	o.Create = s.create
	st, err := t.loc.Open(s.ctx, &o)
	if err != nil {
		return nil, err
	}
	m, err := s.open(t.name, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	l := &live{m: m, st: st}
	l.api, err = httpapi.New(m, httpapi.Options{Path: "/v1/m/" + t.name, Authorized: true, Pending: s.pending})
	if err == nil && t == s.def {
		l.single, err = httpapi.New(m, httpapi.Options{Authorized: true, Pending: s.pending})
	}
	if err == nil {
		err = m.Start(s.ctx)
	}
	if err != nil {
		closeLive(l)
		return nil, err
	}
	l.mcp = sync.OnceValue(func() http.Handler { return mcptools.NewHTTPHandler(m, s.mcpOpts) })
	return l, nil
}

func closeLive(l *live) error {
	err := l.m.Close()
	if cerr := l.st.Close(); cerr != nil && !errors.Is(cerr, store.ErrClosed) {
		err = errors.Join(err, cerr)
	}
	return err
}

// detach takes t's memory away and closes it once the requests using it
// are done. With onlyIdle it does so only if no request is using it and
// none has for s.idle.
func (s *Server) detach(t *tenant, onlyIdle bool) error {
	t.mu.Lock()
	l := t.live
	if l == nil || (onlyIdle && (l.inflight > 0 || time.Since(l.last) < s.idle)) {
		t.mu.Unlock()
		return nil
	}
	t.live = nil
	ch := make(chan struct{})
	t.closing = ch
	t.mu.Unlock()

	l.done.Wait()
	err := closeLive(l)
	close(ch)
	if err != nil {
		s.log.Printf("memory %s: close: %v", t.name, err)
		return fmt.Errorf("memory %s: %w", t.name, err)
	}
	if onlyIdle {
		s.log.Printf("memory %s: closed after %v idle", t.name, s.idle)
	}
	return nil
}

// closeIdle closes idle memories until Close.
func (s *Server) closeIdle() {
	tick := time.NewTicker(max(s.idle/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
		for _, t := range s.tenants {
			s.detach(t, true)
		}
	}
}
