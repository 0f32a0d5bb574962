package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

// Changes returns the identities written after revision since, read from
// the change log in one statement. A since below the log's floor (the
// history was trimmed, the table truncated, or the schema upgraded from a
// version without a log) or above the current revision yields Reset.
func (s *Store) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	cs := store.ChangeSet{Since: since}
	op := fmt.Sprintf("changes since %d", since)
	err := s.use(ctx, op, func(ctx context.Context) error {
		cs.Keys = cs.Keys[:0]
		rows, err := s.pool.Query(ctx, s.q.changes, int64(since))
		if err != nil {
			return err
		}
		defer rows.Close()
		var rev, floor int64
		for rows.Next() {
			var cat, name *string
			if err := rows.Scan(&rev, &floor, &cat, &name); err != nil {
				return err
			}
			if cat != nil && name != nil {
				cs.Keys = append(cs.Keys, store.Key{Category: *cat, Name: *name})
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		cs.Rev = uint64(rev)
		if since > cs.Rev || since < uint64(floor) {
			cs.Reset, cs.Keys = true, nil
		}
		return nil
	})
	if err != nil {
		return store.ChangeSet{}, err
	}
	if len(cs.Keys) == 0 {
		cs.Keys = nil
	}
	return cs, nil
}

// feed is the set of subscribers and the state of the LISTEN goroutine.
type feed struct {
	mu        sync.Mutex
	subs      map[chan struct{}]struct{}
	listening bool // the listener goroutine runs
	connected bool // it holds a live LISTEN connection
}

// Subscribe returns a channel that receives a value soon after the
// revision moves: at once after a write through this Store, and on every
// notification from the database, which every write by any host (psql
// included) sends when it commits. The first call starts one goroutine
// with a dedicated connection (outside the pool) that LISTENs; when that
// connection breaks, it reconnects with backoff (50 ms doubling to 2 s)
// and, once listening again, fires every subscriber, since notifications
// sent meanwhile are lost: the subscribers' call to Changes catches up
// from the log, so nothing is missed. It also fires right after its first
// LISTEN, covering writes made between Subscribe and then.
//
// Values are coalesced (a channel buffers one) and never block the
// listener. The channel is never closed; cancel ends the subscription.
func (s *Store) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.feed.mu.Lock()
	s.feed.subs[ch] = struct{}{}
	start := !s.feed.listening
	s.feed.listening = true
	s.feed.mu.Unlock()
	if start {
		s.startBG(s.listen)
	}
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			s.feed.mu.Lock()
			delete(s.feed.subs, ch)
			s.feed.mu.Unlock()
		})
	}
}

// Listening reports whether the change feed currently holds a live LISTEN
// connection (false before the first Subscribe, and while it reconnects).
func (s *Store) Listening() bool {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	return s.feed.connected
}

// Ping checks that the database answers, within Options.Timeout.
func (s *Store) Ping(ctx context.Context) error {
	return s.use(ctx, "ping", func(ctx context.Context) error { return s.pool.Ping(ctx) })
}

// fire wakes every subscriber without blocking.
func (s *Store) fire() {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	for ch := range s.feed.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// startBG runs fn in a goroutine that Close cancels and waits for, unless
// the store is closed already.
func (s *Store) startBG(fn func(ctx context.Context)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return
	}
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		fn(s.bg)
	}()
}

// wroteLocally is called after each successful write: it wakes local
// subscribers at once and makes sure the trimmer runs.
func (s *Store) wroteLocally() {
	s.wrote.Store(true)
	s.fire()
	s.trimOnce.Do(func() { s.startBG(s.trimLoop) })
}

// Backoff of the listener's reconnects, and how long it waits for a
// notification before checking that its connection is still alive (a
// server that vanished without closing the connection sends nothing).
const (
	minBackoff   = 50 * time.Millisecond
	maxBackoff   = 2 * time.Second
	pingDeadline = 5 * time.Second
)

// idleCheck is a variable for tests; a Store reads it when it opens.
var idleCheck = 30 * time.Second

// listen holds the LISTEN connection until ctx ends.
func (s *Store) listen(ctx context.Context) {
	backoff := minBackoff
	for ctx.Err() == nil {
		conn, err := s.connectListener(ctx)
		if err != nil {
			if !sleep(ctx, backoff) {
				return
			}
			backoff = min(2*backoff, maxBackoff)
			continue
		}
		backoff = minBackoff
		s.setConnected(true)
		s.fire()
		s.wait(ctx, conn)
		s.setConnected(false)
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = conn.Close(cctx)
		cancel()
	}
}

func (s *Store) setConnected(v bool) {
	s.feed.mu.Lock()
	s.feed.connected = v
	s.feed.mu.Unlock()
}

func (s *Store) connectListener(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, s.connCfg.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(cctx, s.q.listen); err != nil {
		_ = conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// wait fires the subscribers on each notification until the connection
// fails or ctx ends.
func (s *Store) wait(ctx context.Context, conn *pgx.Conn) {
	for {
		wctx, cancel := context.WithTimeout(ctx, s.idleCheck)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			s.fire()
		case ctx.Err() != nil:
			return
		case errors.Is(err, context.DeadlineExceeded):
			pctx, cancel := context.WithTimeout(ctx, pingDeadline)
			err = conn.Ping(pctx)
			cancel()
			if err != nil {
				return
			}
		default:
			return
		}
	}
}

// firstTrimDelay is how long after its first write a store first trims
// the change log: long enough that a one-shot command never pays for it.
const firstTrimDelay = 2 * time.Second

// trimLoop trims the change log shortly after the store's first write and
// then every TrimInterval while it keeps writing. Many hosts may trim at
// once: it is idempotent.
func (s *Store) trimLoop(ctx context.Context) {
	if !sleep(ctx, min(firstTrimDelay, s.opts.TrimInterval)) {
		return
	}
	t := time.NewTicker(s.opts.TrimInterval)
	defer t.Stop()
	for {
		if s.wrote.Swap(false) {
			_ = s.TrimChanges(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// TrimChanges deletes the change-log rows beyond Options.ChangeLogMaxAge
// and ChangeLogMaxRows and raises the floor below which Changes answers
// Reset. A store that writes does it by itself (shortly after its first
// write, then every TrimInterval); the method is for tools and tests.
func (s *Store) TrimChanges(ctx context.Context) error {
	return s.use(ctx, "trim change log", func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, s.q.trim, s.opts.ChangeLogMaxAge, s.opts.ChangeLogMaxRows)
		return err
	})
}

// sleep waits d or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
