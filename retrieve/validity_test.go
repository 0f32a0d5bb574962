package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// vEntry is an entry of the validity tests: content always holds "flat",
// so the query "flat" finds every entry.
type vEntry struct {
	key        string // category:name
	supersedes []string
	expires    string
	updated    time.Time
	content    string
}

func (v vEntry) entry() store.Entry {
	c, n, _ := strings.Cut(v.key, ":")
	e := store.Entry{Category: c, Name: n, Content: "flat " + v.content}
	e.Meta.Updated = v.updated
	if v.supersedes != nil || v.expires != "" {
		e.Meta.Extra = map[string]any{}
	}
	if v.supersedes != nil {
		links := make([]any, len(v.supersedes))
		for i, l := range v.supersedes {
			links[i] = l
		}
		e.Meta.Extra[store.MetaSupersedes] = links
	}
	if v.expires != "" {
		e.Meta.Extra[store.MetaExpires] = v.expires
	}
	return e
}

// openStores are the backends the validity tests run on: a real folder
// and a real bbolt file.
func openStores(t *testing.T) map[string]store.Store {
	t.Helper()
	f, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close(); b.Close() })
	return map[string]store.Store{"fs": f, "bolt": b}
}

func putAll(t *testing.T, eng *Engine, es ...vEntry) {
	t.Helper()
	for _, v := range es {
		if err := eng.Put(context.Background(), v.entry()); err != nil {
			t.Fatal(err)
		}
	}
}

// visible is what "flat" finds, as "key" or "key>by" (superseded by),
// "key!" (expired), "key<a,b" (supersedes), in rank order.
func visible(t *testing.T, eng *Engine, req Request) []string {
	t.Helper()
	if req.Query == "" {
		req.Query = "flat"
	}
	req.Limit, req.Budget, req.NoLinks = 100, Unlimited, true
	res, err := eng.Retrieve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range res.Items {
		out = append(out, evidence(it))
	}
	slices.Sort(out)
	return out
}

func evidence(it Item) string {
	s := it.Category + ":" + it.Name
	if it.SupersededBy != "" {
		s += ">" + it.SupersededBy
	}
	if it.Expired {
		s += "!"
	}
	if len(it.Supersedes) > 0 {
		s += "<" + strings.Join(it.Supersedes, ",")
	}
	return s
}

func key(c, n string) store.Key { return store.Key{Category: c, Name: n} }

