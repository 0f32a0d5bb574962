package store

import (
	"sort"
	"sync"
	"sync/atomic"
)

// DefaultChangeLogSize is the number of changed keys a ChangeLog made with
// a capacity of zero remembers.
const DefaultChangeLogSize = 1 << 14

// ChangeLog is a bounded, in-memory history of the keys written at each
// revision, from which a single-process backend answers ChangeFeed:
// store/fs and store/bolt keep one each. It also owns the backend's view of
// the current revision, so that a revision and the keys written at it
// become visible together.
//
// It remembers the last Size keys recorded. A reader whose since is older
// than what it remembers (or older than the revision the log started at, or
// newer than the current revision) gets a ChangeSet with Reset.
//
// It also keeps the backend's acknowledged revisions (AckRevisioner): a
// write recorded by Add, Record or LostTrack is acknowledged to every
// reader; one recorded by AddBy or RecordBy with a Publisher p (a write
// its caller publishes to itself, CallerPublishes) to every reader but p.
//
// A ChangeLog is safe for concurrent use. The zero value is not usable;
// call NewChangeLog.
type ChangeLog struct {
	mu    sync.Mutex
	rev   uint64
	pub   atomic.Uint64            // rev, for lock-free reads; written under mu
	acked atomic.Pointer[ackState] // replaced whole, under mu
	floor uint64                   // a since below it cannot be answered
	items []logItem                // grown up to size as keys are recorded, then a ring
	size  int
	head  int // index of the oldest item when the ring is full
	full  bool
	subs  map[chan struct{}]struct{}
}

// ackState is what Acked needs: revisions only rise, so the newest write
// by a publisher (first, by top) and the newest by any other publisher
// (second) tell every publisher's acknowledged revision.
type ackState struct {
	all    uint64     // the newest write acknowledged to every reader
	first  uint64     // the newest write by a publisher, top
	top    *Publisher // nil before the first
	second uint64     // the newest write by a publisher other than top
}

// of is the acknowledged revision of reader p (nil: of every reader).
func (a *ackState) of(p *Publisher) uint64 {
	o := a.first
	if p != nil && p == a.top {
		o = a.second
	}
	return max(a.all, o)
}

// at is a after a write at rev by p (nil: acknowledged to every reader).
func (a ackState) at(rev uint64, p *Publisher) *ackState {
	switch {
	case p == nil:
		a.all = rev
	case p == a.top:
		a.first = rev
	default:
		a.second, a.top, a.first = a.first, p, rev
	}
	return &a
}

type logItem struct {
	rev uint64
	key Key
}

// NewChangeLog returns a log that starts at revision rev and remembers up
// to size keys (DefaultChangeLogSize when size <= 0). Nothing before rev is
// known: Changes with a since below it is Reset, which is what a reader
// that indexed the store in an earlier process must get.
func NewChangeLog(rev uint64, size int) *ChangeLog {
	if size <= 0 {
		size = DefaultChangeLogSize
	}
	// The ring grows as keys are recorded rather than being allocated
	// whole (16,384 items are 640 KB): a server holding many stores, most
	// of them seldom written, pays for the history each actually has.
	l := &ChangeLog{rev: rev, floor: rev, size: size, subs: map[chan struct{}]struct{}{}}
	l.pub.Store(rev)
	l.acked.Store(&ackState{all: rev})
	return l
}

// Rev returns the current revision, without taking the log's lock: a
// retrieve reads it every time.
func (l *ChangeLog) Rev() uint64 { return l.pub.Load() }

// Acked returns the revision reader p must reach to hold every write
// recorded so far except p's own (AddBy, RecordBy with p), without taking
// the log's lock. A nil p leaves none out. It is at most Rev.
func (l *ChangeLog) Acked(p *Publisher) uint64 { return l.acked.Load().of(p) }

// Add raises the revision by one, records keys as written at the new
// revision, wakes the subscribers, and returns the new revision.
func (l *ChangeLog) Add(keys ...Key) uint64 { return l.AddBy(nil, keys...) }

