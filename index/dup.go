package index

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Duplicates (docs/duplicates.md). Two documents are duplicates when
//
//   - exact: their contents are equal after NFKC, case folding (Unicode
//     lower case, as the tokenizer folds it: "ÉCOLE" and "école" are
//     equal) and collapsing every run of white space into one space,
//     trimmed at both ends, and not empty; or
//   - near: both contents have index terms (of the snapshot's analyzer),
//     the Jaccard similarity of the two sets of terms is at least
//     NearNum/NearDen (0.9), and the words in which they differ carry no
//     value (valueGuard): none holds a digit, none is written with a
//     capital first letter (a name), none is a negation.
//
// The relation is symmetric and depends on the two contents alone (names,
// dates and metadata do not count), so a snapshot keeps it as data: a
// Build finds every pair in one pass over its documents (prefix
// filtering on both sides: under one order of the terms, rarest first, a
// pair with Jaccard ≥ t shares one of the first |x|−⌈t·|x|⌉+1 terms of
// x and of y, so a document reads only the lists of the documents whose
// prefix holds one of its own prefix terms, taken by size; see
// nearPairs), With finds the pairs of the one document it adds from the
// whole posting lists of its rarest terms, Compact renumbers them, and
// the persisted copy carries them. Detection never reads the store.

// The near-duplicate threshold: Jaccard ≥ NearNum/NearDen.
const (
	NearNum = 9
	NearDen = 10
)

// BuildOptions tune BuildWith. The zero value is Build's behaviour.
type BuildOptions struct {
	// NoDuplicates turns duplicate detection off: the snapshot and every
	// snapshot derived from it (With, Without, Compact, a persisted copy)
	// find no duplicates and spend nothing on them.
	NoDuplicates bool
}

// BuildWith is Build with options.
func BuildWith(rev uint64, tok *Analyzer, docs []Input, o BuildOptions) *Snapshot {
	if tok == nil {
		tok = Spec()
	}
	seg := buildSegment(tok, docs, !o.NoDuplicates)
	seg.indexNames()
	return &Snapshot{rev: rev, tok: tok, base: seg, n: len(seg.docs), totalLen: seg.totalLen}
}

// dupTable is a base segment's duplicate data; nil when detection is off.
type dupTable struct {
	hash   []uint64            // by ord: contentHash of a content without terms, else 0
	sig    []uint64            // by ord: termSig of the content terms
	ctn    []uint32            // by ord: the number of distinct content terms
	byHash []uint32            // the ords without content terms, by hash, then ord
	rel    map[uint32][]uint32 // ord → the base documents it duplicates, ascending
	has    []uint64            // bitset by ord: the ords rel has, one read per hit
}

// DetectsDuplicates reports whether s finds duplicates (BuildOptions).
func (s *Snapshot) DetectsDuplicates() bool { return s.base.dup != nil }

// HasDuplicates reports whether some pair of documents of s may be
// duplicates: false means none is, with one look at two tables.
func (s *Snapshot) HasDuplicates() bool {
	return s.base.dup != nil && (len(s.base.dup.rel) > 0 || len(s.ovDup) > 0)
}

// EachDuplicate calls fn with every live document of s that is a
// duplicate of d (a document of s), in no particular order, until fn
// returns false. A document with none costs a bit test (and a map lookup
// while the overlay holds pairs).
func (s *Snapshot) EachDuplicate(d *Doc, fn func(*Doc) bool) {
	t := s.base.dup
	if t == nil {
		return
	}
	if s.isBaseDoc(d) {
		if ord := uint32(d.ord); t.has != nil && t.has[ord/64]&(1<<(ord%64)) != 0 {
			for _, y := range t.rel[ord] {
				if yd := s.Doc(int(y)); yd != nil && !fn(yd) {
					return
				}
			}
		}
	} else if s.ovDocOf(d) == nil {
		return
	}
	if len(s.ovDup) == 0 {
		return
	}
	for _, y := range s.ovDup[d.ord] {
		if yd := s.Doc(int(y)); yd != nil && !fn(yd) {
			return
		}
	}
}

