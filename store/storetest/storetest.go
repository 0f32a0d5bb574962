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
		{"Names", testNames},
		{"NestedCategories", testNestedCategories},
		{"NFC", testNFC},
		{"Meta", testMeta},
		{"Date", testDate},
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
		{"trailing dot", store.Entry{Category: "c", Name: "x.", Content: "c"}, "name"},
		{"trailing space", store.Entry{Category: "c ", Name: "x", Content: "c"}, "category"},
		{"device name", store.Entry{Category: "c", Name: "CON", Content: "c"}, "name"},
		{"device name with extension", store.Entry{Category: "c", Name: "nul.txt", Content: "c"}, "name"},
		{"device name as category level", store.Entry{Category: "a/lpt1", Name: "x", Content: "c"}, "category"},
		{"empty category level", store.Entry{Category: "a//b", Name: "x", Content: "c"}, "category"},
		{"leading slash", store.Entry{Category: "/a", Name: "x", Content: "c"}, "category"},
		{"trailing slash", store.Entry{Category: "a/", Name: "x", Content: "c"}, "category"},
		{"dotdot category level", store.Entry{Category: "a/../b", Name: "x", Content: "c"}, "category"},
		{"hidden category level", store.Entry{Category: "a/.obsidian", Name: "x", Content: "c"}, "category"},
		{"category too deep", store.Entry{Category: "1/2/3/4/5/6/7/8/9", Name: "x", Content: "c"}, "category"},
		{"invalid UTF-8 name", store.Entry{Category: "c", Name: "a\xffb", Content: "c"}, "name"},
		{"invalid UTF-8 content", store.Entry{Category: "c", Name: "n", Content: "ok\xc3\x28"}, "content"},
		{"content too large", store.Entry{Category: "c", Name: "n", Content: strings.Repeat("a", store.MaxContentBytes+1)}, "content"},
	}
	for _, r := range `/\:[]|#^<>"?*` + "\x00\x01\x1f\x7f\u0085" {
		cases = append(cases,
			struct {
				desc  string
				e     store.Entry
				field string
			}{fmt.Sprintf("%q in name", r), store.Entry{Category: "c", Name: "a" + string(r) + "b", Content: "c"}, "name"})
		if r != '/' {
			cases = append(cases,
				struct {
					desc  string
					e     store.Entry
					field string
				}{fmt.Sprintf("%q in category", r), store.Entry{Category: "a/b" + string(r), Name: "n", Content: "c"}, "category"})
		}
	}
	for _, d := range []string{"CON", "prn", "Aux", "NUL", "COM1", "com9", "LPT1", "lpt9", "con.md", "AUX.tar.gz"} {
		cases = append(cases,
			struct {
				desc  string
				e     store.Entry
				field string
			}{"device name " + d, store.Entry{Category: "c", Name: d, Content: "c"}, "name"})
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

// testNames: any printable character of any script except the few that
// break links or file names (SPEC §1).
func testNames(t *testing.T, s store.Store) {
	names := []string{
		"Budget (2025)", "Tom's notes", "Q&A", "C++", "Hello, world", "50% done",
		"semi;colon", "wow!", "~tilde", "a+b", "emoji 🎉", "👨‍👩‍👧 family", "三亚之行",
		"v1.2 notes_final-draft", " leading space", "con_sole", "COM10", "x.md",
		"{braces} $dollar @at =eq `tick`", strings.Repeat("名", 66),
	}
	cats := []string{"punct (1)", "Q&A", "旅行", "emoji 🎉"}
	var want []store.Entry
	for i, n := range names {
		e := store.Entry{Category: cats[i%len(cats)], Name: n, Content: "content of " + n}
		mustPut(t, s, e)
		want = append(want, e)
	}
	all := collect(t, s)
	if len(all) != len(want) {
		t.Errorf("All yielded %d entries, want %d", len(all), len(want))
	}
	for _, w := range want {
		got, err := s.Get(ctx, w.Category, w.Name)
		if err != nil {
			t.Errorf("Get %s: %v", w.Key(), err)
			continue
		}
		if got.Content != w.Content || got.Key() != w.Key() {
			t.Errorf("Get %s = %s %q", w.Key(), got.Key(), got.Content)
		}
		if a, ok := all[w.Key()]; !ok || a.Content != w.Content {
			t.Errorf("All: %s missing or wrong (%q)", w.Key(), a.Content)
		}
	}
	for _, w := range want {
		if err := s.Delete(ctx, w.Category, w.Name); err != nil {
			t.Errorf("Delete %s: %v", w.Key(), err)
		}
	}
	if n := len(collect(t, s)); n != 0 {
		t.Errorf("%d entries left after deleting all", n)
	}
}

// testNestedCategories: a category is a hierarchy of up to 8 levels; a
// category and its sub-categories are distinct identities, and an entry
// may share its name with a sub-category.
func testNestedCategories(t *testing.T, s store.Store) {
	entries := []store.Entry{
		{Category: "trips", Name: "index", Content: "all trips"},
		{Category: "trips/2024", Name: "index", Content: "trips of 2024"},
		{Category: "trips/2024/spring", Name: "Kyoto Trip", Content: "temples"},
		{Category: "trips", Name: "2024", Content: "an entry named like the sub-category"},
		{Category: "trips-old", Name: "index", Content: "sorts between trips and trips/…"},
		{Category: "1/2/3/4/5/6/7/8", Name: "deep", Content: "eight levels"},
		{Category: "项目/港口", Name: "预算 (2025)", Content: "nested Chinese"},
	}
	for _, e := range entries {
		mustPut(t, s, e)
	}
	all := collect(t, s)
	if len(all) != len(entries) {
		t.Errorf("All yielded %d entries, want %d: %v", len(all), len(entries), all)
	}
	for _, w := range entries {
		got, err := s.Get(ctx, w.Category, w.Name)
		if err != nil {
			t.Errorf("Get %s: %v", w.Key(), err)
			continue
		}
		if got.Content != w.Content {
			t.Errorf("Get %s content %q, want %q", w.Key(), got.Content, w.Content)
		}
		if all[w.Key()].Content != w.Content {
			t.Errorf("All: %s content %q, want %q", w.Key(), all[w.Key()].Content, w.Content)
		}
	}
	if _, err := s.Get(ctx, "trips/2024", "spring"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get of a sub-category as an entry = %v, want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, "trips/2024/spring/Kyoto Trip", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get below an entry = %v, want ErrNotFound", err)
	}
	// Deleting the parent's entries leaves the children alone, and back.
	if err := s.Delete(ctx, "trips", "index"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "trips", "2024"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "trips/2024/spring", "Kyoto Trip"); err != nil {
		t.Errorf("child lost after deleting the parent's entries: %v", err)
	}
	if err := s.Delete(ctx, "trips/2024/spring", "Kyoto Trip"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "trips/2024", "index"); err != nil {
		t.Fatal(err)
	}
	got := collect(t, s)
	if len(got) != 3 {
		t.Errorf("after deletes All yielded %v, want 3 entries", got)
	}
	mustPut(t, s, store.Entry{Category: "trips/2024/spring", Name: "again", Content: "x"})
	if _, err := s.Get(ctx, "trips/2024/spring", "again"); err != nil {
		t.Errorf("Put into a re-created nested category: %v", err)
	}
}

// testNFC: identities are NFC; the same name typed in NFD is the same
// identity (SPEC §1).
func testNFC(t *testing.T, s store.Store) {
	nfdCat, nfdName := "cafés", "Zoë Ångström"
	nfcCat, nfcName := "cafés", "Zoë Ångström"
	mustPut(t, s, store.Entry{Category: nfdCat, Name: nfdName, Content: "first, é"})
	for _, k := range [][2]string{{nfdCat, nfdName}, {nfcCat, nfcName}, {nfcCat, nfdName}} {
		got, err := s.Get(ctx, k[0], k[1])
		if err != nil {
			t.Errorf("Get(%q, %q): %v", k[0], k[1], err)
			continue
		}
		if got.Category != nfcCat || got.Name != nfcName {
			t.Errorf("Get returned identity %q:%q, want the NFC %q:%q", got.Category, got.Name, nfcCat, nfcName)
		}
		if got.Content != "first, é" {
			t.Errorf("content was normalised: %q", got.Content)
		}
	}
	mustPut(t, s, store.Entry{Category: nfcCat, Name: nfcName, Content: "second"})
	all := collect(t, s)
	if len(all) != 1 {
		t.Fatalf("NFD and NFC Puts made %d entries, want 1: %v", len(all), all)
	}
	if e, ok := all[store.Key{Category: nfcCat, Name: nfcName}]; !ok || e.Content != "second" {
		t.Errorf("All yielded %v, want the NFC identity with the second content", all)
	}
	err := s.Update(ctx, nfdCat, nfdName, func(old store.Entry, found bool) (store.Entry, error) {
		if !found || old.Content != "second" {
			return old, fmt.Errorf("update saw found=%v content %q", found, old.Content)
		}
		old.Content = "third"
		return old, nil
	})
	if err != nil {
		t.Errorf("Update through the NFD spelling: %v", err)
	}
	if err := s.Delete(ctx, nfdCat, nfdName); err != nil {
		t.Errorf("Delete through the NFD spelling: %v", err)
	}
	if n := len(collect(t, s)); n != 0 {
		t.Errorf("%d entries left after Delete", n)
	}
}
