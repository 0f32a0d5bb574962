package index

import (
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// BM25 parameters of SPEC §4.
const (
	K1 = 1.5
	B  = 0.75
)

// Doc is one entry as the index sees it. The index keeps the content so
// that a retrieve can return it without touching the store.
//
// A base segment holds one Doc per entry, so it is kept small (56 bytes):
// |D| lives in the segment's dense length table, an overlay document's |D|
// and terms in its ovDoc.
type Doc struct {
	Category string
	Name     string
	Content  string

	ord int32  // position in the snapshot, for callers aligning side data
	est uint32 // EstTokens of name and content
}

// Ord is a dense number in [0, Snapshot.Len()) unique within one snapshot.
// Callers use it to align per-document data (vectors, for example) with
// the snapshot; it changes between snapshots.
func (d *Doc) Ord() int { return int(d.ord) }

// DocLen is the number of index terms of d, |D| in SPEC §4: read from s's
// tables for a document of s (from Lookup, Doc, Docs, Search...), counted
// from the text for any other.
func (s *Snapshot) DocLen(d *Doc) int {
	if s.isBaseDoc(d) {
		return int(s.base.lens[d.ord])
	}
	if o := s.ovDocOf(d); o != nil {
		return int(o.len)
	}
	toks, _ := s.tok.appendDocTokens(nil, d.Name, "", d.Content)
	return len(toks)
}

// isBaseDoc reports whether d is a document of s's base segment.
func (s *Snapshot) isBaseDoc(d *Doc) bool {
	return d.ord >= 0 && int(d.ord) < len(s.base.docs) && &s.base.docs[d.ord] == d
}

// ovDocOf returns the overlay document of s that d is, or nil.
func (s *Snapshot) ovDocOf(d *Doc) *ovDoc {
	i := int(d.ord) - len(s.base.docs)
	if i < 0 || i >= len(s.overlay) || s.overlay[i] == nil || &s.overlay[i].Doc != d {
		return nil
	}
	return s.overlay[i]
}

// TokensEst is EstTokens(name + "\n" + content), SPEC §7's tokens_est,
// computed once when the document is indexed.
func (d *Doc) TokensEst() int { return int(d.est) }

// posting is one (doc, tf) pair while a build collects a term's list; the
// segment keeps its postings as parallel arrays (see segment).
type posting struct {
	doc uint32
	tf  uint32
}

// tfEscape in a segment's tf array stands for a tf of 255 or more, whose
// exact value is in the segment's bigTF table.
const tfEscape = 255

// bigTFs holds the tfs of 255 or more, by position in the segment's
// posting arrays: rare (a word repeated 255 times in one entry).
type bigTFs struct {
	pos []uint32 // sorted
	tf  []uint32
}

// get returns the tf of the posting at position p, which must be escaped.
func (b *bigTFs) get(p uint32) uint32 {
	i, _ := slices.BinarySearch(b.pos, p)
	return b.tf[i]
}

// add records the tf of the posting at position p, past every position
// recorded so far, and returns the byte the tf array stores for it.
func (b *bigTFs) add(p, tf uint32) uint8 {
	if tf < tfEscape {
		return uint8(tf)
	}
	b.pos = append(b.pos, p)
	b.tf = append(b.tf, tf)
	return tfEscape
}

// plist is one term's posting list: its docs (ascending) and their tfs,
// parallel subslices of the segment's arrays, and where they start there
// (for the escaped tfs). Scoring loops read docs[i] and tfs[i] and call
// bigAt only for tfs[i] == tfEscape.
type plist struct {
	docs []uint32
	tfs  []uint8
	at   uint32
	big  *bigTFs
}

// tf returns the tf of the i-th posting.
func (l *plist) tf(i int) uint32 {
	if t := l.tfs[i]; t != tfEscape {
		return uint32(t)
	}
	return l.bigAt(i)
}

// bigAt returns the exact tf of the i-th posting, which is escaped.
func (l *plist) bigAt(i int) uint32 { return l.big.get(l.at + uint32(i)) }

// plainEnd returns the position of l's first escaped tf at or after lo,
// or len(l.docs): tfs[lo:plainEnd(lo)] are the exact tfs, for loops that
// keep the escape test (and the call it may make) out of their body.
func (l *plist) plainEnd(lo int) int {
	pos := l.big.pos
	if len(pos) == 0 {
		return len(l.docs)
	}
	i, _ := slices.BinarySearch(pos, l.at+uint32(lo))
	if i < len(pos) && pos[i] < l.at+uint32(len(l.docs)) {
		return int(pos[i] - l.at)
	}
	return len(l.docs)
}

// sub returns the postings [lo, hi) of l.
func (l *plist) sub(lo, hi int) plist {
	return plist{docs: l.docs[lo:hi:hi], tfs: l.tfs[lo:hi:hi], at: l.at + uint32(lo), big: l.big}
}

// list returns term id's postings.
func (seg *segment) list(id uint32) plist {
	a, b := seg.starts[id], seg.starts[id+1]
	return plist{docs: seg.pdocs[a:b:b], tfs: seg.ptfs[a:b:b], at: a, big: &seg.bigTF}
}

// listLen returns the length of term id's list.
func (seg *segment) listLen(id uint32) int { return int(seg.starts[id+1] - seg.starts[id]) }

// nTerms is the number of terms with a list.
func (seg *segment) nTerms() int { return len(seg.starts) - 1 }

type docKey struct{ category, name string }

// segment is an immutable inverted index over a set of docs.
type segment struct {
	// docs are in identity order (compareIdentity: category, then name),
	// which is the result order of equal scores: a tie between two base
	// documents is decided by their ords, without reading their names.
	// Build sorts them; Decode refuses a copy that is not in order.
	docs     []Doc
	keys     keyTable  // identity → ord
	fold     foldTable // folded name → ords, built on first use (foldnames.go)
	terms    termDict  // term text → id (terms.go)
	totalLen uint64

	// The postings of every term, one list after the other in term id
	// order, as parallel arrays (5 bytes a posting): term id's list is
	// [starts[id], starts[id+1]), its docs ascending; a tf of 255 or more
	// is stored as tfEscape and found in bigTF. len(starts) is the number
	// of terms + 1.
	pdocs  []uint32
	ptfs   []uint8
	starts []uint32
	bigTF  bigTFs

	// lens is |D| by doc, dense: the scoring loops read it once per
	// posting, and a 4-byte array stays in cache where the Doc records
	// (72 bytes each) do not.
	lens []uint32
	// dateAt and dateKind are the documents' dates, dense (dated.go): 9
	// bytes a document; dated sorts them, on first use.
	dateAt   []int64
	dateKind []uint8
	dated    byDate
	// extra holds Input.Extra of the documents that have one, by ord
	// (extra.go): sparse, most documents carry none.
	extra map[uint32]string
	// aliases holds Input.Aliases of the documents that have some, one a
	// line, by ord (titles.go): sparse like extra.
	aliases map[uint32]string
	// bounds and blocks are the score bounds of the pruned search
	// (bounds.go), by term and by block of blockSize postings, for the
	// terms in longIDs (sorted), whose lists are longer than one block.
	longIDs []uint32
	bounds  []termBound
	blocks  []block

	names  baseNames  // see names.go
	titles []titleRec // see titles.go

	// dup is the duplicate data (dup.go); nil when detection is off.
	dup *dupTable

	// impacts holds the impact orders of long lists, by term id, made on
	// first use (impact.go).
	impacts sync.Map
	// dense holds the membership bitmaps of dense lists, by term id,
	// made on first use (dense.go).
	dense sync.Map
	// cacheBytes is what impacts and dense hold (cachebudget.go).
	cacheBytes atomic.Int64
}

// Snapshot is an immutable BM25 index over the entries of a store at one
// revision. It is safe for concurrent use; writes produce a new Snapshot
// (With, Without) and never change an existing one.
//
// A snapshot is a base segment plus a small overlay of documents written
// since the base was built and a set of base documents that are dead
// (deleted or replaced). Scores are exact Okapi BM25 over the live
// documents whatever the shape: N, df and avgdl count live documents only.
type Snapshot struct {
	rev uint64
	tok *Analyzer

	base  *segment
	dead  []uint64 // bitset over base docs
	nDead int
	// deadPost and ovPost index the dead base docs and the overlay docs
	// by term (overlay.go); deadRecent and ovRecent are their small
	// levels of the latest writes' postings.
	deadPost   []deadPosting
	ovPost     []ovPosting
	ovIdx      ovIndex // where ovPost's hashes start, by their top bits
	deadRecent []deadPosting
	ovRecent   []ovPosting

	overlay []*ovDoc // overlay docs, ord = len(base.docs)+i; nil where deleted

	onames nameSlots // overlay indexes by name; see names.go
	ofold  nameSlots // overlay indexes by folded name; see foldnames.go

	// ovDup is the duplicate relation of the pairs With found, which
	// involve an overlay document: ord → ords, both ways (dup.go).
	ovDup map[int32][]int32

	n        int    // live docs
	totalLen uint64 // of live docs
}

// Input is what Build reads per entry.
type Input struct {
	Category, Name, Content string
	// Date places the document in time (a memory's effective date: when
	// it happened, else when it was written); zero means none, and such a
	// document is outside every TimeRange with a bound. Day says Date is
	// a calendar day without a zone (its year, month and day in UTC),
	// which a range reads in the range's own zone (see TimeRange).
	Date time.Time
	Day  bool
	// Written says Date is when the entry was written (its created time,
	// standing in for an event date it lacks); ranges treat it as any
	// instant, Doc.Date reports it.
	Written bool
	// Extra is data the caller keeps with the document, which the index
	// neither reads nor scores but returns (Snapshot.Extra, Input, EachExtra)
	// and persists with it; "" for none (retrieve keeps an entry's validity
	// metadata there).
	Extra string
	// Aliases are other names of the document (a note's front matter
	// aliases). They are indexed as part of its name, and a query made of
	// exactly the terms of the name or of one alias finds it by Titled;
	// nil for none. The index keeps them (Snapshot.Input) and persists them.
	Aliases []string
}

// Build indexes docs with the analyzer tok (nil: Spec) and tags the
// snapshot with rev. Later duplicates of an identity replace earlier ones.
func Build(rev uint64, tok *Analyzer, docs []Input) *Snapshot {
	return BuildWith(rev, tok, docs, BuildOptions{})
}

// buildSegment indexes in; with dups it also finds the duplicates among
// them (dupbuild.go).
func buildSegment(tok *Analyzer, in []Input, dups bool) *segment {
	seg := &segment{
		docs:  make([]Doc, 0, len(in)),
		keys:  newKeyTable(len(in)),
		terms: newTermDict(1024, 8<<10),
	}
	// Dedupe identities, last one wins.
	dates := make([]dateRec, 0, len(in))
	var extras map[uint32]string  // by ord before the sort
	var aliases map[uint32]string // the same for Input.Aliases (titles.go)
	for _, d := range in {
		ord := uint32(len(seg.docs))
		seg.docs = append(seg.docs, Doc{Category: d.Category, Name: d.Name, Content: d.Content, ord: int32(ord)})
		if i, added := seg.keys.add(seg.docs, ord); !added {
			seg.docs[i].Content = d.Content
			dates[i] = dateOf(d)
			seg.docs = seg.docs[:ord]
			ord = i
		} else {
			dates = append(dates, dateOf(d))
		}
		switch {
		case d.Extra != "":
			if extras == nil {
				extras = map[uint32]string{}
			}
			extras[ord] = d.Extra
		case extras != nil:
			delete(extras, ord)
		}
		switch al := aliasText(d.Aliases); {
		case al != "":
			if aliases == nil {
				aliases = map[uint32]string{}
			}
			aliases[ord] = al
		case aliases != nil:
			delete(aliases, ord)
		}
	}
	// Then in identity order (see segment.docs), the dates with them. A
	// store's listing is usually in that order already (bolt's key
	// order), which costs one pass to confirm.
	if !slices.IsSortedFunc(seg.docs, compareIdentity) {
		perm := make([]int32, len(seg.docs))
		for i := range perm {
			perm[i] = int32(i)
		}
		slices.SortFunc(perm, func(a, b int32) int { return compareIdentity(seg.docs[a], seg.docs[b]) })
		docs, ds := make([]Doc, len(perm)), make([]dateRec, len(perm))
		var xs, as map[uint32]string
		for i, p := range perm {
			docs[i], ds[i] = seg.docs[p], dates[p]
			if x, ok := extras[uint32(p)]; ok {
				if xs == nil {
					xs = make(map[uint32]string, len(extras))
				}
				xs[uint32(i)] = x
			}
			if a, ok := aliases[uint32(p)]; ok {
				if as == nil {
					as = make(map[uint32]string, len(aliases))
				}
				as[uint32(i)] = a
			}
		}
		seg.docs, dates, extras, aliases = docs, ds, xs, as
		seg.keys = newKeyTable(len(seg.docs))
		for i := range seg.docs {
			seg.docs[i].ord = int32(i)
			seg.keys.add(seg.docs, uint32(i))
		}
	}
	seg.setDates(dates)
	seg.extra = extras
	seg.aliases = aliases
	seg.lens = make([]uint32, len(seg.docs))
	var (
		lists    [][]posting
		lastSeen []uint32 // doc+1 that last touched each term
		toks     []string
		tb       titleBuilder
		fw       *forward // content terms by document, for the duplicates
	)
	if dups {
		fw = newForward(seg.docs)
	}
	for i := range seg.docs {
		d := &seg.docs[i]
		// IndexText(name, aliases, content), without building the string
		// (appendDocTokens, with the name's terms read for the titles).
		var e1, e2 int
		toks, e1 = tok.appendNameTokens(toks[:0], d.Name)
		al := seg.aliases[uint32(i)]
		tb.add(tok, uint32(i), toks, al)
		if al != "" {
			toks, _ = tok.appendTokens(toks, al)
		}
		nameToks := len(toks) // the name's and aliases' terms: no content
		var normal string     // the content normalized, for its hash
		if fw != nil {
			normal = normalize(d.Content)
			toks, e2 = tok.appendNormal(toks, normal)
		} else {
			toks, e2 = tok.appendTokens(toks, d.Content)
		}
		d.est = uint32(e1 + e2)
		seg.lens[i] = uint32(len(toks))
		seg.totalLen += uint64(len(toks))
		for k, t := range toks {
			id, added := seg.terms.add(t)
			if added {
				lists = append(lists, nil)
				lastSeen = append(lastSeen, 0)
			}
			if fw != nil && k >= nameToks {
				fw.term(id)
			}
			if lastSeen[id] != uint32(i)+1 {
				lastSeen[id] = uint32(i) + 1
				lists[id] = append(lists[id], posting{doc: uint32(i), tf: 1})
			} else {
				lists[id][len(lists[id])-1].tf++
			}
		}
		if fw != nil {
			fw.end(normal)
		}
	}
	// Pack every list into the segment's arrays, exactly sized: append's
	// slack would otherwise cost up to half the postings memory for as
	// long as the snapshot lives.
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	if total > math.MaxUint32 {
		panic("index: more than 2^32 postings in one segment")
	}
	seg.titles = tb.table()
	seg.pdocs = make([]uint32, 0, total)
	seg.ptfs = make([]uint8, 0, total)
	seg.starts = make([]uint32, 1, len(lists)+1)
	for id, l := range lists {
		for _, p := range l {
			seg.ptfs = append(seg.ptfs, seg.bigTF.add(uint32(len(seg.pdocs)), p.tf))
			seg.pdocs = append(seg.pdocs, p.doc)
		}
		seg.starts = append(seg.starts, uint32(len(seg.pdocs)))
		lists[id] = nil
	}
	seg.bigTF.pos = slices.Clip(seg.bigTF.pos)
	seg.bigTF.tf = slices.Clip(seg.bigTF.tf)
	seg.terms.done()
	seg.buildBounds()
	if fw != nil {
		seg.dup = fw.detect(seg)
	}
	return seg
}

// Revision is the store revision the snapshot reflects.
func (s *Snapshot) Revision() uint64 { return s.rev }

// Analyzer is the analyzer documents were indexed with; queries must use
// the same one. Its Name is the snapshot's analyzer identity.
func (s *Snapshot) Analyzer() *Analyzer { return s.tok }

// Len is one more than the largest Doc.Ord in the snapshot.
func (s *Snapshot) Len() int { return len(s.base.docs) + len(s.overlay) }

// Count is the number of live documents.
func (s *Snapshot) Count() int { return s.n }

func (s *Snapshot) isDead(i uint32) bool {
	return s.nDead > 0 && s.dead[i/64]&(1<<(i%64)) != 0
}

// Lookup returns the live document with the identity, or nil.
func (s *Snapshot) Lookup(category, name string) *Doc {
	if i, ok := s.overlayIndex(category, name); ok {
		return &s.overlay[i].Doc
	}
	if i, ok := s.base.keys.find(s.base.docs, category, name); ok && !s.isDead(i) {
		return &s.base.docs[i]
	}
	return nil
}

// Docs calls fn for every live document, in Ord order, until fn returns false.
func (s *Snapshot) Docs(fn func(*Doc) bool) {
	for i := range s.base.docs {
		if s.isDead(uint32(i)) {
			continue
		}
		if !fn(&s.base.docs[i]) {
			return
		}
	}
	for _, d := range s.overlay {
		if d != nil && !fn(&d.Doc) {
			return
		}
	}
}

// Terms analyses a query and returns its distinct terms, sorted.
func (s *Snapshot) Terms(query string) []string {
	toks := s.tok.Tokens(query)
	slices.Sort(toks)
	return slices.Compact(toks)
}

// Query analyses a query with the snapshot's analyzer: its distinct terms
// and the words they came from (see Query.Words).
func (s *Snapshot) Query(query string) Query { return s.tok.Query(query) }

// TermFreq returns tf(term, d).
func (s *Snapshot) TermFreq(d *Doc, term string) int {
	if !s.isBaseDoc(d) {
		if o := s.ovDocOf(d); o != nil {
			return int(o.tf[term])
		}
		// Not a document of s: count in its text.
		n := 0
		toks, _ := s.tok.appendDocTokens(nil, d.Name, "", d.Content)
		for _, t := range toks {
			if t == term {
				n++
			}
		}
		return n
	}
	id, ok := s.base.terms.id(term)
	if !ok {
		return 0
	}
	l := s.base.list(id)
	i, found := findPosting(l.docs, uint32(d.ord))
	if !found {
		return 0
	}
	return int(l.tf(i))
}

// MatchedTerms returns the terms (sorted, distinct, as given) present in d.
func (s *Snapshot) MatchedTerms(d *Doc, terms []string) []string {
	var out []string
	for _, t := range terms {
		if s.TermFreq(d, t) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Scored is a document with its BM25 score.
type Scored struct {
	Doc   *Doc
	Score float64
	// Matched has bit i set when terms[i] occurs in Doc, for the first 64
	// terms of the query (see Snapshot.Matched). Search fills it.
	Matched uint64
}

// Score calls fn for every live document with a BM25 score > 0 for the
// distinct query terms, in no particular order.
func (s *Snapshot) Score(terms []string, fn func(d *Doc, score float64)) {
	p := s.plan(terms)
	if p == nil {
		return
	}
	_ = p.exhaustive(func(ord uint32, score float64, _ uint64) { fn(s.Doc(int(ord)), score) })
}

// Search returns the top limit documents by BM25 score for the distinct
// query terms, best first; ties by category, then name, ascending.
// limit <= 0 means no limit. It is Top without cancellation.
func (s *Snapshot) Search(terms []string, limit int) []Scored {
	out, _ := s.Top(TopQuery{Terms: terms, Limit: limit})
	return out
}

// Matched returns the terms (as given) whose bits are set in mask, as
// Search reports them in Scored.Matched; terms past the 64th are looked up
// in d.
func (s *Snapshot) Matched(d *Doc, terms []string, mask uint64) []string {
	var out []string
	for i, t := range terms {
		if i < 64 && mask&(1<<i) != 0 || i >= 64 && s.TermFreq(d, t) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// compareIdentity orders documents by category, then name (bytewise):
// the order of equal scores in results (Less).
func compareIdentity(a, b Doc) int {
	if c := strings.Compare(a.Category, b.Category); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// Less orders results: higher score first, then category, then name.
func Less(a, b Scored) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if a.Doc.Category != b.Doc.Category {
		return a.Doc.Category < b.Doc.Category
	}
	return a.Doc.Name < b.Doc.Name
}

// TopK keeps the best k pushed results under Less. The zero value keeps
// everything. Not safe for concurrent use.
type TopK struct {
	k    int
	heap []Scored // min-heap under Less: heap[0] is the worst kept
}

// Reset empties t and sets its capacity; k <= 0 means unlimited.
func (t *TopK) Reset(k int) {
	t.k = k
	t.heap = t.heap[:0]
}

// Push offers a result.
func (t *TopK) Push(d *Doc, score float64) { t.push(d, score, 0) }

func (t *TopK) push(d *Doc, score float64, matched uint64) {
	// Most candidates of a large result lose to the worst kept one on the
	// score alone: reject them before building anything.
	if t.k > 0 && len(t.heap) == t.k && score < t.heap[0].Score {
		return
	}
	x := Scored{Doc: d, Score: score, Matched: matched}
	if t.k <= 0 {
		t.heap = append(t.heap, x)
		return
	}
	if len(t.heap) < t.k {
		t.heap = append(t.heap, x)
		t.up(len(t.heap) - 1)
		return
	}
	if !Less(x, t.heap[0]) {
		return
	}
	t.heap[0] = x
	t.down(0)
}

// Sorted returns the kept results, best first.
func (t *TopK) Sorted() []Scored {
	out := slices.Clone(t.heap)
	slices.SortFunc(out, func(a, b Scored) int {
		switch {
		case Less(a, b):
			return -1
		case Less(b, a):
			return 1
		}
		return 0
	})
	return out
}

// worse reports whether heap[i] should sit above heap[j] in the min-heap.
func (t *TopK) worse(i, j int) bool { return Less(t.heap[j], t.heap[i]) }

func (t *TopK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.worse(i, p) {
			break
		}
		t.heap[i], t.heap[p] = t.heap[p], t.heap[i]
		i = p
	}
}

func (t *TopK) down(i int) {
	n := len(t.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && t.worse(r, l) {
			m = r
		}
		if !t.worse(m, i) {
			return
		}
		t.heap[i], t.heap[m] = t.heap[m], t.heap[i]
		i = m
	}
}

// BaseLen is the number of documents in the snapshot's base segment:
// Ords below it are base documents, shared (same *Doc, same Ord) by every
// snapshot derived from this one through With and Without until a
// compaction makes a new base. Callers caching per-document data by Ord
// key it by base (see SameBase).
func (s *Snapshot) BaseLen() int { return len(s.base.docs) }

// SameBase reports whether s and o share their base segment.
func (s *Snapshot) SameBase(o *Snapshot) bool { return o != nil && s.base == o.base }

// Doc returns the live document with the Ord, or nil when there is none
// (deleted, replaced, or out of range).
func (s *Snapshot) Doc(ord int) *Doc {
	switch {
	case ord < 0:
		return nil
	case ord < len(s.base.docs):
		if s.isDead(uint32(ord)) {
			return nil
		}
		return &s.base.docs[ord]
	case ord < s.Len():
		if o := s.overlay[ord-len(s.base.docs)]; o != nil {
			return &o.Doc
		}
	}
	return nil
}