// Duplicates returns the live documents of s that are duplicates of d, in
// identity order (category, then name).
func (s *Snapshot) Duplicates(d *Doc) []*Doc {
	var out []*Doc
	s.EachDuplicate(d, func(y *Doc) bool {
		out = append(out, y)
		return true
	})
	slices.SortFunc(out, func(a, b *Doc) int { return compareIdentity(*a, *b) })
	return slices.CompactFunc(out, func(a, b *Doc) bool { return a == b })
}

// IsDuplicate reports whether a and b, documents of s, are duplicates.
func (s *Snapshot) IsDuplicate(a, b *Doc) bool {
	found := false
	s.EachDuplicate(a, func(y *Doc) bool {
		found = y == b
		return !found
	})
	return found
}

// ContentDuplicates reports whether two contents are duplicates under tok
// (nil: Spec), by the definition above: the reference the snapshot's
// tables agree with.
func ContentDuplicates(tok *Analyzer, a, b string) bool {
	if tok == nil {
		tok = Spec()
	}
	if h := contentHash(a); h != emptyHash && h == contentHash(b) && dupNormal(a) == dupNormal(b) {
		return true
	}
	xs, ys := contentTerms(tok, a), contentTerms(tok, b)
	return len(xs) > 0 && len(ys) > 0 && jaccardOK(interSorted(xs, ys), len(xs), len(ys)) && valueGuard(a, b)
}

// dupNormal is content after NFKC and lower-casing (the tokenizer's
// normalize) and white space collapsing (one space for each run, none at
// the ends).
func dupNormal(s string) string {
	s = normalize(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// emptyHash is the hash of an empty (or all white space) content, which
// duplicates nothing: an empty placeholder is no copy of another.
const emptyHash = uint64(14695981039346656037) // no word hashed

// contentHash is the hash of dupNormal(s): FNV-1a over its bytes taken
// eight at a time (little endian, the last word padded with zeros).
func contentHash(s string) uint64 { return hashNormal(normalize(s)) }

// hashNormal is contentHash of a text already normalized, made without
// building dupNormal: a build hashes the content its tokenizer has just
// normalized. Eight bytes a multiply keep it off a build's profile.
func hashNormal(s string) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	var acc uint64
	n := uint(0)
	space, started := false, false
	for i := 0; i < len(s); {
		c := s[i]
		w := 1
		if c < utf8.RuneSelf {
			if c == ' ' || '\t' <= c && c <= '\r' {
				space = started
				i++
				continue
			}
		} else {
			var r rune
			r, w = utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				space = started
				i += w
				continue
			}
		}
		if space {
			acc |= uint64(' ') << (8 * n)
			if n++; n == 8 {
				h, acc, n = (h^acc)*prime, 0, 0
			}
			space = false
		}
		started = true
		for end := i + w; i < end; i++ {
			acc |= uint64(s[i]) << (8 * n)
			if n++; n == 8 {
				h, acc, n = (h^acc)*prime, 0, 0
			}
		}
	}
	if n > 0 {
		h = (h ^ acc) * prime
	}
	return h
}

// contentTerms returns the distinct index terms of content, sorted.
func contentTerms(tok *Analyzer, content string) []string {
	ts, _ := tok.appendTokens(nil, content)
	slices.Sort(ts)
	return slices.Compact(ts)
}

// jaccardOK reports whether inter shared terms of sets of nx and ny terms
// make a Jaccard similarity of at least NearNum/NearDen.
func jaccardOK(inter, nx, ny int) bool {
	return nx > 0 && ny > 0 && inter*NearDen >= NearNum*(nx+ny-inter)
}

// lenOK is the length filter: sets of nx and ny terms can reach the
// threshold only when the smaller is at least NearNum/NearDen of the
// larger.
func lenOK(nx, ny uint32) bool {
	return nx > 0 && ny > 0 && uint64(ny)*NearDen >= NearNum*uint64(nx) && uint64(nx)*NearDen >= NearNum*uint64(ny)
}

