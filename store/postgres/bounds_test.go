package postgres

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
)

// rowsBySQL inserts rows behind the store's back, as an administrator
// with psql would.
func rowsBySQL(t *testing.T, s *Store, stmts ...string) {
	t.Helper()
	admin := adminPool(t)
	for _, q := range stmts {
		if _, err := admin.Exec(ctx, strings.ReplaceAll(q, "{T}", s.q.entriesTable)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// allOf reads the whole store: the entries served and the errors met.
func allOf(t *testing.T, s *Store) (map[string]store.Entry, []error) {
	t.Helper()
	got := map[string]store.Entry{}
	var errs []error
	for e, err := range s.All(ctx) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got[e.Key().String()] = e
	}
	return got, errs
}

// Rows over the bounds the other backends keep (content 1 MiB, metadata
// MaxReadMetaBytes) are unreadable entries, reported by name and never
// served, and finding that out does not read them into memory.
func TestRowsOverTheBoundsAreUnreadable(t *testing.T) {
	s := openNew(t)
	mustPut(t, s, "ok", "small", "fine")
	over := store.MaxContentBytes + 1
	rowsBySQL(t, s,
		fmt.Sprintf(`INSERT INTO {T} (category, name, content) VALUES ('big', 'content', repeat('x', %d))`, 48<<20),
		fmt.Sprintf(`INSERT INTO {T} (category, name, content) VALUES ('big', 'just-over', repeat('é', %d))`, over/2+1),
		`INSERT INTO {T} (category, name, content, tags) SELECT 'big', 'tags', 'y', array_agg('t' || i) FROM generate_series(1, 1000000) i`,
		fmt.Sprintf(`INSERT INTO {T} (category, name, content, extra) VALUES ('big', 'extra', 'z', jsonb_build_object('k', repeat('v', %d)))`, MaxReadMetaBytes),
		fmt.Sprintf(`INSERT INTO {T} (category, name, content) VALUES ('ok', 'at-the-bound', repeat('x', %d))`, store.MaxContentBytes),
	)

	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, errs := allOf(t, s)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("reading the store allocated %d MB: the 48 MB row was read", grew>>20)
	}
	if len(got) != 2 || got["ok:small"].Content != "fine" || len(got["ok:at-the-bound"].Content) != store.MaxContentBytes {
		t.Errorf("served %d entries, want ok:small and ok:at-the-bound", len(got))
	}
	names := map[string]bool{}
	for _, err := range errs {
		if !errors.Is(err, store.ErrUnreadable) {
			t.Errorf("error does not wrap store.ErrUnreadable: %v", err)
		}
		if len(err.Error()) > 400 {
			t.Errorf("error is %d bytes long: %.200s", len(err.Error()), err)
		}
		for _, n := range []string{"big:content", "big:just-over", "big:tags", "big:extra"} {
			if strings.Contains(err.Error(), n) {
				names[n] = true
			}
		}
	}
	if len(errs) != 4 || len(names) != 4 {
		t.Fatalf("errors %v; want one per oversized row, naming it", errs)
	}
	for _, k := range []string{"content", "just-over", "tags", "extra"} {
		_, err := s.Get(ctx, "big", k)
		if !errors.Is(err, store.ErrUnreadable) || !strings.Contains(err.Error(), "big:"+k) {
			t.Errorf("get big:%s: %v; want an unreadable entry naming it", k, err)
		}
	}
	if err := s.Update(ctx, "big", "content", func(old store.Entry, found bool) (store.Entry, error) {
		t.Error("the update function saw an oversized row")
		return old, nil
	}); !errors.Is(err, store.ErrUnreadable) {
		t.Errorf("update over an oversized row: %v", err)
	}
	// It stays removable and replaceable.
	if err := s.Delete(ctx, "big", "content"); err != nil {
		t.Errorf("delete of an oversized row: %v", err)
	}
	mustPut(t, s, "big", "tags", "replaced")
	if e, err := s.Get(ctx, "big", "tags"); err != nil || e.Content != "replaced" {
		t.Errorf("after a Put over it: %+v %v", e, err)
	}
}

// Put refuses metadata the store would not serve back.
func TestPutRefusesOversizedMetadata(t *testing.T) {
	s := openNew(t)
	e := store.Entry{Category: "a", Name: "b", Content: "x"}
	e.Meta.Extra = map[string]any{"k": strings.Repeat("v", store.MaxMetaBytes)}
	err := s.Put(ctx, e)
	var fe *store.FieldError
	if !errors.As(err, &fe) || fe.Field != "meta" {
		t.Fatalf("put of %d bytes of metadata: %v; want a FieldError on meta", store.MaxMetaBytes, err)
	}
	e.Meta.Extra = nil
	for i := range store.MaxMetaBytes / 4 {
		e.Meta.Tags = append(e.Meta.Tags, fmt.Sprint(i))
	}
	if err := s.Put(ctx, e); !errors.As(err, &fe) || fe.Field != "meta" {
		t.Fatalf("put of %d tags: %v; want a FieldError on meta", len(e.Meta.Tags), err)
	}
}

// A row whose identity is not in NFC (written with psql from a macOS file
// name, say) is reported by a full read, by Keys and by a Get of the key
// the change feed names, never served, and `recall rm` of the name as
// shown removes it, typed either way.
func TestNonNFCRowsAreReportedAndRemovable(t *testing.T) {
	s := openNew(t)
	nfd, nfc := "cafe\u0301", "caf\u00e9"
	since := revision(t, s)
	rowsBySQL(t, s,
		`INSERT INTO {T} (category, name, content) VALUES ('drinks', 'cafe`+"\u0301"+`', 'ghost one')`,
		`INSERT INTO {T} (category, name, content) VALUES ('cafe`+"\u0301"+`', 'menu', 'ghost two')`,
		`INSERT INTO {T} (category, name, content) VALUES ('drinks', 'tea', 'fine')`,
	)
	got, errs := allOf(t, s)
	if len(got) != 1 || len(errs) != 2 {
		t.Fatalf("all: served %v, errors %v; want drinks:tea served and two errors", got, errs)
	}
	for _, err := range errs {
		if !errors.Is(err, store.ErrUnreadable) || !strings.Contains(err.Error(), "NFC") {
			t.Errorf("all: %v; want an unreadable entry saying the name is not NFC", err)
		}
	}
	var keyErrs int
	for _, err := range s.Keys(ctx, "") {
		if err != nil {
			keyErrs++
			if !errors.Is(err, store.ErrUnreadable) {
				t.Errorf("keys: %v", err)
			}
		}
	}
	if keyErrs != 2 {
		t.Errorf("keys reported %d rows, want 2", keyErrs)
	}
	// The feed names the rows as stored; a Get of those keys says what
	// the full read says.
	cs := changes(t, s, since)
	if len(cs.Keys) != 3 {
		t.Fatalf("changes: %v", cs.Keys)
	}
	for _, k := range cs.Keys {
		_, err := s.Get(ctx, k.Category, k.Name)
		if k.Name == "tea" {
			if err != nil {
				t.Errorf("get %s: %v", k, err)
			}
			continue
		}
		if !errors.Is(err, store.ErrUnreadable) {
			t.Errorf("get of the feed's key %q/%q: %v; want the unreadable entry the full read reports", k.Category, k.Name, err)
		}
	}
	// The NFC spelling is another identity, not the row: not found.
	if _, err := s.Get(ctx, "drinks", nfc); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("get drinks:%s: %v", nfc, err)
	}
	// rm of the name as shown, in either form, removes it.
	if err := s.Delete(ctx, "drinks", nfc); err != nil {
		t.Errorf("delete drinks:%s (typed in NFC): %v", nfc, err)
	}
	if err := s.Delete(ctx, "cafe\u0301", "menu"); err != nil {
		t.Errorf("delete %s:menu (as stored): %v", nfd, err)
	}
	if got, errs := allOf(t, s); len(got) != 1 || len(errs) != 0 {
		t.Errorf("after rm: served %v, errors %v", got, errs)
	}
	if err := s.Delete(ctx, "drinks", nfc); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
}

