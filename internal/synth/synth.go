// Package synth generates reproducible synthetic memories for benchmarks:
// mixed Chinese and English notes of about 80 index terms each, with
// Zipf-distributed vocabulary (as natural text has) and a few wiki-links.
package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/recallhq/recall/store"
)

// Common Chinese characters, enough for a realistic spread of bigrams.
const hanzi = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞"

// syllables build pseudo-English words; real vocabulary size and Zipf
// frequencies matter for BM25 speed, spelling does not.
var syllables = []string{"ka", "lo", "mi", "ter", "san", "dra", "vel", "on", "is", "ar", "po", "qu", "ent", "bri", "sto", "na", "re", "tion", "al", "ing"}

// Generator makes entries deterministically from a seed.
type Generator struct {
	r     *rand.Rand
	words []string
	zw    *rand.Zipf
	zh    *rand.Zipf
	han   []rune
}

// New returns a generator with an English vocabulary of vocab words.
// vocab must stay well below the 168,420 distinct words the syllables make.
func New(seed uint64, vocab int) *Generator {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := &Generator{r: r, han: []rune(hanzi)}
	seen := map[string]bool{}
	for len(g.words) < vocab {
		n := 1 + r.IntN(4) // 20+400+8000+160000 possible words
		var b strings.Builder
		for range n {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			g.words = append(g.words, w)
		}
	}
	g.zw = rand.NewZipf(r, 1.1, 2, uint64(len(g.words)-1))
	g.zh = rand.NewZipf(r, 1.05, 4, uint64(len(g.han)-1))
	return g
}

// Entries returns n entries in a handful of categories. About half are
// English, a third Chinese, the rest mixed; each holds about terms index
// terms (80 is typical of a memory note). Roughly one in five links to an
// earlier entry, and one in fifty to a missing one.
func (g *Generator) Entries(n, terms int) []store.Entry {
	cats := []string{"people", "preferences", "trips", "work", "health", "daily_life", "ideas", "notes"}
	out := make([]store.Entry, 0, n)
	for i := range n {
		e := store.Entry{Category: cats[g.r.IntN(len(cats))], Name: fmt.Sprintf("note-%06d", i)}
		var b strings.Builder
		switch k := g.r.IntN(6); {
		case k < 3:
			g.english(&b, terms)
		case k < 5:
			g.chinese(&b, terms)
		default:
			g.english(&b, terms/2)
			b.WriteString(" ")
			g.chinese(&b, terms/2)
		}
		if i > 0 && g.r.IntN(5) == 0 {
			t := out[g.r.IntN(i)]
			fmt.Fprintf(&b, " See [[%s:%s]].", t.Category, t.Name)
		}
		if g.r.IntN(50) == 0 {
			b.WriteString(" [[notes:gone]]")
		}
		e.Content = b.String()
		out = append(out, e)
	}
	return out
}

// Common returns the n most frequent English words of the vocabulary, in
// order: the generated corpus's stop words, in nearly every English note.
func (g *Generator) Common(n int) []string {
	return append([]string(nil), g.words[:min(n, len(g.words))]...)
}

// Query returns a query of about k terms drawn like the documents' words.
func (g *Generator) Query(k int) string {
	var b strings.Builder
	if g.r.IntN(3) == 0 {
		g.chinese(&b, k)
	} else {
		g.english(&b, k)
	}
	return b.String()
}

func (g *Generator) english(b *strings.Builder, n int) {
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.words[g.zw.Uint64()])
		if g.r.IntN(12) == 0 {
			b.WriteByte('.')
		}
	}
}

// chinese writes about n bigram terms: sentences of CJK runs separated by
// punctuation.
func (g *Generator) chinese(b *strings.Builder, n int) {
	for n > 0 {
		run := 4 + g.r.IntN(10)
		if run-1 > n {
			run = n + 1
		}
		for range run {
			b.WriteRune(g.han[g.zh.Uint64()])
		}
		b.WriteString("，")
		n -= run - 1
	}
}
