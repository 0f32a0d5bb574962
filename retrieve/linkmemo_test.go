package retrieve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// linkStore makes random notes whose links take every form Links
// resolves (bare names in and out of case, paths, recall's
// category:name, markdown links, labels, embeds, headings of the note
// itself, attachments, aliases, property links, missing names), over a
// small pool of names held in several folders and case variants, so that
// adding or removing one note changes what the links of others resolve
// to (a name becomes resolvable, ambiguous, or gone).
type linkStore struct {
	r *rand.Rand
}

var (
	linkCats  = []string{"a", "a/b", "c"}
	linkNames = []string{"Foo", "foo", "FOO", "Bar Baz", "bar baz", "Qux", "Deep note", "Zed"}
	linkWords = strings.Fields("apple banana cherry date elder fig grape honey iris juniper")
)

func (g linkStore) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(linkWords[g.r.IntN(len(linkWords))])
	}
	return b.String()
}

func (g linkStore) link() string {
	c, n := linkCats[g.r.IntN(len(linkCats))], linkNames[g.r.IntN(len(linkNames))]
	switch g.r.IntN(12) {
	case 0:
		return "[[" + n + "]]"
	case 1:
		return "[[" + strings.ToLower(n) + "]]"
	case 2:
		return "[[" + c + "/" + n + "]]"
	case 3:
		return "[[" + c + ":" + n + "]]"
	case 4:
		return "[text](" + strings.ReplaceAll(url.PathEscape(c+"/"+n), "%2F", "/") + ".md)"
	case 5:
		return "[[" + n + "|label]]"
	case 6:
		return "![[" + n + "#Part]]"
	case 7:
		return "[[#Part 1]]"
	case 8:
		return "[[pic.png]]"
	case 9:
		return fmt.Sprintf("[[alias %d]]", g.r.IntN(4))
	case 10:
		return "[[Missing " + n + "]]"
	}
	return "`[[" + n + "]]` [[../" + n + "]]"
}

// entry is a random note at c/n: short, or long with sections (each with
// links of its own), maybe with aliases and a property link.
func (g linkStore) entry(c, n string) store.Entry {
	var b strings.Builder
	if g.r.IntN(2) == 0 {
		fmt.Fprintf(&b, "%s %s %s", g.words(6), g.link(), g.link())
	} else {
		fmt.Fprintf(&b, "%s %s\n", g.words(8), g.link())
		for j := range 2 + g.r.IntN(3) {
			fmt.Fprintf(&b, "\n## Part %d %s\n\n%s %s %s\n", j+1, g.words(1), g.words(30), g.link(), g.link())
		}
	}
	e := store.Entry{Category: c, Name: n, Content: b.String()}
	x := map[string]any{}
	if g.r.IntN(4) == 0 {
		x["aliases"] = []any{fmt.Sprintf("alias %d", g.r.IntN(4))}
	}
	if g.r.IntN(4) == 0 {
		x["up"] = g.link()
	}
	if len(x) > 0 {
		e.Meta.Extra = x
	}
	return e
}

