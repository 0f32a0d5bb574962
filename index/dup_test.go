package index

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const longNote = "the deployment pipeline builds every commit, runs the unit tests and the integration tests, " +
	"publishes container images to the registry, and promotes a release candidate to staging after review " +
	"by the platform team on call"

func TestContentDuplicates(t *testing.T) {
	tok := EnglishStop()
	cases := []struct {
		name string
		a, b string
		want bool
	}{
		{"identical", "Buy oat milk.", "Buy oat milk.", true},
		{"case and white space", "Buy  OAT milk.\n", "buy oat\tmilk.", true},
		{"NFKC full width", "Ｂｕｙ oat milk", "buy oat milk", true},
		{"case folding beyond ASCII", "ÉCOLE fermée", "école FERMÉE", true},
		{"no-break and ideographic spaces", "école\u00a0fermée\u3000today", "école fermée today", true},
		{"punctuation only differs, exact path off, near on", "Buy oat milk!", "Buy oat milk.", true},
		{"one word more in a long note", longNote, longNote + " rotation", true},
		{"a stemmed variant", longNote, strings.Replace(longNote, "builds", "built", 1), true},
		{"stop words only, same", "to be or not to be", "To be or NOT to be", true},
		{"stop words only, other", "to be or not to be", "it is what it is", false},

		// Counter-examples: the same template with other values.
		{"another number", longNote + " at 10:00", longNote + " at 11:00", false},
		{"another name", longNote + " led by Alice", longNote + " led by Carol", false},
		{"a negation", longNote + " and it is stable", longNote + " and it is not stable", false},
		{"a contraction", longNote + " it does work", longNote + " it doesn't work", false},
		{"short note, one value", "meeting on monday", "meeting on tuesday", false},
		// The same sentence in two languages.
		{"two languages", "The meeting with the landlord is on Monday at the flat",
			"Das Treffen mit dem Vermieter ist am Montag in der Wohnung", false},
		{"two languages, long", longNote,
			"la chaîne de déploiement construit chaque commit, exécute les tests unitaires et les tests d'intégration, " +
				"publie les images de conteneur dans le registre, et promeut une version candidate en préproduction après revue " +
				"par l'équipe plateforme de garde", false},
		{"unrelated", "Paris flat lease ends in June", "Berlin office opens in March", false},
		{"empty contents duplicate nothing", "", " \n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ContentDuplicates(tok, c.a, c.b); got != c.want {
				t.Fatalf("ContentDuplicates(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
			}
			if got := ContentDuplicates(tok, c.b, c.a); got != c.want {
				t.Fatalf("not symmetric")
			}
			// The snapshot's tables agree, built or written one by one.
			in := []Input{{Category: "n", Name: "a", Content: c.a}, {Category: "n", Name: "b", Content: c.b}}
			for _, s := range []*Snapshot{Build(1, tok, in), Build(1, tok, in[:1]).With(2, in[1]), Build(1, tok, nil).With(2, in[1]).With(3, in[0]).Compact()} {
				a, b := s.Lookup("n", "a"), s.Lookup("n", "b")
				if got := s.IsDuplicate(a, b); got != c.want {
					t.Fatalf("snapshot says %v, want %v", got, c.want)
				}
				if s.HasDuplicates() != c.want {
					t.Fatalf("HasDuplicates = %v", s.HasDuplicates())
				}
			}
		})
	}
}

func TestJaccardThreshold(t *testing.T) {
	// 18 shared of 20 in the union is exactly 0.9; 17 of 19 is below.
	if !jaccardOK(18, 19, 19) || jaccardOK(17, 18, 18) || !jaccardOK(9, 9, 10) || jaccardOK(0, 0, 0) {
		t.Fatal("jaccardOK")
	}
	for n := 1; n < 200; n++ {
		// A set missing prefixLen(n) of x's terms is below the threshold
		// even when it adds nothing; missing one fewer may reach it.
		if jaccardOK(n-prefixLen(n), n, n-prefixLen(n)) {
			t.Fatalf("n=%d: a near duplicate can miss the whole prefix", n)
		}
	}
}

// TestNoDuplicates: detection off finds nothing, through every derivation.
func TestNoDuplicates(t *testing.T) {
	in := []Input{{Category: "n", Name: "a", Content: "same"}, {Category: "n", Name: "b", Content: "same"}}
	s := BuildWith(1, nil, in, BuildOptions{NoDuplicates: true}).With(2, Input{Category: "n", Name: "c", Content: "same"})
	for _, x := range []*Snapshot{s, s.Compact(), decoded(t, s)} {
		if x.HasDuplicates() || x.DetectsDuplicates() || len(x.Duplicates(x.Lookup("n", "a"))) != 0 {
			t.Fatal("duplicates found with detection off")
		}
	}
	if !Build(1, nil, in).HasDuplicates() {
		t.Fatal("Build found no duplicate")
	}
}

