package postgres

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

func TestConformance(t *testing.T) {
	testURL(t) // skip the whole suite at once when there is no server
	storetest.Run(t, func(t *testing.T) store.Store { return openNew(t) })
}

var (
	_ cache.Backend        = (*Store)(nil)
	_ cache.DamageReporter = (*Store)(nil)
)

func TestVectors(t *testing.T) {
	testURL(t)
	storetest.RunVectors(t,
		func(t *testing.T) storetest.VectorBackend { return openNew(t) },
		func(t *testing.T, s storetest.VectorBackend) storetest.VectorBackend {
			schema := s.(*Store).Schema()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return openSchema(t, schema, nil)
		})
}

// A damaged vector row (edited by hand) is never returned, and the load
// deletes it; a good row beside it survives.
func TestVectorsCorruptRowsDropped(t *testing.T) {
	s := openNew(t)
	admin := adminPool(t)
	keys := []string{storetest.VectorKey(1), storetest.VectorKey(2), storetest.VectorKey(3), storetest.VectorKey(4)}
	vecs := [][]float32{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {1, 1, 1}}
	storetest.MustPutVectors(t, s, "m", keys, vecs)
	tbl := s.q.schema
	edits := []struct {
		sql string
		key string
	}{
		{`UPDATE "` + tbl + `".vectors SET vec = vec || '\x00'::bytea WHERE key = $1`, keys[0]},
		{`UPDATE "` + tbl + `".vectors SET crc = crc + 1 WHERE key = $1`, keys[1]},
		{`UPDATE "` + tbl + `".vectors SET key = upper(key) WHERE key = $1`, keys[2]},
	}
	for _, e := range edits {
		if _, err := admin.Exec(ctx, e.sql, e.key); err != nil {
			t.Fatal(err)
		}
	}
	got, dropped := storetest.LoadAllReport(t, s, "m")
	storetest.CheckVectorsEqual(t, got, keys[3:], vecs[3:])
	// The load counts what it dropped (embed/cache.DamageReporter), once.
	if dropped != len(edits) {
		t.Errorf("LoadVectorsReport dropped %d rows, want %d", dropped, len(edits))
	}
	if _, again := storetest.LoadAllReport(t, s, "m"); again != 0 {
		t.Errorf("a second load dropped %d rows, want 0", again)
	}
	var n int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM "`+tbl+`".vectors`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d vector rows left after the load, want the 1 good one (damaged rows are dropped)", n)
	}
}

// Put stamps timestamps with the database's clock, keeps Created on an
// upsert that leaves it zero, and keeps microseconds.
func TestTimestamps(t *testing.T) {
	s := openNew(t)
	before := time.Now().Add(-time.Minute)
	mustPut(t, s, "a", "b", "one")
	first, err := s.Get(ctx, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if first.Meta.Created.Before(before) || first.Meta.Updated.Before(before) || first.Meta.Created.Location() != time.UTC {
		t.Fatalf("timestamps %v / %v, want now in UTC", first.Meta.Created, first.Meta.Updated)
	}
	time.Sleep(5 * time.Millisecond)
	mustPut(t, s, "a", "b", "two")
	second, _ := s.Get(ctx, "a", "b")
	if !second.Meta.Created.Equal(first.Meta.Created) || !second.Meta.Updated.After(first.Meta.Updated) {
		t.Fatalf("after an upsert: created %v (was %v), updated %v (was %v)",
			second.Meta.Created, first.Meta.Created, second.Meta.Updated, first.Meta.Updated)
	}
	given := time.Date(2021, 5, 6, 7, 8, 9, 123456789, time.FixedZone("x", 3600))
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "c", Content: "x", Meta: store.Meta{Created: given, Updated: given}}); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(ctx, "a", "c")
	want := given.UTC().Round(time.Microsecond)
	if !got.Meta.Created.Equal(want) || !got.Meta.Updated.Equal(want) {
		t.Fatalf("given times came back as %v / %v, want %v", got.Meta.Created, got.Meta.Updated, want)
	}
}

// What PostgreSQL cannot hold is refused up front, naming the field.
func TestNULRefused(t *testing.T) {
	s := openNew(t)
	for _, e := range []store.Entry{
		{Category: "a", Name: "b", Content: "x\x00y"},
		{Category: "a", Name: "b", Content: "x", Meta: store.Meta{Tags: []string{"t\x00"}}},
		{Category: "a", Name: "b", Content: "x", Meta: store.Meta{Extra: map[string]any{"k": "v\x00"}}},
	} {
		err := s.Put(ctx, e)
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Put(%q, %v) = %v, want ErrInvalid", e.Content, e.Meta, err)
		}
	}
	if r := revision(t, s); r != 0 {
		t.Fatalf("refused writes moved the revision to %d", r)
	}
}

func TestBatch(t *testing.T) {
	s := openNew(t)
	created := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	mustPut(t, s, "keep", "created", "old")
	old, _ := s.Get(ctx, "keep", "created")
	r0 := revision(t, s)
	var batch []store.Entry
	for i := range 2500 {
		batch = append(batch, store.Entry{Category: fmt.Sprint("c", i%3), Name: fmt.Sprint("n", i), Content: fmt.Sprint("content ", i),
			Meta: store.Meta{Tags: []string{"t", fmt.Sprint(i)}, Extra: map[string]any{"i": i}}})
	}
	batch = append(batch,
		store.Entry{Category: "keep", Name: "created", Content: "new"},                                   // zero Created: keep the stored one
		store.Entry{Category: "c0", Name: "n0", Content: "dup wins", Meta: store.Meta{Created: created}}) // the later duplicate wins
	if err := s.PutBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	r1 := revision(t, s)
	if r1 <= r0 {
		t.Fatalf("revision %d after a batch, want > %d", r1, r0)
	}
	n := 0
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if e.Category == "c1" && e.Name == "n1" && (e.Content != "content 1" || e.Meta.Tags[1] != "1" || e.Meta.Extra["i"] != 1) {
			t.Fatalf("c1:n1 = %+v", e)
		}
	}
	if n != 2501 {
		t.Fatalf("%d entries after the batch, want 2501", n)
	}
	if e, _ := s.Get(ctx, "keep", "created"); e.Content != "new" || !e.Meta.Created.Equal(old.Meta.Created) {
		t.Fatalf("keep:created = %+v, want content new and created %v kept", e, old.Meta.Created)
	}
	if e, _ := s.Get(ctx, "c0", "n0"); e.Content != "dup wins" || !e.Meta.Created.Equal(created) {
		t.Fatalf("c0:n0 = %+v, want the later duplicate", e)
	}
	cs := changes(t, s, r0)
	if cs.Reset || len(cs.Keys) != 2501 || cs.Rev != r1 {
		t.Fatalf("changes after the batch: reset %v, %d keys, rev %d; want 2501 keys at %d", cs.Reset, len(cs.Keys), cs.Rev, r1)
	}

	// One invalid entry: nothing is written.
	bad := []store.Entry{{Category: "x", Name: "ok", Content: "fine"}, {Category: "x", Name: "a:b", Content: "bad name"}}
	err := s.PutBatch(ctx, bad)
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "entry 1") {
		t.Fatalf("PutBatch with an invalid entry = %v, want ErrInvalid naming entry 1", err)
	}
	if _, err := s.Get(ctx, "x", "ok"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused batch wrote x:ok: %v", err)
	}
	if r := revision(t, s); r != r1 {
		t.Fatalf("a refused batch moved the revision from %d to %d", r1, r)
	}
	if err := s.PutBatch(ctx, nil); err != nil {
		t.Fatalf("empty batch: %v", err)
	}
}

// Rows written behind recall's back that break its rules come out of All
// as errors naming them, and iteration goes on.
func TestAllReportsBadRows(t *testing.T) {
	s := openNew(t)
	admin := adminPool(t)
	mustPut(t, s, "a", "good", "x")
	if _, err := admin.Exec(ctx, `INSERT INTO "`+s.q.schema+`".entries (category, name, content) VALUES ('a', 'bad:name', 'y')`); err != nil {
		t.Fatal(err)
	}
	var good, bad int
	for e, err := range s.All(ctx) {
		if err != nil {
			bad++
			if !strings.Contains(err.Error(), "bad:name") {
				t.Errorf("error %q does not name the row", err)
			}
			continue
		}
		if e.Name == "good" {
			good++
		}
	}
	if good != 1 || bad != 1 {
		t.Fatalf("All yielded %d good and %d errors, want 1 and 1", good, bad)
	}
}

func TestKeyLister(t *testing.T) {
	storetest.RunKeyLister(t, func(t *testing.T) store.Store { return openNew(t) })
}

// A row recall cannot serve (content over the bound, written by hand)
// behaves as a damaged entry does on every backend.
func TestDamagedEntry(t *testing.T) {
	testURL(t)
	storetest.RunDamaged(t, func(t *testing.T) store.Store { return openNew(t) }, func(t *testing.T, s store.Store, k store.Key) {
		tbl := s.(*Store).q.schema
		_, err := adminPool(t).Exec(ctx, `UPDATE "`+tbl+`".entries SET content = repeat('x', $3) WHERE category = $1 AND name = $2`,
			k.Category, k.Name, store.MaxContentBytes+1)
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestSorter(t *testing.T) {
	testURL(t)
	storetest.RunSorter(t, func(t *testing.T) store.Store { return openNew(t) })
}
