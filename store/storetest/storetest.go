package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// Open returns a new, empty store for one subtest. The suite closes it.
type Open func(t *testing.T) store.Store

// Run runs every conformance test against stores made by open.
func Run(t *testing.T, open Open) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(*testing.T, store.Store)
	}{
		{"CRUD", testCRUD},
		{"AddIsUpdate", testAddIsUpdate},
		{"Revision", testRevision},
		{"Invalid", testInvalid},
		{"Unicode", testUnicode},
		{"Meta", testMeta},
		{"AllExactlyOnce", testAllExactlyOnce},
		{"WriteDuringAll", testWriteDuringAll},
		{"Concurrent", testConcurrent},
		{"Update", testUpdate},
		{"UpdateConcurrent", testUpdateConcurrent},
		{"Closed", testClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			tc.fn(t, s)
		})
	}
}

var ctx = context.Background()

func mustPut(t *testing.T, s store.Store, e store.Entry) {
	t.Helper()
	if err := s.Put(ctx, e); err != nil {
		t.Fatalf("Put(%s:%s): %v", e.Category, e.Name, err)
	}
}

func rev(t *testing.T, s store.Store) uint64 {
	t.Helper()
	r, err := s.Revision(ctx)
	if err != nil {
		t.Fatalf("Revision: %v", err)
	}
	return r
}

func collect(t *testing.T, s store.Store) map[store.Key]store.Entry {
	t.Helper()
	got := map[store.Key]store.Entry{}
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		if _, dup := got[e.Key()]; dup {
			t.Fatalf("All yielded %s twice", e.Key())
		}
		got[e.Key()] = e
	}
	return got
}

func testCRUD(t *testing.T, s store.Store) {
	if _, err := s.Get(ctx, "people", "alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get on empty store: got %v, want ErrNotFound", err)
	}
	mustPut(t, s, store.Entry{Category: "people", Name: "alice", Content: "Alice likes the sea."})
	e, err := s.Get(ctx, "people", "alice")
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if e.Category != "people" || e.Name != "alice" || e.Content != "Alice likes the sea." {
		t.Fatalf("Get returned %+v", e)
	}
	if err := s.Delete(ctx, "people", "alice"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Get(ctx, "people", "alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get after Delete: got %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "people", "alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second Delete: got %v, want ErrNotFound", err)
	}
	// Content edge cases survive a round trip byte for byte.
	for i, c := range []string{
		"",
		"---\nnot: front matter\n---\nbody",
		"line one\r\nline two\n\n\n",
		"  leading and trailing space  ",
		"tab\tand \x7f rune",
		strings.Repeat("长", 1000),
	} {
		name := fmt.Sprintf("edge-%d", i)
		mustPut(t, s, store.Entry{Category: "edge", Name: name, Content: c})
		got, err := s.Get(ctx, "edge", name)
		if err != nil {
			t.Fatalf("Get %s: %v", name, err)
		}
		if got.Content != c {
			t.Errorf("content %d: got %q, want %q", i, got.Content, c)
		}
	}
}

func testAddIsUpdate(t *testing.T, s store.Store) {
	mustPut(t, s, store.Entry{Category: "prefs", Name: "coffee", Content: "black"})
	mustPut(t, s, store.Entry{Category: "prefs", Name: "coffee", Content: "flat white"})
	e, err := s.Get(ctx, "prefs", "coffee")
	if err != nil {
		t.Fatal(err)
	}
	if e.Content != "flat white" {
		t.Fatalf("after second Put content = %q, want %q", e.Content, "flat white")
	}
	if n := len(collect(t, s)); n != 1 {
		t.Fatalf("store holds %d entries after two Puts of one identity, want 1", n)
	}
}