// AddBy is Add for a write that p publishes to itself (CallerPublishes):
// it is acknowledged to every reader but p. A nil p is Add.
func (l *ChangeLog) AddBy(p *Publisher, keys ...Key) uint64 {
	l.mu.Lock()
	l.rev++
	r := l.rev
	l.appendLocked(r, keys)
	l.publishLocked(p)
	l.mu.Unlock()
	l.notify()
	return r
}

// Record sets the revision to rev and records keys as written at it, for a
// backend whose revision lives elsewhere (bolt: in the file). Calls must
// come in revision order; a rev not above the current one records the keys
// at the current revision.
func (l *ChangeLog) Record(rev uint64, keys ...Key) { l.RecordBy(rev, nil, keys...) }

// RecordBy is Record for writes that p publishes to itself, all of them
// (CallerPublishes): they are acknowledged to every reader but p. A nil p
// is Record.
func (l *ChangeLog) RecordBy(rev uint64, p *Publisher, keys ...Key) {
	l.mu.Lock()
	l.rev = max(l.rev, rev)
	l.appendLocked(l.rev, keys)
	l.publishLocked(p)
	l.mu.Unlock()
	l.notify()
}

// publishLocked makes the revision visible to Rev, and to Acked, for
// every reader but p.
func (l *ChangeLog) publishLocked(p *Publisher) {
	l.pub.Store(l.rev)
	l.acked.Store(l.acked.Load().at(l.rev, p))
}

// LostTrack raises the revision by one and forgets the history: every
// reader behind the new revision gets Reset. A backend calls it when it no
// longer knows what changed (a watcher that overflowed).
func (l *ChangeLog) LostTrack() uint64 {
	l.mu.Lock()
	l.rev++
	l.floor = l.rev
	l.items, l.head, l.full = l.items[:0], 0, false
	r := l.rev
	l.publishLocked(nil)
	l.mu.Unlock()
	l.notify()
	return r
}

func (l *ChangeLog) appendLocked(rev uint64, keys []Key) {
	for _, k := range keys {
		it := logItem{rev: rev, key: k}
		if !l.full {
			l.items = append(l.items, it)
			l.full = len(l.items) == l.size
			continue
		}
		// Overwrite the oldest: a reader that needed it must now rebuild.
		l.floor = max(l.floor, l.items[l.head].rev)
		l.items[l.head] = it
		l.head = (l.head + 1) % len(l.items)
	}
}

// Changes answers ChangeFeed.Changes from the log.
func (l *ChangeLog) Changes(since uint64) ChangeSet {
	l.mu.Lock()
	defer l.mu.Unlock()
	cs := ChangeSet{Since: since, Rev: l.rev}
	switch {
	case since == l.rev:
		return cs
	case since > l.rev || since < l.floor:
		cs.Reset = true
		return cs
	}
	n := len(l.items)
	at := func(i int) logItem { return l.items[(l.head+i)%n] }
	// Revisions are ascending from the oldest item: find the first after since.
	first := sort.Search(n, func(i int) bool { return at(i).rev > since })
	seen := make(map[Key]struct{}, n-first)
	for i := first; i < n; i++ {
		k := at(i).key
		if _, ok := seen[k]; ok {
			continue
		}
		seen[k] = struct{}{}
		cs.Keys = append(cs.Keys, k)
	}
	return cs
}

// Subscribe answers ChangeFeed.Subscribe: the channel receives a value
// after every Add, Record or LostTrack (coalesced), and on Close.
func (l *ChangeLog) Subscribe() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	l.mu.Lock()
	l.subs[c] = struct{}{}
	l.mu.Unlock()
	var once sync.Once
	return c, func() {
		once.Do(func() {
			l.mu.Lock()
			delete(l.subs, c)
			l.mu.Unlock()
		})
	}
}

// Close wakes every subscriber once more, so that followers blocked on
// their channel call Changes, learn that the store is closed and stop. The
// backend calls it when it is closed; channels are not closed.
func (l *ChangeLog) Close() { l.notify() }

func (l *ChangeLog) notify() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.subs {
		select {
		case c <- struct{}{}:
		default: // a value is pending: it stands for this change too
		}
	}
}
