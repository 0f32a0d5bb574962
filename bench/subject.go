package bench

import (
	"context"
)

// Subject is one system under test, holding one dataset: recall in one
// mode, or a peer such as Bleve. The runner calls Load, Build, Search as
// often as it needs, then Close, all from one goroutine; a Subject need not
// be safe for concurrent use.
type Subject interface {
	// Load writes the documents to the subject's storage.
	Load(ctx context.Context, ds *Dataset) error
	// Build makes the loaded documents searchable.
	Build(ctx context.Context) error
	// Search returns at most k documents for the query, best first, under
	// the subject's own document ids (see idMapper).
	Search(ctx context.Context, query string, k int) ([]Hit, error)
	// Close releases everything the subject holds, temporary files
	// included.
	Close() error
}

// Mode makes fresh Subjects of one kind, one per dataset.
type Mode struct {
	// Name identifies the mode in reports: "bm25", "bleve-bm25".
	Name string
	// System is "recall" or the peer's name.
	System string
	// New returns an empty subject.
	New func() (Subject, error)
}

// SystemRecall is the System of recall's own modes.
const SystemRecall = "recall"

// Optional capabilities of a Subject, found by type assertion.
type (
	// preparer pays a once-per-process cost (loading gse's dictionary)
	// before the timed phases, so that it is reported on its own rather
	// than inside the build time or the first query's latency. The
	// returned note, if any, goes into the result's notes.
	preparer interface {
		Prepare(ctx context.Context, ds *Dataset) (note string, err error)
	}
	// embedder fills a subject's vectors after Build; the runner times it
	// as the embed phase.
	embedder interface {
		Embed(ctx context.Context) error
	}
	// ranker ranks without assembling a result: for recall, tokenizing
	// and BM25 top-k on the index snapshot, which is what a peer's Search
	// does; retrieve then builds items (content, matched terms, token
	// estimates) on top.
	ranker interface {
		Rank(ctx context.Context, query string, k int) error
	}
	// agentSearcher runs recall's default agent retrieve (limit 10,
	// budget 800, links on), timed as a separate latency figure.
	agentSearcher interface {
		AgentSearch(ctx context.Context, query string) error
	}
	// idMapper is a subject whose document ids are not the dataset's
	// (recall's entry names follow SPEC §1's rules, so an id such as
	// "<dbpedia:Foo>" is stored under an escaped name): the runner maps
	// the hits it evaluates back to the dataset's ids with DatasetIDs,
	// outside the timed calls, since that lookup is the benchmark's
	// bookkeeping, not part of answering the query.
	idMapper interface {
		DatasetIDs(hits []Hit)
	}
	// noter adds notes about a finished run (for example whether the
	// embedding path really ran).
	noter interface {
		Notes() []string
	}
)
