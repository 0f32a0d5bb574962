package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// Names of recall's modes.
const (
	// ModeBM25 is BM25 with CJK bigrams (segmenter off) and the
	// configured analyzer: the default and the one compared with peers.
	ModeBM25 = "bm25"
	// ModeBM25GSE is BM25 with gse dictionary segmentation of CJK text.
	ModeBM25GSE = "bm25-gse"
	// ModeFusion fuses BM25 (bigrams) with the cosine similarity of an
	// embedder's vectors (SPEC §6). Reports name it after the embedder's
	// provider: "fusion-hash", "fusion-ollama".
	ModeFusion = "fusion"
)

// Backend is the kind of store recall's modes load documents into.
type Backend string

const (
	// BackendBolt is one bbolt file, written without fsync (NoSync): the
	// bench measures recall, not the disk.
	BackendBolt Backend = "bolt"
	// BackendFS is one markdown file per entry, each written atomically
	// with fsync, as a user's store is.
	BackendFS Backend = "fs"
)

// ParseBackend parses "bolt" or "fs".
func ParseBackend(s string) (Backend, error) {
	switch b := Backend(strings.ToLower(strings.TrimSpace(s))); b {
	case BackendBolt, BackendFS:
		return b, nil
	}
	return "", fmt.Errorf("unknown backend %q (want bolt or fs)", s)
}

// RecallOptions configure a recall mode.
type RecallOptions struct {
	// Backend is the store; the zero value means BackendBolt.
	Backend Backend
	// TempDir is where fresh stores are made (and removed after use);
	// empty means os.TempDir().
	TempDir string
	// PRF, when set, answers with RM3 pseudo-relevance feedback over the
	// engine's snapshot instead of Engine.Retrieve (ModeBM25PRF).
	PRF *PRF
	// GSEDict is the gse dictionary of ModeBM25GSE; empty means
	// gse.DictSimplified.
	GSEDict string
	// Retrieve configures the engine; Retrieve.Analyzer (nil:
	// index.Default()) is every mode's analyzer, to which ModeBM25GSE
	// attaches gse. When Retrieve.Embedder is set and
	// Retrieve.Vectors is not, the mode fills a vector cache over the
	// bench's store with the embedder after the build (timed as the embed
	// phase) and retrieves with fusion.
	Retrieve retrieve.Options
	// Cache tunes that vector cache (batch size, concurrency).
	Cache cache.Options
}

// RecallMode returns a mode that runs recall with opts under name.
func RecallMode(name string, opts RecallOptions) Mode {
	return Mode{Name: name, System: SystemRecall, New: func() (Subject, error) {
		return &recallSubject{opts: opts}, nil
	}}
}

// errSkip tells the runner that an optional phase does not apply to this
// subject (no vectors to embed, no separate ranking to time).
var errSkip = errors.New("phase does not apply")

// recallSubject loads a dataset into a fresh store, one entry per
// document (category = dataset, name = EntryName(id), content = title +
// " " + text), and answers with retrieve.Engine.
type recallSubject struct {
	opts RecallOptions

	dir      string
	st       store.Store
	eng      *retrieve.Engine
	category string
	ids      map[string]string // entry name → document id, where they differ

	// Fusion only.
	vectors *cache.Cache
	texts   []string       // the indexed texts, as the cache keys them
	seen    map[string]int // times each query was asked
	asked   int            // retrieves in the quality pass
	fused   int            // of which the embedding path answered
}

var (
	_ ranker        = (*recallSubject)(nil)
	_ agentSearcher = (*recallSubject)(nil)
	_ idMapper      = (*recallSubject)(nil)
)

func (s *recallSubject) Prepare(ctx context.Context, ds *Dataset) (string, error) {
	seg, ok := s.opts.Retrieve.Analyzer.Segmenter().(*gse.Segmenter)
	// Not only for Chinese sets: a few CJK characters in an English corpus
	// (dbpedia has some) would load the dictionary inside the build.
	if !ok {
		return "", nil
	}
	// The dictionary loads on the first CJK text a segmenting analyzer
	// sees; pay for it here, outside the timed phases.
	was := gse.Loaded()
	start := time.Now()
	loaded := seg.Load()
	took := time.Since(start)
	switch {
	case !loaded:
		return fmt.Sprintf("gse dictionary %s could not be loaded: bigrams were used", seg.Dict()), nil
	case was && took < time.Millisecond:
		return "", nil
	}
	return fmt.Sprintf("gse dictionary %s loaded in %.2f s, outside the build and query times", seg.Dict(), took.Seconds()), nil
}