func testRevision(t *testing.T, s store.Store) {
	r0 := rev(t, s)
	mustPut(t, s, store.Entry{Category: "a", Name: "b", Content: "c"})
	r1 := rev(t, s)
	if r1 <= r0 {
		t.Fatalf("revision after Put = %d, want > %d", r1, r0)
	}
	// Reads never raise it.
	_, _ = s.Get(ctx, "a", "b")
	_, _ = s.Get(ctx, "a", "missing")
	collect(t, s)
	if r := rev(t, s); r != r1 {
		t.Fatalf("revision after reads = %d, want %d", r, r1)
	}
	mustPut(t, s, store.Entry{Category: "a", Name: "b", Content: "c2"})
	r2 := rev(t, s)
	if r2 <= r1 {
		t.Fatalf("revision after update = %d, want > %d", r2, r1)
	}
	if err := s.Delete(ctx, "a", "b"); err != nil {
		t.Fatal(err)
	}
	r3 := rev(t, s)
	if r3 <= r2 {
		t.Fatalf("revision after Delete = %d, want > %d", r3, r2)
	}
	// Failed writes do not count as writes.
	_ = s.Put(ctx, store.Entry{Category: "", Name: "x", Content: "y"})
	_ = s.Delete(ctx, "a", "b")
	if r := rev(t, s); r != r3 {
		t.Fatalf("revision after failed writes = %d, want %d", r, r3)
	}
}

func testInvalid(t *testing.T, s store.Store) {
	long := strings.Repeat("x", store.MaxNameBytes+1)
	cases := []struct {
		desc  string
		e     store.Entry
		field string
	}{
		{"empty category", store.Entry{Category: "", Name: "n", Content: "c"}, "category"},
		{"empty name", store.Entry{Category: "c", Name: "", Content: "c"}, "name"},
		{"slash in name", store.Entry{Category: "c", Name: "a/b", Content: "c"}, "name"},
		{"backslash in category", store.Entry{Category: `a\b`, Name: "n", Content: "c"}, "category"},
		{"colon in name", store.Entry{Category: "c", Name: "a:b", Content: "c"}, "name"},
		{"brackets in name", store.Entry{Category: "c", Name: "[x]", Content: "c"}, "name"},
		{"pipe in name", store.Entry{Category: "c", Name: "a|b", Content: "c"}, "name"},
		{"NUL in name", store.Entry{Category: "c", Name: "a\x00b", Content: "c"}, "name"},
		{"newline in category", store.Entry{Category: "a\nb", Name: "n", Content: "c"}, "category"},
		{"dot name", store.Entry{Category: "c", Name: ".", Content: "c"}, "name"},
		{"dotdot category", store.Entry{Category: "..", Name: "n", Content: "c"}, "category"},
		{"leading dot", store.Entry{Category: "c", Name: ".hidden", Content: "c"}, "name"},
		{"too long name", store.Entry{Category: "c", Name: long, Content: "c"}, "name"},
		{"invalid UTF-8 name", store.Entry{Category: "c", Name: "a\xffb", Content: "c"}, "name"},
		{"invalid UTF-8 content", store.Entry{Category: "c", Name: "n", Content: "ok\xc3\x28"}, "content"},
		{"content too large", store.Entry{Category: "c", Name: "n", Content: strings.Repeat("a", store.MaxContentBytes+1)}, "content"},
	}
	r0 := rev(t, s)
	for _, tc := range cases {
		err := s.Put(ctx, tc.e)
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: Put error = %v, want ErrInvalid", tc.desc, err)
			continue
		}
		var fe *store.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: error %q does not name field %q", tc.desc, err, tc.field)
		}
		if !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: message %q does not name field %q", tc.desc, err, tc.field)
		}
	}
	if n := len(collect(t, s)); n != 0 {
		t.Fatalf("invalid Puts wrote %d entries", n)
	}
	if r := rev(t, s); r != r0 {
		t.Fatalf("invalid Puts moved the revision from %d to %d", r0, r)
	}
	// Get and Delete reject invalid keys too rather than touching odd paths.
	if _, err := s.Get(ctx, "..", "x"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Get(.., x) = %v, want ErrInvalid", err)
	}
	if err := s.Delete(ctx, "c", "../x"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Delete(c, ../x) = %v, want ErrInvalid", err)
	}
	// Allowed punctuation passes.
	mustPut(t, s, store.Entry{Category: "c-1_x", Name: "v1.2 notes_final-draft", Content: "ok"})
}