func TestSupersession(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name    string
		entries []vEntry
		want    []string // the default answer
		all     []string // with IncludeSuperseded
		unres   []string // unresolved links of the hits (links on)
		cycles  []Cycle
	}{
		{
			name: "single",
			entries: []vEntry{
				{key: "places:Paris flat"},
				{key: "places:Berlin flat", supersedes: []string{"[[places:Paris flat]]"}},
			},
			want: []string{"places:Berlin flat<places:Paris flat"},
			all:  []string{"places:Berlin flat<places:Paris flat", "places:Paris flat>places:Berlin flat"},
		},
		{
			name: "chain hides all but the last",
			entries: []vEntry{
				{key: "p:a"},
				{key: "p:b", supersedes: []string{"[[a]]"}},
				{key: "p:c", supersedes: []string{"p:b"}},
			},
			want: []string{"p:c<p:b"},
			all:  []string{"p:a>p:b", "p:b>p:c<p:a", "p:c<p:b"},
		},
		{
			name: "cycle kept by the most recent updated",
			entries: []vEntry{
				{key: "p:a", supersedes: []string{"[[p:b]]"}, updated: t0.Add(2 * time.Hour)},
				{key: "p:b", supersedes: []string{"[[p:a]]"}, updated: t0.Add(time.Hour)},
			},
			want:   []string{"p:a<p:b"},
			all:    []string{"p:a<p:b", "p:b>p:a"},
			cycles: []Cycle{{Entries: []store.Key{key("p", "a"), key("p", "b")}, Kept: key("p", "a")}},
		},
		{
			name: "cycle the other way",
			entries: []vEntry{
				{key: "p:a", supersedes: []string{"[[p:b]]"}, updated: t0},
				{key: "p:b", supersedes: []string{"[[p:a]]"}, updated: t0.Add(time.Hour)},
			},
			want:   []string{"p:b<p:a"},
			all:    []string{"p:a>p:b", "p:b<p:a"},
			cycles: []Cycle{{Entries: []store.Key{key("p", "a"), key("p", "b")}, Kept: key("p", "b")}},
		},
		{
			name: "three in a circle, one outside superseding the kept one",
			entries: []vEntry{
				{key: "p:a", supersedes: []string{"[[p:b]]"}, updated: t0},
				{key: "p:b", supersedes: []string{"[[p:c]]"}, updated: t0.Add(3 * time.Hour)},
				{key: "p:c", supersedes: []string{"[[p:a]]"}, updated: t0.Add(time.Hour)},
				{key: "p:d", supersedes: []string{"[[p:b]]"}, updated: t0},
			},
			want: []string{"p:d<p:b"},
			// a's link to b is overruled (the cycle keeps b); c's to a is not.
			all:    []string{"p:a>p:c", "p:b>p:d<p:c", "p:c>p:b<p:a", "p:d<p:b"},
			cycles: []Cycle{{Entries: []store.Key{key("p", "a"), key("p", "b"), key("p", "c")}, Kept: key("p", "b")}},
		},
		{
			name: "missing target reported like an unresolved link",
			entries: []vEntry{
				{key: "p:a", supersedes: []string{"[[p:gone]]", "nowhere", "[[photo.png]]"}},
			},
			want:  []string{"p:a"},
			all:   []string{"p:a"},
			unres: []string{"[[p:gone]]", "[[nowhere]]", "[[photo.png]]"},
		},
		{
			name: "across categories, labels, headings, paths",
			entries: []vEntry{
				{key: "home:old address"},
				{key: "work/2024:desk"},
				{key: "notes:x"},
				{key: "people:me", supersedes: []string{"[[home:old address|where I lived]]", "[[work/2024/desk#Floor]]", "![[x]]"}},
			},
			want: []string{"people:me<home:old address,notes:x,work/2024:desk"},
			all:  []string{"home:old address>people:me", "notes:x>people:me", "people:me<home:old address,notes:x,work/2024:desk", "work/2024:desk>people:me"},
		},
		{
			name: "two successors: the most recently updated names it",
			entries: []vEntry{
				{key: "p:old"},
				{key: "p:one", supersedes: []string{"[[old]]"}, updated: t0},
				{key: "p:two", supersedes: []string{"[[old]]"}, updated: t0.Add(time.Hour)},
			},
			want: []string{"p:one<p:old", "p:two<p:old"},
			all:  []string{"p:old>p:two", "p:one<p:old", "p:two<p:old"},
		},
		{
			name: "itself, and an ambiguous bare name",
			entries: []vEntry{
				{key: "a:dup"}, {key: "b:dup"},
				{key: "c:me", supersedes: []string{"[[c:me]]", "[[dup]]"}},
			},
			want:  []string{"a:dup", "b:dup", "c:me"},
			all:   []string{"a:dup", "b:dup", "c:me"},
			unres: []string{"[[dup]]"},
		},
	}
	for _, c := range cases {
		for name, st := range openStores(t) {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				eng := New(st, WithIndexCache(Options{}, st))
				defer eng.Close()
				putAll(t, eng, c.entries...)
				if got := visible(t, eng, Request{KeepDuplicates: true}); !slices.Equal(got, c.want) {
					t.Errorf("default: %q, want %q", got, c.want)
				}
				if got := visible(t, eng, Request{KeepDuplicates: true, IncludeSuperseded: true}); !slices.Equal(got, c.all) {
					t.Errorf("include superseded: %q, want %q", got, c.all)
				}
				res, err := eng.Retrieve(context.Background(), Request{KeepDuplicates: true, Query: "flat", Limit: 100, Budget: Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(res.UnresolvedLinks, c.unres) && !(len(c.unres) == 0 && len(res.UnresolvedLinks) == 0) {
					t.Errorf("unresolved %q, want %q", res.UnresolvedLinks, c.unres)
				}
				snap, err := eng.Snapshot(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if got := eng.Validity(snap).Cycles(); fmt.Sprint(got) != fmt.Sprint(c.cycles) {
					t.Errorf("cycles %v, want %v", got, c.cycles)
				}
				// A fresh engine over the same store, from the copy of the
				// index the first one saved (bolt: persisted at the store's
				// revision; folder: stamped per file), decides the same.
				if _, err := eng.Rebuild(context.Background()); err != nil {
					t.Fatal(err)
				}
				eng.Close() // waits for the save
				eng2 := New(st, WithIndexCache(Options{}, st))
				defer eng2.Close()
				if _, err := eng2.Load(context.Background()); err != nil {
					t.Fatal(err)
				}
				if got := visible(t, eng2, Request{KeepDuplicates: true}); !slices.Equal(got, c.want) {
					t.Errorf("fresh engine: %q, want %q", got, c.want)
				}
			})
		}
	}
}