func decoded(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	d, _, err := Decode(Encode(s, nil), s.Analyzer(), s.Revision())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// dupContent draws contents that are often duplicates of each other:
// copies, case and spacing variants, a word more, another number, a name.
func dupContent(r *rand.Rand) string {
	bases := []string{
		longNote,
		"the quarterly report lists revenue by region, churn by cohort, the hiring plan and the risks the board asked about last time",
		"short note",
		"to be or not to be",
		"",
	}
	c := bases[r.IntN(len(bases))]
	switch r.IntN(7) {
	case 0:
		c = strings.ToUpper(c)
	case 1:
		c = strings.ReplaceAll(c, " ", "  \n")
	case 2:
		c += " extra"
	case 3:
		c += fmt.Sprintf(" at %d:00", 9+r.IntN(3))
	case 4:
		c += []string{" by Alice", " by Carol", " not"}[r.IntN(3)]
	}
	return c
}

// TestDuplicatesModel: any sequence of writes and deletes, and the
// compactions and persisted copies between them, keeps the relation a
// brute-force comparison of every live pair gives.
func TestDuplicatesModel(t *testing.T) {
	tok := EnglishStop()
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 23))
		model := map[docKey]string{}
		var init []Input
		for i := range 12 {
			in := Input{Category: "c", Name: fmt.Sprint("n", i), Content: dupContent(r)}
			init = append(init, in)
			model[docKey{in.Category, in.Name}] = in.Content
		}
		s := Build(1, tok, init)
		for step := range 120 {
			k := docKey{"c", fmt.Sprint("n", r.IntN(20))}
			rev := uint64(step + 2)
			switch x := r.IntN(10); {
			case x < 6:
				c := dupContent(r)
				s = s.With(rev, Input{Category: k.category, Name: k.name, Content: c})
				model[k] = c
			case x < 8:
				s = s.Without(rev, k.category, k.name)
				delete(model, k)
			case x < 9:
				s = s.Compact()
			default:
				s = decoded(t, s.Compact())
			}
			checkModel(t, tok, s, model, seed, step)
		}
	}
}

func checkModel(t *testing.T, tok *Analyzer, s *Snapshot, model map[docKey]string, seed uint64, step int) {
	t.Helper()
	keys := slices.SortedFunc(func(yield func(docKey) bool) {
		for k := range model {
			if !yield(k) {
				return
			}
		}
	}, func(a, b docKey) int { return strings.Compare(a.name, b.name) })
	any := false
	for _, a := range keys {
		da := s.Lookup(a.category, a.name)
		var want, got []string
		for _, b := range keys {
			if a != b && ContentDuplicates(tok, model[a], model[b]) {
				want = append(want, b.name)
				any = true
			}
		}
		for _, d := range s.Duplicates(da) {
			got = append(got, d.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d step %d: duplicates of %s = %v, want %v", seed, step, a.name, got, want)
		}
	}
	if any && !s.HasDuplicates() {
		t.Fatalf("seed %d step %d: HasDuplicates false", seed, step)
	}
}

// TestContentHash: the hash a build makes without building the
// normalized text is FNV-1a over that text's 8-byte words.
func TestContentHash(t *testing.T) {
	for _, s := range []string{"", "  ", "a", " Buy  OAT\tmilk \n", "école\u00a0FERMÉE\u3000x", "Ｂｕｙ", "上周 去了 海边", longNote} {
		h := uint64(14695981039346656037)
		b := []byte(dupNormal(s))
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
		for i := 0; i < len(b); i += 8 {
			h = (h ^ binary.LittleEndian.Uint64(b[i:])) * 1099511628211
		}
		if got := contentHash(s); got != h {
			t.Fatalf("%q: hash %x, want %x of %q", s, got, h, dupNormal(s))
		}
	}
}

func TestSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		xs := make([]uint32, 1+r.IntN(40))
		for i := range xs {
			xs[i] = uint32(r.IntN(30))
		}
		p := 1 + r.IntN(len(xs))
		want := slices.Sorted(slices.Values(xs))[:p]
		smallest(xs, p)
		got := slices.Sorted(slices.Values(xs[:p]))
		if !slices.Equal(got, want) {
			t.Fatalf("p=%d: %v, want %v", p, got, want)
		}
		// appendRarest on distinct ids, with ranks a permutation.
		ids := r.Perm(len(xs))
		rank := r.Perm(len(xs))
		var ids32, rank32 []uint32
		for i := range ids {
			ids32, rank32 = append(ids32, uint32(ids[i])), append(rank32, uint32(rank[i]))
		}
		pre := appendRarest([]uint32{99}, ids32, rank32, p)
		if want := append([]uint32{99}, slices.Sorted(slices.Values(rank32))[:p]...); !slices.Equal(pre, want) {
			t.Fatalf("appendRarest p=%d: %v, want %v", p, pre, want)
		}
	}
}

// TestValueGuardEqualNormal: texts equal after dupNormal pass the word
// diff, so valueGuard's shortcut for them changes no answer: random
// texts of letters with case mappings that change their length (İ, ẞ),
// Greek, full-width and ligature forms NFKC rewrites, combining marks,
// digits, apostrophes and white space of several kinds, against their
// case and spacing variants.
func TestValueGuardEqualNormal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "B", "İ", "ẞ", "ß", "Σ", "ς", "Ａ", "ﬁ", "e\u0301", "É", "7", "'", "’", " ", "\t", "\u00a0", "\u3000", "n't", "不", ",", "Ⅳ"}
	variant := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			switch x := string(c); {
			case x == " " && r.IntN(2) == 0:
				b.WriteString(" \n ")
			case r.IntN(3) == 0:
				b.WriteString(strings.ToUpper(x))
			case r.IntN(3) == 0:
				b.WriteString(strings.ToLower(x))
			default:
				b.WriteString(x)
			}
		}
		return b.String()
	}
	equal := 0
	for range 20_000 {
		var a strings.Builder
		for range 1 + r.IntN(12) {
			a.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		x := a.String()
		y := variant(x)
		if dupNormal(x) != dupNormal(y) {
			continue
		}
		equal++
		if !wordsCarryNoValue(x, y) {
			t.Fatalf("%q and %q: equal after dupNormal, and the word diff finds a word of value", x, y)
		}
	}
	if equal < 5_000 {
		t.Fatalf("only %d pairs equal after dupNormal", equal)
	}
}
