package backup

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
	pgstore "github.com/recallhq/recall/store/postgres"
)

var ctx = context.Background()

// sample is a store's worth of entries with every kind of field: nested
// categories, names with punctuation and CJK, tags, times with
// microseconds and zones, and metadata keys of every JSON kind. (Times
// are to the microsecond, the precision of PostgreSQL's timestamptz;
// TestRoundTripNanoseconds covers the backends that keep nanoseconds.)
func sample() []store.Entry {
	zone := time.FixedZone("UTC+8", 8*3600)
	return []store.Entry{
		{Category: "trips", Name: "三亚之行", Content: "想去海边玩 [[people:阿杰]]\n\n第二段。", Meta: store.Meta{
			Tags:    []string{"海边", "travel"},
			Created: time.Date(2024, 3, 2, 9, 15, 0, 123456000, zone),
			Updated: time.Date(2024, 3, 5, 21, 0, 0, 0, zone),
			Extra:   map[string]any{"mood": "sunny", "stars": int64(5), "rating": 4.5, "done": true},
		}},
		{Category: "trips/2024/spring", Name: "Kyoto Trip", Content: "Temples.", Meta: store.Meta{
			Created: time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC),
			Updated: time.Date(2024, 4, 2, 12, 30, 0, 0, time.UTC),
			Extra:   map[string]any{"aliases": []any{"Kyoto", "京都"}, "place": map[string]any{"lat": 35.0116, "city": "Kyoto"}},
		}},
		{Category: "people", Name: "Tom's notes", Content: "C++ & Q&A <b>", Meta: store.Meta{
			Created: time.Date(2023, 1, 1, 8, 0, 0, 0, time.UTC),
			Updated: time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC),
		}},
		{Category: "people", Name: "阿杰", Content: "", Meta: store.Meta{
			Created: time.Date(2022, 2, 2, 2, 2, 2, 0, time.UTC),
			Updated: time.Date(2022, 2, 2, 2, 2, 2, 0, time.UTC),
		}},
		{Category: "work", Name: "Budget (2025)", Content: "line one\nline two\n", Meta: store.Meta{
			Tags:    []string{"money"},
			Created: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
			Updated: time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC),
		}},
	}
}

// postgresStore opens a store in a schema of its own on the test server,
// or skips (fails in CI) without one.
func postgresStore(t *testing.T) store.Store {
	t.Helper()
	base := os.Getenv("RECALL_TEST_POSTGRES_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("RECALL_TEST_POSTGRES_URL is not set (CI=true: .ci/run starts a server)")
		}
		t.Skip(`no PostgreSQL to test against: set RECALL_TEST_POSTGRES_URL (eval "$(bash .ci/postgres.sh start)")`)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "backup_" + hex.EncodeToString(b[:])
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("schema", schema)
	u.RawQuery = q.Encode()
	st, err := pgstore.Open(ctx, u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		st.Close()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Log(err)
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	})
	return st
}

func folderStore(t *testing.T) *fsstore.Store {
	t.Helper()
	st, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func boltStore(t *testing.T) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// exportJSONL exports st and fails the test on any error or unreadable
// entry.
func exportJSONL(t *testing.T, st store.Store) []byte {
	t.Helper()
	var buf bytes.Buffer
	rep, err := WriteJSONL(ctx, st, &buf, Options{})
	if err != nil || len(rep.Unreadable) > 0 {
		t.Fatalf("export: %v %q", err, rep.Unreadable)
	}
	return buf.Bytes()
}

// importJSONL imports data into st as `recall import` does.
func importJSONL(t *testing.T, data []byte, st store.Store) importer.Report {
	t.Helper()
	plan, err := importer.ReadJSONL(ctx, bytes.NewReader(data), "export.jsonl")
	if err != nil || len(plan.Skipped) > 0 {
		t.Fatalf("read: %v %v", err, plan.Skipped)
	}
	rep, err := plan.Write(ctx, st, importer.WriteOptions{})
	if err != nil || len(rep.Rejected) > 0 {
		t.Fatalf("import: %v %v", err, rep.Rejected)
	}
	return rep
}

// entriesOf reads st's entries in identity order.
func entriesOf(t *testing.T, st store.Store) []store.Entry {
	t.Helper()
	var out []store.Entry
	for e, err := range Sorted(ctx, st) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// sameEntries fails unless got and want hold the same entries, every
// field equal, times as the same instants to the nanosecond.
func sameEntries(t *testing.T, label string, got, want []store.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d entries, want %d", label, len(got), len(want))
	}
	for i := range want {
		if !importer.Equal(got[i], want[i]) {
			t.Errorf("%s: entry %d\n got %+v\nwant %+v", label, i, got[i], want[i])
		}
	}
}

// The round trip of issue 27: export, then import into an empty store of
// another backend, gives an identical store, every field and timestamp
// included: folder → bolt → PostgreSQL → folder. Every export after the
// first is byte-identical to the one before (the first may differ in the
// zones of times only: a folder store keeps the zone its front matter was
// written in, bolt and PostgreSQL keep the instant, in UTC), and importing
// an export again writes nothing.
func TestRoundTripFolderBoltPostgresFolder(t *testing.T) {
	want := sample()
	slices.SortFunc(want, func(a, b store.Entry) int { return compareKeys(a.Key(), b.Key()) })
	first := folderStore(t)
	if err := first.PutBatch(ctx, sample()); err != nil {
		t.Fatal(err)
	}
	sameEntries(t, "folder", entriesOf(t, first), want)
	data := exportJSONL(t, first)
	if n := bytes.Count(data, []byte("\n")); n != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", n, len(want), data)
	}
	chain := []struct {
		name string
		st   store.Store
	}{{"bolt", boltStore(t)}, {"postgres", postgresStore(t)}, {"folder again", folderStore(t)}}
	for i, c := range chain {
		rep := importJSONL(t, data, c.st)
		if rep.Added != len(want) {
			t.Errorf("%s: added %d, want %d", c.name, rep.Added, len(want))
		}
		sameEntries(t, c.name, entriesOf(t, c.st), want)
		again := exportJSONL(t, c.st)
		if i > 0 && !bytes.Equal(again, data) {
			t.Errorf("%s: export differs from the first:\n%s\nwant\n%s", c.name, again, data)
		}
		rev, _ := c.st.Revision(ctx)
		if rep := importJSONL(t, again, c.st); rep.Unchanged != len(want) || rep.Imported() != 0 {
			t.Errorf("%s: re-import %+v, want all unchanged", c.name, rep)
		}
		if rev2, _ := c.st.Revision(ctx); rev2 != rev {
			t.Errorf("%s: re-import moved the revision %d -> %d", c.name, rev, rev2)
		}
		data = again
	}
}

