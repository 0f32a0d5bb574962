package bench

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// refBM25 is the plain BM25 of the bench-data README, written from its
// one-paragraph description and nothing else: lower-cased [a-z0-9]+ words
// and overlapping CJK bigrams, k1 1.5, b 0.75, Lucene idf, every query
// token occurrence counted. It exists to check Evaluate against the
// README's reference figures and to measure what recall's own tokenizer
// and its distinct-term scoring change.
type refBM25 struct {
	postings map[string]map[int]int
	lens     []int
	avgdl    float64
	ids      []string
}

func newRefBM25(docs []Doc) *refBM25 {
	r := &refBM25{postings: map[string]map[int]int{}}
	total := 0
	for i, d := range docs {
		toks := refTokens(d.Content())
		r.lens = append(r.lens, len(toks))
		r.ids = append(r.ids, d.ID)
		total += len(toks)
		for _, t := range toks {
			if r.postings[t] == nil {
				r.postings[t] = map[int]int{}
			}
			r.postings[t][i]++
		}
	}
	r.avgdl = float64(total) / float64(len(docs))
	return r
}

func (r *refBM25) search(query string, k int) []Hit {
	const k1, b = 1.5, 0.75
	n := float64(len(r.lens))
	scores := map[int]float64{}
	for _, t := range refTokens(query) {
		p := r.postings[t]
		df := float64(len(p))
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for d, tf := range p {
			f := float64(tf)
			scores[d] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(r.lens[d])/r.avgdl))
		}
	}
	hits := make([]Hit, 0, len(scores))
	for d, s := range scores {
		hits = append(hits, Hit{ID: r.ids[d], Score: s})
	}
	hits = trecOrder(hits)
	return hits[:min(k, len(hits))]
}

func refTokens(s string) []string {
	s = strings.ToLower(s)
	var out []string
	isCJK := func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ー'
	}
	isWord := func(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case isWord(r):
			j := i
			for j < len(s) && isWord(rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		case isCJK(r):
			var run []rune
			j := i
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !isCJK(r2) {
					break
				}
				run = append(run, r2)
				j += n2
			}
			if len(run) == 1 {
				out = append(out, string(run))
			}
			for k := 0; k+1 < len(run); k++ {
				out = append(out, string(run[k:k+2]))
			}
			i = j
		default:
			i += n
		}
	}
	return out
}