func (s *recallSubject) Load(ctx context.Context, ds *Dataset) error {
	cat, err := EntryName(ds.Name)
	if err != nil {
		return fmt.Errorf("dataset name as category: %w", err)
	}
	s.category = cat
	s.dir, err = os.MkdirTemp(s.opts.TempDir, "recall-bench-")
	if err != nil {
		return fmt.Errorf("make temp store: %w", err)
	}
	switch s.opts.Backend {
	case BackendFS:
		// Its cache beside it, so that removing the temp folder removes
		// everything the run made.
		s.st, err = fsstore.Open(filepath.Join(s.dir, "memory"), &fsstore.Options{CacheDir: filepath.Join(s.dir, "cache")})
	case BackendBolt, "":
		s.st, err = boltstore.Open(filepath.Join(s.dir, "memory.db"), &boltstore.Options{NoSync: true})
	default:
		err = fmt.Errorf("unknown backend %q", s.opts.Backend)
	}
	if err != nil {
		return err
	}
	s.ids = map[string]string{}
	b, batched := s.st.(store.Batcher)
	var pending []store.Entry
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		err := b.PutBatch(ctx, pending)
		pending = pending[:0]
		return err
	}
	for _, d := range ds.Docs {
		name, err := EntryName(d.ID)
		if err != nil {
			return err
		}
		if name != d.ID {
			s.ids[name] = d.ID
		}
		content := d.Content()
		if s.opts.Retrieve.Embedder != nil {
			s.texts = append(s.texts, index.EntryText(name, content))
		}
		e := store.Entry{Category: cat, Name: name, Content: content}
		if batched {
			// Bulk loads go through the store's batch writes.
			if pending = append(pending, e); len(pending) == 1000 {
				if err := flush(); err != nil {
					return fmt.Errorf("load documents: %w", err)
				}
			}
			continue
		}
		if err := s.st.Put(ctx, e); err != nil {
			return fmt.Errorf("load document %q: %w", d.ID, err)
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("load documents: %w", err)
	}
	return nil
}

func (s *recallSubject) Build(ctx context.Context) error {
	opts := s.opts.Retrieve
	if opts.Embedder != nil && opts.Vectors == nil {
		be, ok := s.st.(cache.Backend)
		if !ok {
			return fmt.Errorf("the %s store cannot hold vectors", s.opts.Backend)
		}
		s.vectors = cache.New(opts.Embedder, be, s.opts.Cache)
		opts.Vectors = s.vectors
		s.seen = map[string]int{}
	}
	s.eng = retrieve.New(s.st, opts)
	stats, err := s.eng.Rebuild(ctx)
	if err != nil {
		return err
	}
	if len(stats.Skipped) > 0 {
		return fmt.Errorf("build: %d entries could not be read, the first: %w", len(stats.Skipped), stats.Skipped[0])
	}
	return nil
}

// Embed fills the vector cache, through the store, with a vector for every
// entry's indexed text (index.EntryText, what retrieve looks vectors up
// by).
func (s *recallSubject) Embed(ctx context.Context) error {
	if s.vectors == nil {
		return errSkip
	}
	_, err := s.vectors.Sync(ctx, s.texts, nil)
	s.texts = nil
	return err
}

// fresh makes a query the engine has answered before look new to its
// query-vector cache, so that every timed fused retrieve pays for its
// query embedding as a new question would. Trailing spaces change no
// token: BM25 and the hash embedder see the same query.
func (s *recallSubject) fresh(query string) string {
	if s.seen == nil {
		return query
	}
	n := s.seen[query]
	s.seen[query] = n + 1
	return query + strings.Repeat(" ", n)
}

func (s *recallSubject) Search(ctx context.Context, query string, k int) ([]Hit, error) {
	if s.opts.PRF != nil {
		snap, err := s.eng.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		var hits []Hit
		for _, h := range rm3(snap, query, k, *s.opts.PRF) {
			hits = append(hits, Hit{ID: h.Doc.Name, Score: h.Score})
		}
		return hits, nil
	}
	res, err := s.eng.Retrieve(ctx, retrieve.Request{Query: s.fresh(query), Limit: k, Budget: retrieve.Unlimited, NoLinks: true, NoTime: true})
	if err != nil {
		return nil, err
	}
	if s.seen != nil && s.seen[query] == 1 {
		s.asked++
		if res.EmbeddingUsed {
			s.fused++
		}
	}
	hits := make([]Hit, 0, len(res.Items))
	for _, it := range res.Items {
		hits = append(hits, Hit{ID: it.Name, Score: it.Score})
	}
	return hits, nil
}

// DatasetIDs replaces the entry names of hits by the dataset's document
// ids. Most ids are their own names: the map holds only the others.
func (s *recallSubject) DatasetIDs(hits []Hit) {
	if len(s.ids) == 0 {
		return
	}
	for i, h := range hits {
		if id, ok := s.ids[h.ID]; ok {
			hits[i].ID = id
		}
	}
}

// Rank times the BM25 ranking alone. With fusion the ranking happens
// inside retrieve, so there is nothing separate to time.
func (s *recallSubject) Rank(ctx context.Context, query string, k int) error {
	if s.vectors != nil || s.opts.PRF != nil {
		return errSkip
	}
	snap, err := s.eng.Snapshot(ctx)
	if err != nil {
		return err
	}
	snap.Search(snap.Terms(query), k)
	return nil
}

func (s *recallSubject) AgentSearch(ctx context.Context, query string) error {
	if s.opts.PRF != nil {
		_, err := s.Search(ctx, query, retrieve.DefaultLimit)
		return err
	}
	_, err := s.eng.Retrieve(ctx, retrieve.Request{Query: s.fresh(query), NoTime: true})
	return err
}

func (s *recallSubject) Notes() []string {
	if s.vectors == nil {
		return nil
	}
	note := fmt.Sprintf("%s: the embedding path answered %d of %d queries", s.vectors.Model(), s.fused, s.asked)
	if s.fused < s.asked {
		note += " (the others fell back to BM25 alone: query embedding failed or timed out)"
	}
	return []string{note}
}

func (s *recallSubject) Close() error {
	var err error
	if s.st != nil {
		err = s.st.Close()
	}
	if s.dir != "" {
		err = errors.Join(err, os.RemoveAll(s.dir))
	}
	return err
}