func testUnicode(t *testing.T, s store.Store) {
	entries := []store.Entry{
		{Category: "旅行", Name: "三亚之行", Content: "想去海边玩，三亚的海很蓝。"},
		{Category: "people", Name: "Zoë Ångström", Content: "café naïve"},
		{Category: "日本", Name: "コーヒー", Content: "コーヒーが好き"},
		{Category: "한국", Name: "서울 여행", Content: "서울"},
	}
	for _, e := range entries {
		mustPut(t, s, e)
	}
	for _, want := range entries {
		got, err := s.Get(ctx, want.Category, want.Name)
		if err != nil {
			t.Fatalf("Get %s: %v", want.Key(), err)
		}
		if got.Content != want.Content {
			t.Errorf("%s: content %q, want %q", want.Key(), got.Content, want.Content)
		}
	}
	all := collect(t, s)
	for _, want := range entries {
		if _, ok := all[want.Key()]; !ok {
			t.Errorf("All did not yield %s", want.Key())
		}
	}
}

func testMeta(t *testing.T, s store.Store) {
	created := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	e := store.Entry{
		Category: "trips", Name: "sanya", Content: "beach",
		Meta: store.Meta{
			Tags:    []string{"travel", "海边"},
			Created: created,
			Extra:   map[string]any{"mood": "sunny", "rating": 5},
		},
	}
	mustPut(t, s, e)
	got, err := s.Get(ctx, "trips", "sanya")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Meta.Tags, e.Meta.Tags) {
		t.Errorf("tags = %v, want %v", got.Meta.Tags, e.Meta.Tags)
	}
	if !got.Meta.Created.Equal(created) {
		t.Errorf("created = %v, want %v", got.Meta.Created, created)
	}
	if got.Meta.Updated.IsZero() {
		t.Errorf("updated not set by Put")
	}
	if fmt.Sprint(got.Meta.Extra["mood"]) != "sunny" || fmt.Sprint(got.Meta.Extra["rating"]) != "5" {
		t.Errorf("extra = %v, want mood=sunny rating=5", got.Meta.Extra)
	}
	// An update without Created keeps the original creation time.
	mustPut(t, s, store.Entry{Category: "trips", Name: "sanya", Content: "beach again"})
	got, err = s.Get(ctx, "trips", "sanya")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Meta.Created.Equal(created) {
		t.Errorf("created after update = %v, want %v kept", got.Meta.Created, created)
	}
	// A Put with no meta gets a creation time.
	mustPut(t, s, store.Entry{Category: "trips", Name: "plain", Content: "x"})
	got, err = s.Get(ctx, "trips", "plain")
	if err != nil {
		t.Fatal(err)
	}
	if got.Meta.Created.IsZero() {
		t.Errorf("Put did not set created")
	}
}

func testAllExactlyOnce(t *testing.T, s store.Store) {
	want := map[store.Key]string{}
	for i := range 300 {
		e := store.Entry{Category: fmt.Sprintf("cat%d", i%7), Name: fmt.Sprintf("n%03d", i), Content: fmt.Sprintf("content %d", i)}
		mustPut(t, s, e)
		want[e.Key()] = e.Content
	}
	// Delete a few so iteration must skip them.
	for i := 0; i < 300; i += 10 {
		k := store.Key{Category: fmt.Sprintf("cat%d", i%7), Name: fmt.Sprintf("n%03d", i)}
		if err := s.Delete(ctx, k.Category, k.Name); err != nil {
			t.Fatal(err)
		}
		delete(want, k)
	}
	got := collect(t, s)
	if len(got) != len(want) {
		t.Fatalf("All yielded %d entries, want %d", len(got), len(want))
	}
	for k, c := range want {
		if got[k].Content != c {
			t.Errorf("%s: content %q, want %q", k, got[k].Content, c)
		}
	}
	// Breaking out of the loop early is allowed and leaves the store usable.
	for range s.All(ctx) {
		break
	}
	mustPut(t, s, store.Entry{Category: "after", Name: "break", Content: "ok"})
}