// Metas answers for each key in order, in one query, without the content:
// a missing entry is ErrNotFound, a row over the bounds unreadable.
func TestMetas(t *testing.T) {
	s := openNew(t)
	e := store.Entry{Category: "a", Name: "one", Content: "x"}
	e.Meta.Tags = []string{"t"}
	e.Meta.Extra = map[string]any{"n": 1}
	if err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	rowsBySQL(t, s, fmt.Sprintf(`INSERT INTO {T} (category, name, content) VALUES ('a', 'big', repeat('x', %d))`, 8<<20))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := s.Metas(ctx, []store.Key{{Category: "a", Name: "big"}, {Category: "a", Name: "missing"}, {Category: "a", Name: "one"}, {Category: "a", Name: "bad:name"}})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("Metas allocated %d MB: the content was read", grew>>20)
	}
	if len(got) != 4 || !errors.Is(got[0].Err, store.ErrUnreadable) || !errors.Is(got[1].Err, store.ErrNotFound) ||
		got[2].Err != nil || fmt.Sprint(got[2].Meta.Tags, got[2].Meta.Extra) != "[t] map[n:1]" || got[2].Meta.Updated.IsZero() ||
		!errors.Is(got[3].Err, store.ErrInvalid) {
		t.Fatalf("metas: %+v", got)
	}
}
