package index

// IDF returns the BM25 idf of each of terms in s, as the scorers compute
// it (SPEC §4), and 0 for a term no live document holds. Callers that
// score parts of a document (the sections of a long note) use it, so that
// a rare word weighs what it weighs in the ranking.
func (s *Snapshot) IDF(terms []string) []float64 {
	out := make([]float64, len(terms))
	p := s.plan(terms)
	if p != nil {
		copy(out, p.idf)
	}
	return out
}