// Folder and bolt stores keep times to the nanosecond, and so does the
// JSONL between them. (PostgreSQL rounds to the microsecond: see the
// README's Export and backup.)
func TestRoundTripNanoseconds(t *testing.T) {
	at := time.Date(2024, 3, 2, 9, 15, 0, 123456789, time.UTC)
	e := store.Entry{Category: "c", Name: "n", Content: "x", Meta: store.Meta{Created: at, Updated: at.Add(time.Nanosecond)}}
	first := folderStore(t)
	if err := first.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	data := exportJSONL(t, first)
	for name, st := range map[string]store.Store{"bolt": boltStore(t), "folder": folderStore(t)} {
		importJSONL(t, data, st)
		sameEntries(t, name, entriesOf(t, st), []store.Entry{e})
	}
}

// Sorted yields identity order (bytewise), whatever the backend's walk:
// "a" < "a b" < "a-b" < "a/b" although a folder walk meets a/b first.
func TestSortedIdentityOrder(t *testing.T) {
	var in []store.Entry
	for _, c := range []string{"a/b", "a-b", "a b", "a", "B", "é"} {
		for _, n := range []string{"z", "Z", "a b", "a"} {
			in = append(in, store.Entry{Category: c, Name: n, Content: c + ":" + n})
		}
	}
	want := slices.Clone(in)
	slices.SortFunc(want, func(a, b store.Entry) int { return compareKeys(a.Key(), b.Key()) })
	for name, st := range map[string]store.Store{"folder": folderStore(t), "bolt": boltStore(t)} {
		if err := st.(store.Batcher).PutBatch(ctx, in); err != nil {
			t.Fatal(err)
		}
		var got []string
		for e, err := range Sorted(ctx, st) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, e.Key().String())
		}
		var w []string
		for _, e := range want {
			w = append(w, e.Key().String())
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: order\n%q\nwant\n%q", name, got, w)
		}
	}
}

func ExampleWriteJSONL() {
	st, err := boltstore.Open(filepath.Join(os.TempDir(), fmt.Sprintf("example-%d.db", time.Now().UnixNano())), nil)
	if err != nil {
		panic(err)
	}
	defer os.Remove(st.Path())
	defer st.Close()
	at := time.Date(2024, 3, 2, 9, 15, 0, 0, time.UTC)
	_ = st.Put(ctx, store.Entry{Category: "trips", Name: "三亚之行", Content: "想去海边玩",
		Meta: store.Meta{Tags: []string{"海边"}, Created: at, Updated: at}})
	_, _ = WriteJSONL(ctx, st, os.Stdout, Options{})
	// Output:
	// {"category":"trips","name":"三亚之行","content":"想去海边玩","meta":{"created":"2024-03-02T09:15:00Z","tags":["海边"],"updated":"2024-03-02T09:15:00Z"}}
}

// Open reads a JSONL backup by its name and anything else through the
// opener it is given; the entries are the same either way.
func TestOpen(t *testing.T) {
	src := boltStore(t)
	if err := src.Put(ctx, store.Entry{Category: "c", Name: "a", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(jsonl, exportJSONL(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	opened := ""
	open := func(_ context.Context, name string) (store.Store, error) { opened = name; return src, nil }
	for _, name := range []string{jsonl, "postgres://h/db"} {
		entries, done, err := Open(ctx, name, open)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for e, err := range entries {
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, e.Key().String())
		}
		if !slices.Equal(keys, []string{"c:a"}) {
			t.Errorf("%s: %v", name, keys)
		}
		if name != jsonl {
			done() // closes src
		}
	}
	if opened != "postgres://h/db" {
		t.Errorf("the opener was given %q", opened)
	}
	if _, _, err := Open(ctx, filepath.Join(dir, "missing.jsonl"), open); err == nil || !strings.HasPrefix(err.Error(), "restore: ") {
		t.Errorf("missing file: %v", err)
	}
	if _, _, err := Open(ctx, "x.db", func(context.Context, string) (store.Store, error) { return nil, store.ErrLocked }); !errors.Is(err, store.ErrLocked) {
		t.Errorf("opener's error: %v", err)
	}
}
