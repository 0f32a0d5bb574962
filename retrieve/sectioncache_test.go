package retrieve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/section"
	"github.com/recallhq/recall/store"
)

// refSectionHits is sectionHits as it was before the section cache
// (e93def9): each long hit split and its sections counted for the query
// terms by an index.TermCounter, per retrieve. The cached path must give
// the same items, field for field.
func refSectionHits(snap *index.Snapshot, terms []string, items []Item, budget int, explain bool) {
	if len(terms) == 0 {
		return
	}
	if budget == 0 {
		budget = DefaultBudget
	}
	var idf []float64
	var tc *index.TermCounter
	used := 0
	for i := range items {
		if budget > 0 && !explain && i > 0 && used > budget {
			return
		}
		it := &items[i]
		if it.Source == SourceHit && it.Section == "" && it.TokensEst > sectionMin {
			if secs := section.Split(it.Content); len(secs) >= 2 {
				if tc == nil {
					idf, tc = snap.IDF(terms), snap.Analyzer().NewTermCounter(terms)
				}
				if best := refBest(idf, tc, secs); best >= 0 {
					s := secs[best]
					text := strings.TrimRight(s.Text, " \t\r\n")
					name := s.Name()
					if name == "" {
						name = IntroSection
					}
					it.Section = name
					it.Content = text
					it.TokensEst = index.EstTokens(it.Name + "\n" + text)
				}
			}
		}
		used += it.TokensEst
	}
}