// The loop body may write to the store (for example an importer that
// migrates entries); this must not deadlock.
func testWriteDuringAll(t *testing.T, s store.Store) {
	for i := range 50 {
		mustPut(t, s, store.Entry{Category: "src", Name: fmt.Sprintf("e%d", i), Content: "x"})
	}
	done := make(chan error, 1)
	go func() {
		for e, err := range s.All(ctx) {
			if err != nil {
				done <- err
				return
			}
			if e.Category == "src" {
				if err := s.Put(ctx, store.Entry{Category: "dst", Name: e.Name, Content: "y"}); err != nil {
					done <- err
					return
				}
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("writing from inside All deadlocked")
	}
	n := 0
	for k := range collect(t, s) {
		if k.Category == "dst" {
			n++
		}
	}
	if n != 50 {
		t.Fatalf("copied %d entries, want 50", n)
	}
}

// Concurrent readers and writers: readers must only ever see complete
// contents that some writer wrote. Run under -race.
func testConcurrent(t *testing.T, s store.Store) {
	const writers, readers, rounds = 4, 4, 40
	valid := func(c string) bool {
		// Every content is "w<writer>-r<round>:" repeated; a torn read breaks the repetition.
		if c == "" {
			return false
		}
		unit := c[:strings.IndexByte(c, ':')+1]
		return unit != "" && strings.Repeat(unit, len(c)/len(unit)) == c && len(c)%len(unit) == 0
	}
	var wg sync.WaitGroup
	errc := make(chan error, writers+readers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				unit := fmt.Sprintf("w%d-r%d:", w, r)
				e := store.Entry{Category: "race", Name: fmt.Sprintf("k%d", r%5), Content: strings.Repeat(unit, 200+r)}
				if err := s.Put(ctx, e); err != nil {
					errc <- err
					return
				}
				if r%7 == 6 {
					if err := s.Delete(ctx, "race", fmt.Sprintf("k%d", (r+1)%5)); err != nil && !errors.Is(err, store.ErrNotFound) {
						errc <- err
						return
					}
				}
			}
		}()
	}
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				e, err := s.Get(ctx, "race", fmt.Sprintf("k%d", r%5))
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					errc <- err
					return
				}
				if err == nil && !valid(e.Content) {
					errc <- fmt.Errorf("torn read: %.60q", e.Content)
					return
				}
				for e, err := range s.All(ctx) {
					if err != nil {
						errc <- err
						return
					}
					if !valid(e.Content) {
						errc <- fmt.Errorf("torn read in All: %.60q", e.Content)
						return
					}
				}
				if _, err := s.Revision(ctx); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}

func testClosed(t *testing.T, s store.Store) {
	mustPut(t, s, store.Entry{Category: "a", Name: "b", Content: "c"})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	checks := map[string]error{}
	_, checks["Get"] = s.Get(ctx, "a", "b")
	checks["Put"] = s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "d"})
	checks["Delete"] = s.Delete(ctx, "a", "b")
	_, checks["Revision"] = s.Revision(ctx)
	var allErr error
	for _, err := range s.All(ctx) {
		allErr = err
		break
	}
	checks["All"] = allErr
	names := make([]string, 0, len(checks))
	for n := range checks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !errors.Is(checks[n], store.ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", n, checks[n])
		}
	}
}
