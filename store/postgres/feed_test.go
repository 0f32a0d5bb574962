package postgres

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

func TestChanges(t *testing.T) {
	s := openNew(t)
	if cs := changes(t, s, 0); cs.Reset || cs.Rev != 0 || len(cs.Keys) != 0 {
		t.Fatalf("changes of an empty store: %+v", cs)
	}
	mustPut(t, s, "a", "one", "x")
	r1 := revision(t, s)
	mustPut(t, s, "a", "two", "x")
	mustPut(t, s, "a", "one", "y")
	if err := s.Update(ctx, "b", "three", func(e store.Entry, _ bool) (store.Entry, error) { e.Content = "z"; return e, nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "a", "two"); err != nil {
		t.Fatal(err)
	}
	r2 := revision(t, s)

	cs := changes(t, s, r1)
	want := map[string]bool{"a:one": true, "a:two": true, "b:three": true}
	if cs.Reset || cs.Since != r1 || cs.Rev != r2 || fmt.Sprint(keySet(cs)) != fmt.Sprint(want) || len(cs.Keys) != 3 {
		t.Fatalf("changes since %d = %+v, want %v up to %d, each once", r1, cs, want, r2)
	}
	if cs := changes(t, s, 0); cs.Reset || len(cs.Keys) != 3 {
		t.Fatalf("changes since 0 = %+v", cs)
	}
	if cs := changes(t, s, r2); cs.Reset || cs.Rev != r2 || len(cs.Keys) != 0 {
		t.Fatalf("changes since the current revision = %+v, want empty at %d", cs, r2)
	}
	if cs := changes(t, s, r2+5); !cs.Reset || cs.Rev != r2 {
		t.Fatalf("changes since a future revision = %+v, want Reset at %d", cs, r2)
	}
	// Failed writes log nothing.
	_ = s.Delete(ctx, "a", "missing")
	_ = s.Put(ctx, store.Entry{Category: "a", Name: "bad:name"})
	if cs := changes(t, s, r2); len(cs.Keys) != 0 || cs.Rev != r2 {
		t.Fatalf("failed writes were logged: %+v", cs)
	}
}

// The log is trimmed by size (and age); a reader older than what is kept
// is told to rebuild.
func TestChangesTrimmed(t *testing.T) {
	s := openSchema(t, newSchema(t), &Options{ChangeLogMaxRows: 3})
	for i := range 6 {
		mustPut(t, s, "a", fmt.Sprint("n", i), "x")
	}
	r := revision(t, s)
	if err := s.TrimChanges(ctx); err != nil {
		t.Fatal(err)
	}
	if cs := changes(t, s, r-3); cs.Reset || len(cs.Keys) != 3 {
		t.Fatalf("changes within the kept window: %+v", cs)
	}
	if cs := changes(t, s, r-4); !cs.Reset || len(cs.Keys) != 0 || cs.Rev != r {
		t.Fatalf("changes from before the kept window: %+v, want Reset", cs)
	}

	// By age: everything older than the limit goes.
	s2 := openSchema(t, s.Schema(), &Options{ChangeLogMaxAge: time.Millisecond})
	time.Sleep(10 * time.Millisecond)
	if err := s2.TrimChanges(ctx); err != nil {
		t.Fatal(err)
	}
	if cs := changes(t, s2, r-1); !cs.Reset {
		t.Fatalf("changes after trimming by age: %+v, want Reset", cs)
	}
	if cs := changes(t, s2, r); cs.Reset || len(cs.Keys) != 0 {
		t.Fatalf("a reader that is up to date after a trim: %+v, want no Reset", cs)
	}
	mustPut(t, s2, "a", "later", "x")
	if cs := changes(t, s2, r); cs.Reset || len(cs.Keys) != 1 {
		t.Fatalf("a write after the trim: %+v", cs)
	}
}

// TRUNCATE has no list of rows: readers are told to rebuild.
func TestTruncateResets(t *testing.T) {
	s := openNew(t)
	admin := adminPool(t)
	mustPut(t, s, "a", "b", "x")
	r := revision(t, s)
	if _, err := admin.Exec(ctx, `TRUNCATE "`+s.q.schema+`".entries`); err != nil {
		t.Fatal(err)
	}
	cs := changes(t, s, r)
	if !cs.Reset || cs.Rev <= r {
		t.Fatalf("changes after TRUNCATE = %+v, want Reset past %d", cs, r)
	}
}

// A write through the store wakes its own subscribers at once.
func TestSubscribeLocal(t *testing.T) {
	s := openNew(t)
	ch, cancel := s.Subscribe()
	defer cancel()
	waitFired(ch, 2*time.Second) // the listener's first LISTEN fires once
	drain(ch)
	mustPut(t, s, "a", "b", "x")
	if !waitFired(ch, time.Second) {
		t.Fatal("no wake-up after a local write")
	}
	cancel()
	cancel() // twice is fine
}

// Two stores on one database are two hosts: a write through one reaches
// the other's subscribers within a second, and its Changes names it.
func TestTwoHostsFeed(t *testing.T) {
	schema := newSchema(t)
	a := openSchema(t, schema, nil)
	b := openSchema(t, schema, nil)
	ch, cancel := b.Subscribe()
	defer cancel()
	deadline := time.Now().Add(5 * time.Second)
	for !b.Listening() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !b.Listening() {
		t.Fatal("the listener did not connect")
	}
	since := revision(t, b)
	var delays []time.Duration
	for i := range 20 {
		drain(ch)
		start := time.Now()
		mustPut(t, a, "shared", fmt.Sprint("n", i), "written on host a")
		if !waitFired(ch, time.Second) {
			t.Fatalf("write %d: host b was not told within 1 s", i)
		}
		delays = append(delays, time.Since(start))
		cs := changes(t, b, since)
		if cs.Reset || !keySet(cs)[fmt.Sprintf("shared:n%d", i)] {
			t.Fatalf("write %d: host b's changes since %d = %+v", i, since, cs)
		}
		since = cs.Rev
		e, err := b.Get(ctx, "shared", fmt.Sprint("n", i))
		if err != nil || e.Content != "written on host a" {
			t.Fatalf("host b reads %+v, %v", e, err)
		}
	}
	t.Logf("visibility delays (write committed on a → b notified): %v", delays)
}

// A row edited with plain SQL goes through the same triggers: it is
// logged and announced. One edited with the triggers switched off is not,
// but the next rebuild (All) reads it.
func TestEditBehindRecallsBack(t *testing.T) {
	s := openNew(t)
	admin := adminPool(t)
	mustPut(t, s, "notes", "edited", "before")
	ch, cancel := s.Subscribe()
	defer cancel()
	waitFired(ch, 2*time.Second)
	drain(ch)
	since := revision(t, s)
	tbl := `"` + s.q.schema + `".entries`
	if _, err := admin.Exec(ctx, `UPDATE `+tbl+` SET content = 'after psql', updated = now() WHERE category = 'notes' AND name = 'edited'`); err != nil {
		t.Fatal(err)
	}
	if !waitFired(ch, time.Second) {
		t.Fatal("a psql UPDATE was not announced")
	}
	if cs := changes(t, s, since); cs.Reset || !keySet(cs)["notes:edited"] {
		t.Fatalf("changes after a psql UPDATE: %+v", cs)
	}
	// A rename with SQL changes two identities.
	since = revision(t, s)
	if _, err := admin.Exec(ctx, `UPDATE `+tbl+` SET name = 'renamed' WHERE name = 'edited'`); err != nil {
		t.Fatal(err)
	}
	if ks := keySet(changes(t, s, since)); !ks["notes:edited"] || !ks["notes:renamed"] {
		t.Fatalf("a rename logged %v, want both identities", ks)
	}

	// Triggers off (what a restore with session_replication_role = replica
	// does): nothing is logged, All still reads the row.
	since = revision(t, s)
	conn, err := admin.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET session_replication_role = replica`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE `+tbl+` SET content = 'silent' WHERE name = 'renamed'`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `RESET session_replication_role`); err != nil {
		t.Fatal(err)
	}
	if cs := changes(t, s, since); len(cs.Keys) != 0 {
		t.Fatalf("an edit with triggers off was logged: %+v", cs)
	}
	found := false
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || (e.Name == "renamed" && e.Content == "silent")
	}
	if !found {
		t.Fatal("a rebuild did not read the row edited with triggers off")
	}
}