// answer is what a retrieve answers, as compared: its items (and the
// dropped ones) and its unresolved links.
func answer(t *testing.T, eng *Engine, q string) string {
	t.Helper()
	res, err := eng.Retrieve(context.Background(), Request{Query: q, NoTime: true, Explain: true, Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal([]any{res.Items, res.Dropped, res.UnresolvedLinks})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLinkMemoEqualsUncached: on random stores of linked notes, written
// to (put, change, delete) between retrieves, every retrieve answers as
// the uncached path does (the memo keeping nothing) on the same
// snapshot, whole entries and sections, memo first or second. The stores
// are made so that a write changes what unchanged notes' links resolve to
// (the test checks that it happens), so a memo that served a link
// resolved against an older snapshot would answer differently.
func TestLinkMemoEqualsUncached(t *testing.T) {
	defer func(n int) { sectionMin = n }(sectionMin)
	sectionMin = 20 // most long notes are answered by a section
	ctx := context.Background()
	compared, changed, sections := 0, 0, 0
	for seed := range uint64(6) {
		g := linkStore{rand.New(rand.NewPCG(seed, 24))}
		var es []store.Entry
		seen := map[store.Key]bool{}
		for range 40 {
			e := g.entry(linkCats[g.r.IntN(len(linkCats))], linkNames[g.r.IntN(len(linkNames))])
			if !seen[e.Key()] {
				seen[e.Key()] = true
				es = append(es, e)
			}
		}
		eng := New(newMemStore(es...), Options{})
		var prev *index.Snapshot
		for step := range 120 {
			if step%3 == 2 { // a write between retrieves
				c, n := linkCats[g.r.IntN(len(linkCats))], linkNames[g.r.IntN(len(linkNames))]
				var err error
				if g.r.IntN(3) == 0 {
					err = eng.Delete(ctx, c, n)
					if err != nil && !errors.Is(err, store.ErrNotFound) {
						t.Fatal(err)
					}
				} else if err = eng.Put(ctx, g.entry(c, n)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			snap, err := eng.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if prev != nil && prev != snap {
				// What a memo of the older snapshot would have said.
				old, cur := NewLinks(prev), NewLinks(snap)
				snap.Docs(func(d *index.Doc) bool {
					if prev.Lookup(d.Category, d.Name) == d && !reflect.DeepEqual(old.resolveAll(d, "", true), cur.resolveAll(d, "", true)) {
						changed++
					}
					return true
				})
			}
			prev = snap
			q := g.words(1 + g.r.IntN(2))
			var with, without string
			off := func() {
				defer func(n int) { linkMemoEntries = n }(linkMemoEntries)
				linkMemoEntries = 0
				without = answer(t, eng, q)
			}
			if step%2 == 0 {
				with = answer(t, eng, q)
				off()
			} else {
				off()
				with = answer(t, eng, q)
			}
			if again := answer(t, eng, q); again != with {
				t.Fatalf("seed %d step %d %q: the memo's second answer differs:\n%s\nfirst\n%s", seed, step, q, again, with)
			}
			if with != without {
				t.Fatalf("seed %d step %d %q:\n memo %s\nwant %s", seed, step, q, with, without)
			}
			compared++
			sections += strings.Count(with, `"section":`)
		}
		eng.Close()
	}
	t.Logf("%d answers compared (%d items answered by a section); %d times a write changed an unchanged note's links", compared, sections, changed)
	if changed == 0 || sections == 0 {
		t.Errorf("the stores never changed an unchanged note's links (%d) or had no section answer (%d): the comparison proves little", changed, sections)
	}
}

// TestLinkMemoKept: the links of a text are resolved once per snapshot
// (the memo hands back the same list), and a new snapshot resolves them
// again, against itself.
func TestLinkMemoKept(t *testing.T) {
	ctx := context.Background()
	eng := New(newMemStore(
		store.Entry{Category: "n", Name: "a", Content: "apple [[b]] [[gone]]"},
		store.Entry{Category: "n", Name: "b", Content: "banana"},
	), Options{})
	defer eng.Close()
	snap, err := eng.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lk := eng.Links(snap)
	a := snap.Lookup("n", "a")
	first := lk.linksOf(a, "", true)
	if len(first) != 2 || first[0].d != snap.Lookup("n", "b") || first[1].d != nil || first[1].raw != "[[gone]]" {
		t.Fatalf("links of a: %+v", first)
	}
	if again := lk.linksOf(a, "", true); &again[0] != &first[0] {
		t.Error("the second call resolved again: nothing kept")
	}
	if err := eng.Put(ctx, store.Entry{Category: "n", Name: "gone", Content: "back"}); err != nil {
		t.Fatal(err)
	}
	snap2, err := eng.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lk2 := eng.Links(snap2)
	if lk2 == lk {
		t.Fatal("a new snapshot kept the old Links")
	}
	got := lk2.linksOf(snap2.Lookup("n", "a"), "", true)
	if len(got) != 2 || got[1].d != snap2.Lookup("n", "gone") {
		t.Fatalf("after the write [[gone]] should resolve: %+v", got)
	}
}

// TestLinkMemoConcurrent: retrieves on several goroutines, with a memo so
// small that its generations turn over all the time and a writer putting
// notes meanwhile, answer as one goroutine does once the writes are done
// (go test -race checks the memo's locking).
func TestLinkMemoConcurrent(t *testing.T) {
	g := linkStore{rand.New(rand.NewPCG(3, 4))}
	var es []store.Entry
	for i := range 60 {
		es = append(es, g.entry(linkCats[i%3], fmt.Sprint(linkNames[i%len(linkNames)], " ", i/3)))
	}
	eng := New(newMemStore(es...), Options{})
	defer eng.Close()
	ctx := context.Background()
	qs := []string{"apple", "banana cherry", "date", "elder fig", "grape", "honey iris", "juniper"}
	defer func(n int) { linkMemoEntries = n }(linkMemoEntries)
	linkMemoEntries = 4
	var wg sync.WaitGroup
	errs := make(chan error, 9)
	wg.Add(1)
	go func() { // the writer
		defer wg.Done()
		w := linkStore{rand.New(rand.NewPCG(5, 6))}
		for i := range 30 {
			if err := eng.Put(ctx, w.entry(linkCats[i%3], linkNames[i%len(linkNames)])); err != nil {
				errs <- err
				return
			}
		}
	}()
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				if _, err := eng.Retrieve(ctx, Request{Query: qs[i%len(qs)], NoTime: true, Explain: true}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, q := range qs {
		func() {
			defer func(n int) { linkMemoEntries = n }(linkMemoEntries)
			linkMemoEntries = 0
			want[q] = answer(t, eng, q)
		}()
	}
	var wg2 sync.WaitGroup
	bad := make(chan string, 8)
	for k := range 8 {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			for i := range 40 {
				q := qs[(k+i)%len(qs)]
				res, err := eng.Retrieve(ctx, Request{Query: q, NoTime: true, Explain: true, Budget: Unlimited})
				if err != nil {
					bad <- err.Error()
					return
				}
				b, _ := json.Marshal([]any{res.Items, res.Dropped, res.UnresolvedLinks})
				if string(b) != want[q] {
					bad <- fmt.Sprintf("%q: concurrent answer differs:\n%s\nwant\n%s", q, b, want[q])
					return
				}
			}
		}()
	}
	wg2.Wait()
	close(bad)
	for s := range bad {
		t.Error(s)
	}
}