// TestSupersededFilteredBeforeRanking: the hits are the best Limit of
// the visible entries, never a top list with holes.
func TestSupersededFilteredBeforeRanking(t *testing.T) {
	st := openStores(t)["bolt"]
	eng := New(st, Options{})
	defer eng.Close()
	var es []vEntry
	for i := range 20 {
		// The old ones repeat "flat" and rank first.
		es = append(es, vEntry{key: fmt.Sprintf("old:%02d", i), content: strings.Repeat("flat ", 5)})
		es = append(es, vEntry{key: fmt.Sprintf("new:%02d", i), supersedes: []string{fmt.Sprintf("[[old:%02d]]", i)}})
	}
	putAll(t, eng, es...)
	res, err := eng.Retrieve(context.Background(), Request{KeepDuplicates: true, Query: "flat", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 5 {
		t.Fatalf("%d items, want 5", len(res.Items))
	}
	for _, it := range res.Items {
		if it.Category != "new" {
			t.Errorf("hit %s:%s is superseded", it.Category, it.Name)
		}
	}
	// A timeline leaves them out too.
	res, err = eng.Retrieve(context.Background(), Request{KeepDuplicates: true, After: time.Now().Add(-time.Hour), Limit: 100, Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 20 {
		t.Errorf("timeline: %d items, want the 20 visible", len(res.Items))
	}
}

// TestLinkToSuperseded: a hit's link to a superseded entry is followed,
// as context, and marked with what supersedes it; a link to an expired
// one is marked expired.
func TestLinkToSuperseded(t *testing.T) {
	st := openStores(t)["fs"]
	eng := New(st, Options{})
	defer eng.Close()
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	putAll(t, eng,
		vEntry{key: "places:Paris flat"},
		vEntry{key: "places:Berlin flat", supersedes: []string{"[[Paris flat]]"}},
		vEntry{key: "work:sprint", expires: "2026-06-30"},
	)
	if err := eng.Put(context.Background(), store.Entry{Category: "plans", Name: "moving", Content: "moving: see [[places:Paris flat]] and [[work:sprint]]"}); err != nil {
		t.Fatal(err)
	}
	res, err := eng.Retrieve(context.Background(), Request{KeepDuplicates: true, Query: "moving", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range res.Items {
		got = append(got, string(it.Source)+" "+evidence(it))
	}
	want := []string{"hit plans:moving", "link places:Paris flat>places:Berlin flat", "link work:sprint!"}
	if !slices.Equal(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
}

// TestExpiryBoundary: an entry is a hit before its expiry and not from
// that instant on; a calendar day expires at its midnight in the zone of
// the request's now.
func TestExpiryBoundary(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	newYork := time.FixedZone("EST", -5*3600)
	at := time.Date(2026, 7, 1, 9, 30, 0, 0, time.UTC)
	for name, st := range openStores(t) {
		eng := New(st, Options{})
		putAll(t, eng,
			vEntry{key: "t:instant", expires: at.Format(time.RFC3339)},
			vEntry{key: "t:day", expires: "2026-07-01"},
			vEntry{key: "t:never"},
		)
		for _, c := range []struct {
			now  time.Time
			want []string
		}{
			{at.Add(-time.Nanosecond), []string{"t:instant", "t:never"}},
			{at, []string{"t:never"}},
			// 03:00 UTC on 1 July: the day has not begun in New York.
			{time.Date(2026, 6, 30, 22, 0, 0, 0, newYork), []string{"t:day", "t:instant", "t:never"}},
			{time.Date(2026, 7, 1, 0, 0, 0, 0, newYork), []string{"t:instant", "t:never"}},
			{time.Date(2026, 6, 30, 23, 59, 59, 999999999, time.UTC), []string{"t:day", "t:instant", "t:never"}},
			{time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), []string{"t:instant", "t:never"}},
			{time.Date(2026, 7, 1, 0, 0, 0, 0, shanghai), []string{"t:instant", "t:never"}},
			{time.Date(2026, 6, 30, 23, 59, 59, 0, shanghai), []string{"t:day", "t:instant", "t:never"}},
		} {
			if got := visible(t, eng, Request{KeepDuplicates: true, Now: c.now}); !slices.Equal(got, c.want) {
				t.Errorf("%s: now %v: %q, want %q", name, c.now, got, c.want)
			}
		}
		all := visible(t, eng, Request{KeepDuplicates: true, Now: at.Add(24 * time.Hour), IncludeExpired: true})
		if want := []string{"t:day!", "t:instant!", "t:never"}; !slices.Equal(all, want) {
			t.Errorf("%s: include expired: %q, want %q", name, all, want)
		}
		eng.Close()
	}
}

// TestValidityUnusedIsUnchanged: entries without the keys carry no extra
// at all, so a store without them is indexed (and persisted) as before.
func TestValidityUnusedIsUnchanged(t *testing.T) {
	e := store.Entry{Category: "a", Name: "b", Content: "c", Meta: store.Meta{Extra: map[string]any{"mood": "sunny"}}}
	if x := InputOf(e).Extra; x != "" {
		t.Fatalf("extra %q for an entry without validity keys", x)
	}
	e.Meta.Extra[store.MetaExpires] = "soon"
	if x := InputOf(e).Extra; !strings.Contains(x, "expires") {
		t.Fatalf("extra %q does not say the expiry is unreadable", x)
	}
}

// TestValidityModel: any sequence of puts, supersedes, expiries and
// deletes leaves visible what a brute-force model of the rules says, on
// the incremental path as after a rebuild.
func TestValidityModel(t *testing.T) {
	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 23))
		st := openStores(t)["bolt"]
		eng := New(st, Options{})
		model := map[string]vEntry{}
		names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
		cats := []string{"x", "y"}
		now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		for step := range 120 {
			key := cats[r.IntN(2)] + ":" + names[r.IntN(len(names))]
			if r.IntN(6) == 0 {
				c, n, _ := strings.Cut(key, ":")
				err := eng.Delete(context.Background(), c, n)
				if err != nil && !strings.Contains(err.Error(), "not found") {
					t.Fatal(err)
				}
				delete(model, key)
			} else {
				v := vEntry{key: key, updated: base.Add(time.Duration(r.IntN(5)) * time.Hour)}
				for range r.IntN(3) {
					v.supersedes = append(v.supersedes, "[["+cats[r.IntN(2)]+":"+names[r.IntN(len(names))]+"]]")
				}
				if r.IntN(4) == 0 {
					v.expires = now.Add(time.Duration(r.IntN(5)-2) * time.Hour).Format(time.RFC3339)
				}
				putAll(t, eng, v)
				model[key] = v
			}
			if step%10 != 9 {
				continue
			}
			want := modelVisible(model, now)
			if got := visible(t, eng, Request{KeepDuplicates: true, Now: now}); !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d: visible %q, model %q\n%v", seed, step, got, want, model)
			}
		}
		if _, err := eng.Rebuild(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got, want := visible(t, eng, Request{KeepDuplicates: true, Now: now}), modelVisible(model, now); !slices.Equal(got, want) {
			t.Fatalf("seed %d after rebuild: visible %q, model %q", seed, got, want)
		}
		eng.Close()
	}
}

// modelVisible is the rules of docs/validity.md by brute force: an entry
// is hidden when it expired, or when another entry supersedes it, unless
// both lie on one cycle (each reaches the other) that keeps it (latest
// updated, then first key). Evidence: "<" the entries it supersedes.
func modelVisible(m map[string]vEntry, now time.Time) []string {
	edges := map[string][]string{}
	for k, v := range m {
		for _, l := range v.supersedes {
			t := strings.TrimSuffix(strings.TrimPrefix(l, "[["), "]]")
			if _, ok := m[t]; ok && t != k && !slices.Contains(edges[k], t) {
				edges[k] = append(edges[k], t)
			}
		}
	}
	reach := func(from, to string) bool {
		seen := map[string]bool{from: true}
		todo := []string{from}
		for len(todo) > 0 {
			x := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, y := range edges[x] {
				if y == to {
					return true
				}
				if !seen[y] {
					seen[y] = true
					todo = append(todo, y)
				}
			}
		}
		return false
	}
	keeps := func(x string) bool { // x is kept by its cycle, if on one
		for k := range m {
			if k != x && reach(x, k) && reach(k, x) {
				a, b := m[k].updated, m[x].updated
				if a.After(b) || a.Equal(b) && k < x {
					return false
				}
			}
		}
		return true
	}
	hidden := map[string]bool{}
	replaces := map[string][]string{}
	for y, xs := range edges {
		for _, x := range xs {
			if reach(x, y) && keeps(x) {
				continue
			}
			hidden[x] = true
			replaces[y] = append(replaces[y], x)
		}
	}
	var out []string
	for k, v := range m {
		if hidden[k] {
			continue
		}
		if v.expires != "" {
			if t, _ := time.Parse(time.RFC3339, v.expires); !now.Before(t) {
				continue
			}
		}
		s := k
		if xs := replaces[k]; len(xs) > 0 {
			slices.Sort(xs)
			s += "<" + strings.Join(xs, ",")
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestValidityConcurrent: writers that supersede and expire entries and
// readers that retrieve at the same time (run with -race); the validity
// of a snapshot is derived from it alone, so each retrieve's answer is
// consistent with some snapshot, and once the writers are done the
// answer is the model's of what the store holds.
func TestValidityConcurrent(t *testing.T) {
	st := openStores(t)["bolt"]
	eng := New(st, Options{})
	defer eng.Close()
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	names := []string{"a", "b", "c", "d", "e", "f"}
	done := make(chan struct{})
	errs := make(chan error, 8)
	for w := range 3 {
		go func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range 60 {
				v := vEntry{key: "x:" + names[r.IntN(len(names))], updated: now.Add(time.Duration(r.IntN(4)) * time.Hour)}
				if r.IntN(2) == 0 {
					v.supersedes = []string{"[[x:" + names[r.IntN(len(names))] + "]]"}
				}
				if r.IntN(4) == 0 {
					v.expires = now.Add(time.Duration(r.IntN(3)-1) * time.Hour).Format(time.RFC3339)
				}
				if err := eng.Put(context.Background(), v.entry()); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	go func() {
		for {
			select {
			case <-done:
				errs <- nil
				return
			default:
			}
			res, err := eng.Retrieve(context.Background(), Request{KeepDuplicates: true, Query: "flat", Now: now, Limit: 100, Budget: Unlimited})
			if err != nil {
				errs <- err
				return
			}
			for _, it := range res.Items {
				if it.SupersededBy != "" || it.Expired {
					errs <- fmt.Errorf("hidden entry %s:%s is a hit", it.Category, it.Name)
					return
				}
			}
		}
	}()
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	model := map[string]vEntry{}
	for e, err := range st.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		v := vEntry{key: e.Key().String(), updated: e.Meta.Updated, expires: fmt.Sprint(e.Meta.Extra[store.MetaExpires])}
		if v.expires == "<nil>" {
			v.expires = ""
		}
		v.supersedes, _ = store.Supersedes(e.Meta)
		model[v.key] = v
	}
	if got, want := visible(t, eng, Request{KeepDuplicates: true, Now: now}), modelVisible(model, now); !slices.Equal(got, want) {
		t.Errorf("after the writers: %q, model %q", got, want)
	}
}