// termSig is the bit of a content term in a document's signature: the
// signature is the OR of its terms' bits.
func termSig(t string) uint64 {
	h := termHash(t)
	return 1 << ((h ^ h>>32) & 63)
}

// sigOK is the signature filter, exact (it never drops a pair that meets
// the threshold): a bit set in one signature and not the other stands
// for at least one term the other lacks, so popcount(sx^sy) is a lower
// bound of the symmetric difference Δ, and Jaccard ≥ t holds only when
// Δ·(1+t) ≤ (1−t)·(nx+ny).
func sigOK(sx, sy uint64, nx, ny uint32) bool {
	return uint64(bits.OnesCount64(sx^sy))*(NearDen+NearNum) <= (NearDen-NearNum)*(uint64(nx)+uint64(ny))
}

// prefixLen is how many of the n terms of a set a near duplicate must
// share at least one of: n − ⌈t·n⌉ + 1.
func prefixLen(n int) int { return n - (NearNum*n+NearDen-1)/NearDen + 1 }

// interSorted counts the strings two sorted, distinct slices share.
func interSorted(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			n++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return n
}

// valueGuard reports whether the words in which a and b differ carry no
// value: a word (a run of letters, marks and digits, with inner
// apostrophes) found in one text and not the other, compared after NFKC
// and lower-casing, must hold no digit ("10:00" against "11:00"), must not
// be capitalized where it is written (a name: "Alice" against "Carol"),
// and must not be a negation ("not", "never", "isn't", "nicht", "不"):
// the same template with other values, or a sentence and its denial,
// are different memories however many terms they share.
//
// Two texts equal after dupNormal differ in no word (NFKC, lower case
// and white space leave every word's letters, digits and marks where
// they were), so they pass without the word diff: the copies of one
// note, the common case of a build's pairs, cost one comparison.
func valueGuard(a, b string) bool {
	if a == b || contentHash(a) == contentHash(b) && dupNormal(a) == dupNormal(b) {
		return true
	}
	return wordsCarryNoValue(a, b)
}

// wordsCarryNoValue is valueGuard's word diff.
func wordsCarryNoValue(a, b string) bool {
	wa, wb := valueWords(a), valueWords(b)
	for w, capital := range wa {
		if _, ok := wb[w]; !ok && carriesValue(w, capital) {
			return false
		}
	}
	for w, capital := range wb {
		if _, ok := wa[w]; !ok && carriesValue(w, capital) {
			return false
		}
	}
	return true
}

// valueWords maps the lower-cased words of s to whether one of their
// occurrences starts with a capital.
func valueWords(s string) map[string]bool {
	s = norm.NFKC.String(s)
	m := map[string]bool{}
	add := func(w string) {
		w = strings.TrimRight(w, "'’")
		if w == "" {
			return
		}
		r, _ := utf8.DecodeRuneInString(w)
		lw := strings.ToLower(w)
		m[lw] = m[lw] || unicode.IsUpper(r) || unicode.IsTitle(r)
	}
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || start >= 0 && (r == '\'' || r == '’') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			add(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		add(s[start:])
	}
	return m
}

// negations are the words valueGuard treats as a denial.
var negations = map[string]bool{
	"no": true, "not": true, "never": true, "nor": true, "none": true, "nobody": true,
	"nothing": true, "nowhere": true, "neither": true, "cannot": true, "without": true,
	"nicht": true, "kein": true, "keine": true, "keinen": true, "nie": true, "niemals": true,
	"ne": true, "pas": true, "jamais": true, "aucun": true, "aucune": true, "non": true,
	"nunca": true, "nada": true, "ningún": true, "ninguna": true, "nessuno": true, "mai": true,
}

// carriesValue reports whether a word that differs between two texts
// makes them different memories (valueGuard).
func carriesValue(w string, capital bool) bool {
	if capital || negations[w] || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t") {
		return true
	}
	return strings.ContainsFunc(w, func(r rune) bool {
		return unicode.IsDigit(r) || strings.ContainsRune("不没沒無无未別别", r)
	})
}