// Updates of one entry from two hosts at once lose nothing.
func TestTwoHostsUpdate(t *testing.T) {
	schema := newSchema(t)
	hosts := []*Store{openSchema(t, schema, nil), openSchema(t, schema, nil)}
	const perHost, workers = 30, 3
	var wg sync.WaitGroup
	errc := make(chan error, len(hosts)*workers)
	for h, s := range hosts {
		for w := range workers {
			wg.Go(func() {
				for i := range perHost {
					tok := fmt.Sprintf("h%dw%di%d", h, w, i)
					err := s.Update(ctx, "race", "shared", func(old store.Entry, found bool) (store.Entry, error) {
						old.Content = strings.TrimSpace(old.Content + " " + tok)
						n, _ := strconv.Atoi(firstTag(old.Meta.Tags))
						old.Meta.Tags = []string{strconv.Itoa(n + 1)}
						return old, nil
					})
					if err != nil {
						errc <- err
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	e, err := hosts[0].Get(ctx, "race", "shared")
	if err != nil {
		t.Fatal(err)
	}
	checkTokens(t, e, len(hosts), workers, perHost)
}

// checkTokens checks that every update token of hosts × workers × rounds
// is in e's content exactly once and that the counter tag agrees.
func checkTokens(t *testing.T, e store.Entry, hosts, workers, rounds int) {
	t.Helper()
	seen := map[string]int{}
	for _, f := range strings.Fields(e.Content) {
		seen[f]++
	}
	for h := range hosts {
		for w := range workers {
			for i := range rounds {
				if tok := fmt.Sprintf("h%dw%di%d", h, w, i); seen[tok] != 1 {
					t.Errorf("token %s appears %d times, want once (a lost or doubled update)", tok, seen[tok])
				}
			}
		}
	}
	if want := strconv.Itoa(hosts * workers * rounds); firstTag(e.Meta.Tags) != want {
		t.Errorf("counter tag %v, want %s", e.Meta.Tags, want)
	}
}

func firstTag(tags []string) string {
	if len(tags) == 0 {
		return "0"
	}
	return tags[0]
}

// Updates of an entry that does not exist yet race on the insert; the
// loser retries against the row the winner made.
func TestUpdateAbsentRace(t *testing.T) {
	schema := newSchema(t)
	hosts := []*Store{openSchema(t, schema, nil), openSchema(t, schema, nil)}
	for round := range 10 {
		name := fmt.Sprint("fresh", round)
		var wg sync.WaitGroup
		errc := make(chan error, 8)
		for i := range 8 {
			s := hosts[i%2]
			wg.Go(func() {
				errc <- s.Update(ctx, "race", name, func(old store.Entry, found bool) (store.Entry, error) {
					old.Content = strings.TrimSpace(old.Content + " " + strconv.Itoa(i))
					return old, nil
				})
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatal(err)
			}
		}
		e, err := hosts[0].Get(ctx, "race", name)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.Fields(e.Content)); n != 8 {
			t.Fatalf("round %d: %q holds %d of 8 updates", round, e.Content, n)
		}
	}
}

// A Put waits for an Update holding the row; neither is lost.
func TestUpdateBlocksPut(t *testing.T) {
	s := openNew(t)
	mustPut(t, s, "a", "b", "start")
	inFn := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Update(ctx, "a", "b", func(old store.Entry, _ bool) (store.Entry, error) {
			close(inFn)
			<-release
			old.Content += " +update"
			return old, nil
		})
	}()
	<-inFn
	putDone := make(chan error, 1)
	go func() { putDone <- s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "put"}) }()
	select {
	case err := <-putDone:
		t.Fatalf("Put finished (%v) while Update held the row", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-putDone; err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Get(ctx, "a", "b"); e.Content != "put" {
		t.Fatalf("content %q, want the Put that came after the update", e.Content)
	}
}

func TestClosedFeed(t *testing.T) {
	s := openNew(t)
	_, cancel := s.Subscribe()
	defer cancel()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Changes(ctx, 0); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Changes after Close = %v, want ErrClosed", err)
	}
	if err := s.PutBatch(ctx, []store.Entry{{Category: "a", Name: "b"}}); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("PutBatch after Close = %v, want ErrClosed", err)
	}
	if err := s.Close(); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("second Close = %v, want ErrClosed", err)
	}
	// Subscribing to a closed store gives a channel that never fires.
	ch, cancel2 := s.Subscribe()
	defer cancel2()
	if waitFired(ch, 100*time.Millisecond) {
		t.Fatal("a closed store's subscription fired")
	}
}

// The listener's liveness check (a ping after idleCheck without
// notifications) keeps the connection and the feed working.
func TestListenerIdleCheck(t *testing.T) {
	schema := newSchema(t)
	a := openSchema(t, schema, nil)
	// b's connections carry a name of their own, so that the server can
	// show its listener's idle checks.
	app := "recall_idle_" + schema
	conn := testURL(t)
	if isURL(conn) {
		u, err := url.Parse(conn)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("application_name", app)
		u.RawQuery = q.Encode()
		conn = u.String()
	} else {
		conn += " application_name=" + app
	}
	old := idleCheck
	idleCheck = 50 * time.Millisecond
	b, err := Open(ctx, conn, &Options{Schema: schema})
	idleCheck = old
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ch, cancel := b.Subscribe()
	defer cancel()
	// Several idle checks, seen by the server: each is a ping ("-- ping",
	// as pgx sends it) on the listener's connection, which moves its
	// pg_stat_activity.state_change. b does nothing else meanwhile.
	admin := adminPool(t)
	pings := map[time.Time]bool{}
	for deadline := time.Now().Add(30 * time.Second); len(pings) < 3; time.Sleep(5 * time.Millisecond) {
		rows, err := admin.Query(ctx, `SELECT state_change FROM pg_stat_activity WHERE application_name = $1 AND query = '-- ping'`, app)
		if err != nil {
			t.Fatal(err)
		}
		changes, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			pings[c] = true
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server saw %d idle checks in 30 s, want 3 (one every %v)", len(pings), 50*time.Millisecond)
		}
	}
	if !b.Listening() {
		t.Fatal("the listener dropped its connection after idle checks")
	}
	drain(ch)
	mustPut(t, a, "a", "b", "x")
	if !waitFired(ch, time.Second) {
		t.Fatal("no notification after idle checks")
	}
}