func refBest(idf []float64, tc *index.TermCounter, secs []section.Section) int {
	nt := len(idf)
	tfs := make([]int, len(secs)*nt)
	lens := make([]int, len(secs))
	total := 0
	for i, s := range secs {
		tf := tfs[i*nt : (i+1)*nt]
		n := 0
		for _, h := range s.Path {
			n += tc.Count(h, tf)
		}
		n += tc.Count(s.Text, tf)
		lens[i] = n
		total += n
	}
	if total == 0 {
		return -1
	}
	avgdl := float64(total) / float64(len(secs))
	best, bestScore := -1, 0.0
	for i := range secs {
		score := 0.0
		for j, n := range tfs[i*nt : (i+1)*nt] {
			if n == 0 || idf[j] == 0 {
				continue
			}
			f := float64(n)
			score += idf[j] * f * (index.K1 + 1) / (f + index.K1*(1-index.B+index.B*float64(lens[i])/avgdl))
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// TestSectionCacheEqualsReference: on long sectioned notes (mixed
// Chinese and English synthetic notes, hand-written ones with stems, stop
// words and headings only, and the help vault when RECALL_HELP_VAULT is
// set), the items sectionHits gives are the reference's for every query,
// whether the cache is cold, warm, or too small to keep anything, and
// with the budget's cut.
func TestSectionCacheEqualsReference(t *testing.T) {
	parts := synth.New(7, 3_000).Entries(120*8, 80)
	var syn []store.Entry
	var qs []string
	g := synth.New(8, 3_000)
	for i := range 120 {
		var c strings.Builder
		for j, p := range parts[i*8 : i*8+8] {
			f := strings.Fields(p.Content)
			fmt.Fprintf(&c, "## Part %d %s\n\n%s\n\n", j+1, strings.Join(f[:min(2, len(f))], " "), p.Content)
		}
		syn = append(syn, store.Entry{Category: parts[i*8].Category, Name: parts[i*8].Name, Content: c.String()})
		f := strings.Fields(parts[i*8+i%8].Content)
		qs = append(qs, g.Query(2), g.Query(3), strings.Join(f[min(3, len(f)):min(6, len(f))], " "))
	}
	filler := strings.Repeat("the running runners ran and were running quickly through 检索记忆系统 ", 40)
	hand := []store.Entry{
		{Category: "n", Name: "stems", Content: "Intro of the note.\n# Running\n" + filler + "\n## Runs of the day\nruns runner 记忆 " + filler + "\n### Empty\n\n## Quickly\nquick quicker quickest\n"},
		{Category: "n", Name: "fenced", Content: "```\n# not a heading\n```\n" + filler + "\nSetext heading\n---\ntext on ability and abilities " + filler},
		{Category: "n", Name: "headings only", Content: "# The\n## And\n" + strings.Repeat("the and of ", 300) + "\n## Of\nthe\n"},
		{Category: "n", Name: "no headings", Content: filler + filler},
	}
	qs = append(qs, "running", "runs", "ran quickly", "the", "检索", "记忆系统", "ability", "quickest runner", "setext heading", "empty")
	stores := []struct {
		name string
		es   []store.Entry
		qs   []string
	}{{"synthetic", syn, qs}, {"hand-written", hand, qs[len(qs)-10:]}}
	if root := os.Getenv("RECALL_HELP_VAULT"); root != "" {
		es, err := loadVault(root)
		if err != nil {
			t.Fatal(err)
		}
		var vq []string
		for _, e := range es {
			for _, s := range section.Split(e.Content) {
				if len(s.Path) > 0 {
					vq = append(vq, s.Path[len(s.Path)-1])
				}
			}
		}
		stores = append(stores, struct {
			name string
			es   []store.Entry
			qs   []string
		}{"help vault", es, vq})
	}
	ctx := context.Background()
	for _, sc := range stores {
		eng := New(newMemStore(sc.es...), Options{})
		snap, err := eng.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		split := 0
		for _, bytes := range []int{sectionCacheBytes, sectionCacheBytes, 0} { // cold, warm, nothing kept
			func() {
				defer func(n int) { sectionCacheBytes = n }(sectionCacheBytes)
				sectionCacheBytes = bytes
				for _, q := range sc.qs {
					res, err := eng.Retrieve(ctx, Request{Query: q, NoTime: true, WholeEntries: true, Explain: true})
					if err != nil {
						t.Fatal(err)
					}
					terms := snap.Query(q).Terms
					for _, budget := range []int{0, 300, Unlimited} {
						for _, explain := range []bool{true, false} {
							want := append([]Item(nil), res.Items...)
							got := append([]Item(nil), res.Items...)
							refSectionHits(snap, terms, want, budget, explain)
							sectionHits(snap, &eng.sections, terms, got, budget, explain)
							if !reflect.DeepEqual(got, want) {
								t.Fatalf("%s, %q, budget %d, explain %v, cache %d bytes:\n got %+v\nwant %+v", sc.name, q, budget, explain, bytes, got, want)
							}
							for _, it := range got {
								if it.Section != "" {
									split++
								}
							}
						}
					}
				}
			}()
		}
		t.Logf("%s: %d queries, %d section answers compared", sc.name, len(sc.qs), split)
		if split == 0 {
			t.Errorf("%s: no hit was split: the comparison proves nothing", sc.name)
		}
		eng.Close()
	}
}

// TestSectionCacheConcurrent: retrieves on several goroutines, with a
// cache so small that its generations turn over all the time, answer as
// one goroutine does (go test -race checks the cache's locking).
func TestSectionCacheConcurrent(t *testing.T) {
	var es []store.Entry
	for i := range 40 {
		var c strings.Builder
		for j := range 6 {
			fmt.Fprintf(&c, "## Part %d w%d\n\n%s\n\n", j, (i+j)%7, strings.Repeat(fmt.Sprintf("w%d alpha beta ", (i*j)%11), 60))
		}
		es = append(es, store.Entry{Category: "n", Name: fmt.Sprint("note ", i), Content: c.String()})
	}
	eng := New(newMemStore(es...), Options{})
	defer eng.Close()
	ctx := context.Background()
	qs := []string{"w1", "w2 alpha", "w3 beta", "w5", "w8 w9", "part w4"}
	want := map[string]string{}
	for _, q := range qs {
		res, err := eng.Retrieve(ctx, Request{Query: q, NoTime: true, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.Items)
		want[q] = string(b)
	}
	defer func(n int) { sectionCacheBytes = n }(sectionCacheBytes)
	sectionCacheBytes = 40 << 10 // a few notes per generation
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				q := qs[(g+i)%len(qs)]
				res, err := eng.Retrieve(ctx, Request{Query: q, NoTime: true, Explain: true})
				if err != nil {
					errs <- err.Error()
					return
				}
				if b, _ := json.Marshal(res.Items); string(b) != want[q] {
					got := string(b)
					errs <- fmt.Sprintf("%q: concurrent answer differs:\n%s\nwant\n%s", q, got, want[q])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// BenchmarkSectionHitsCache: the section step alone (sectionHits on the
// ten whole hits of a retrieve, explain off, default budget) on notes of
// eight sections of 80 terms (BenchmarkRetrieveSections's), four ways in
// alternation query by query: the reference (the step before the cache),
// a note's first sight (an empty cache: the same counting, and a mark),
// its second (analysed in full and kept) and the warm cache:
//
//	go test -run XXX -bench SectionHitsCache -benchtime 2000x ./retrieve/
func BenchmarkSectionHitsCache(b *testing.B) {
	parts := synth.New(42, 20_000).Entries(1_000*8, 80)
	es := make([]store.Entry, 1_000)
	for i := range es {
		var c strings.Builder
		for j, p := range parts[i*8 : i*8+8] {
			fmt.Fprintf(&c, "## Part %d\n\n%s\n\n", j+1, p.Content)
		}
		es[i] = store.Entry{Category: parts[i*8].Category, Name: parts[i*8].Name, Content: c.String()}
	}
	eng := New(newMemStore(es...), Options{})
	defer eng.Close()
	ctx := context.Background()
	snap, err := eng.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	g := synth.New(43, 20_000)
	type q struct {
		terms []string
		items []Item
	}
	var qs []q
	for range 256 {
		s := g.Query(2)
		res, err := eng.Retrieve(ctx, Request{Query: s, NoTime: true, WholeEntries: true, Explain: true})
		if err != nil {
			b.Fatal(err)
		}
		qs = append(qs, q{snap.Query(s).Terms, res.Items})
	}
	var ds [4][]time.Duration
	scratch := make([]Item, 0, 64)
	i := 0
	for b.Loop() {
		c := qs[i%len(qs)]
		for k := range 4 {
			way := (k + i) % 4
			fresh := &sectionCache{}
			if way == 3 { // the first sight marks the notes
				scratch = append(scratch[:0], c.items...)
				sectionHits(snap, fresh, c.terms, scratch, 0, false)
			}
			scratch = append(scratch[:0], c.items...)
			t0 := time.Now()
			switch way {
			case 0:
				refSectionHits(snap, c.terms, scratch, 0, false)
			case 1, 3:
				sectionHits(snap, fresh, c.terms, scratch, 0, false)
			case 2:
				sectionHits(snap, &eng.sections, c.terms, scratch, 0, false)
			}
			ds[way] = append(ds[way], time.Since(t0))
		}
		i++
	}
	for k, name := range []string{"reference", "first", "warm", "second"} {
		slices.Sort(ds[k])
		b.ReportMetric(float64(ds[k][len(ds[k])/2].Nanoseconds()), name+"-p50-ns")
	}
}
