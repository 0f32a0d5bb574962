// Package retrieve is recall's read path (SPEC §7): given a query it returns
// the memories to put in an agent's prompt, each with the evidence of why.
//
// # Basics
//
//	eng := retrieve.New(st, retrieve.Options{})
//	res, err := eng.Retrieve(ctx, retrieve.Request{Query: "想去海边玩"})
//
// The pipeline is synchronous and makes no LLM call:
//
//  1. tokenize the query (the index's tokenizer; no terms → empty result);
//  2. score with BM25 and keep the top Limit entries with a score > 0 as
//     hits, ties broken by category, then name; the entries whose name or
//     front matter alias (store.Aliases) is made of exactly the query's
//     terms come first (index.Snapshot.Titled; titles.go);
//  3. expand one hop of wiki-links from each hit, right after it, skipping
//     entries that are hits anywhere in the list or were already injected;
//     links to missing entries are reported as written (without an embed's
//     '!') in Result.UnresolvedLinks, each once;
//  4. keep the longest prefix of items within the token budget (the first
//     item always), reporting the rest in Result.Dropped when Explain is set.
//
// # Sections of long notes
//
// Between steps 2 and 3, a hit whose tokens_est is over SectionMinTokens
// (400) and whose content has markdown headings is answered by its
// section that best matches the query (package section splits the
// content; the sections are ranked by BM25 with the index's idf, see
// sectionHits): Item.Section names it by its heading path ("Install > On
// Linux", IntroSection for the text before the first heading), and the
// item's Content, TokensEst and injected links are the section's (the
// links written in it: the entry's property links, which belong to no
// section, are injected only for a whole entry). Ranking
// is unchanged: Score and MatchedTerms are the entry's. Shorter hits,
// hits without headings, and hits no section of which holds a query term
// (a name match) stay whole, so a store without long sectioned notes
// answers as it did before sections existed. Request.WholeEntries turns
// the step off: the answer is then exactly the entry-level one.
//
// A note that comes back as a long hit a second time is split and
// analysed in full once, and kept in the Engine's section cache (at most
// 64 MiB, two generations, checked against the content and analyzer it
// was made from, so it answers for any snapshot and publishes none):
// from then on choosing its section looks up the query's terms instead of
// reading its text. A note seen once is counted for the query's terms
// only, which is cheaper for a note asked once. Both give the same
// section.
//
// # Links
//
// Links are written as Obsidian writes them: [[target]], [[target|label]],
// [[target#heading]], [[target#^block]], embeds ![[target]], and markdown
// links to notes [text](path/Note.md) (see ParseLinks); an entry's
// property links (wiki-links in its front matter, store.PropertyLinks)
// come first (Links.Of). A target resolves as Obsidian resolves it
// (Links.Resolve; the full rule is the README's "Links" section): recall's
// category:name exactly, else with case ignored; else by file name, case
// ignored, and path, the linking note's folder first, then the shortest
// path, a tie left unresolved; else by the aliases of one note
// (store.Aliases). Names are found through the index's name and
// case-folded name tables (index.Snapshot.LookupFold), never by a scan;
// Engine.Links keeps the alias table per snapshot, and the resolved links
// of the texts retrieves inject from (a hit's entry or section: parsed and
// resolved once per snapshot, at most 16,384 texts in two generations; a
// new snapshot starts empty, so no link resolved against an older one is
// served). [[#heading]] points into the linking entry itself: nothing
// to inject. A target that
// resolves to no entry and ends in a file extension other than .md
// (IsAttachment) is an attachment: neither injected nor reported. Links
// inside code (fenced blocks, inline code spans) are not links.
//
// # Freshness
//
// A retrieve that starts after a write returned sees it, whether the write
// went through Engine.Put, Delete or Update or straight to the store in
// the same process (SPEC §4). Each retrieve compares the store's revision
// with its snapshot's (one atomic load when they agree). When they differ
// and the store has a change feed (store.ChangeFeed), the Engine asks it
// which entries changed since its snapshot and re-reads only those; it
// reads the whole store only at the first retrieve, when the feed says it
// lost track (Reset), on Rebuild, and, for a store without a feed, after
// every write made behind its back (the retrieve then waits for that
// build rather than answer stale). On a store that tells its
// acknowledged revision (store.AckRevisioner: bolt) a retrieve compares
// that one instead: the Engine marks its own writes (store.CallerPublishes)
// and publishes each before it returns, so its retrieves do not queue
// behind its writes still in flight (they answer from the snapshot before
// such a write, which nobody can yet have been told is done), while every
// write acknowledged to anyone else, another Engine's over the same store
// or a direct store write, is waited for as before. So for the length of
// such a write's catch-up, a read of the store (Get, a listing) can show
// it while a retrieve does not yet: the promise is about writes that
// returned. A write whose catch-up fails or panics is owed: every
// retrieve then waits for it. A follower goroutine
// subscribed to the feed applies writes by other goroutines and processes
// (a watched folder, see fs.Store.Watch; a shared database) as they are
// announced, so retrieves rarely find anything to do. Edits that move no
// revision (another process editing an fs folder that is not watched)
// need Engine.Rebuild.
//
// One rule publishes snapshots: every new snapshot is installed by the
// holder of the Engine's publish lock and is derived from the snapshot
// installed at that moment (a change set applied to it, or a full build
// made under the lock, which starts a new lineage). A background
// compaction, the only work done outside the lock, is installed only if
// no full build came since it started, after replaying onto it the keys
// published meanwhile. A retrieve takes the lock only to catch up, when
// its snapshot is behind a write it must see.
//
// Options.OnChange reports each published change (the keys re-read, or
// Reset after a full build), for a service that keeps derived data per
// entry, such as vectors, in step.
//
// # Goroutines
//
// The Engine owns every goroutine that outlives the call that starts it,
// and Close waits for all of them: the follower of the store's change
// feed (started by New), a background compaction, a save of the index
// (Options.Persist, Options.Stamped) and the first load of the vector
// cache. They are started in one place (as hashicorp/raft's goFunc);
// after Close nothing starts, and the Engine keeps answering on its
// callers' goroutines. A retrieve waits only for work it asked for: its
// snapshot's catch-up, its query's embedding, and the vector load within
// the embedding budget below, never for another caller's I/O.
//
// # Persisted index
//
// With Options.Persist (a store.IndexCache: the bolt store keeps it in
// its own file), a full build from the store is saved there, on its own
// goroutine after it is published, as an index.Encode of the snapshot
// plus the messages of the entries it skipped, tagged with the revision
// it was built at. A process that starts (the first snapshot, or Load)
// takes that copy instead of reading and analysing every entry when
// index.Decode accepts it (length, CRC-32C, format version, analyzer
// name, revision) and it was made at the store's current revision; a
// store that is also a store.IndexMapper (bolt, on Linux) maps the copy
// read-only and the snapshot points into the mapping (index.Open): nothing
// is decoded or copied, the heap holds one record per document, and the
// pages a query does not touch stay out of the process's memory (the
// store drops them from the resident set once they are checked). A
// store.CheckedIndexMapper whose record says this very copy was checked
// whole before, its file unchanged since, has it opened by
// index.OpenChecked, which reads the document records and not the rest. The
// mapping's lifetime needs no rule of the engine's: the store never
// unmaps it, and never frees or rewrites the copy's pages while the
// process lives, so a snapshot built on it, any snapshot published from
// it, and any string of a result stay valid after Close too. A store that
// is a store.IndexViewer only (or a copy too small to have pages of its
// own) lends the copy in place, and it is decoded there, under the
// store's read transaction. A copy
// made at an earlier revision (a bolt file after a `recall add`, or a
// server that took writes) is brought up to date instead of rebuilt when
// the store's change feed names every entry written since it (bolt keeps
// the keys of its last bolt.DefaultHistory writes in the file, written
// in each write's transaction): those entries, and only those, are read
// again and go into the decoded snapshot in one batch
// (index.Snapshot.Apply: one merge, and one compaction by merge when they
// outgrow the overlay), so a start after k writes costs O(k) reads and
// analyses, not O(store); past catchUpMax changed entries (a quarter of
// the store, at least 512) the copy is rebuilt. Such a catch-up of
// catchUpSave entries or more is saved as the new copy; a smaller one is
// not (the next start repeats it, cheaper than encoding the whole index).
// Anything else means an ordinary build, which then replaces the copy: a
// damaged, foreign or newer copy; a feed that answers Reset (the history
// does not reach back, or one of its records fails its checksum); a
// store without a feed; a copy that lists unreadable entries (their
// messages do not say reliably which entries they are about). Loading
// the copy is a full build as far as the publish rule goes: it happens
// under the publish lock and starts a new lineage. Rebuild never uses the
// copy (it is for edits the revision cannot see). Close waits for a save
// under way, then saves the snapshot itself when the copy is catchUpSave
// or more changed entries behind it, or further behind than the feed can
// name (a server that took more writes than bolt's history keeps): a
// server does not save while it takes writes, since the save's write
// transaction would hold its writers off, and its successor would
// otherwise read the whole store (at 100k entries after 20,000 writes: a
// 1.2 s Close, then a 42 ms start instead of a 3.8 s one).
//
// A folder's revision lives in the process, so its copy (Options.Stamped,
// a store.StampedIndexCache) is tied to the files instead: the copy's meta
// lists, in walk order, each entry's key and stamp (and, for an entry
// that could not be read, the message). A start decodes the copy while
// the store stats every file, then takes from the copy each entry whose
// stamp is unchanged, reads and analyses the others, and drops the
// entries that are gone; with few changes the decoded snapshot is patched
// in one batch (index.Snapshot.Apply), with many (more than bulkApply) it
// is built again from the copy's documents and the files read. The snapshot is tagged with the
// revision read before the walk, so writes through the store during the
// load reach it through the change feed. A full build, or a start that
// read or dropped stampedSaveAfter entries, saves a new copy.
//
// WithIndexCache sets Persist or Stamped, whichever copy a store keeps.
//
// # Time
//
// Every indexed entry carries its effective date (InputOf: the event date
// store.Meta.Date when present, else the created time; a date without a
// time of day is a calendar day, read in each request's zone). A request
// is restricted to a half-open range [After, Before) of effective dates
// when either is set; otherwise, unless NoTime, the query's time phrase
// (package timeexpr: "last week", "上周", "in May 2024") is taken out of
// its words and becomes the range, read from Request.Now in its zone
// (default time.Now() in time.Local). Explicit After/Before override the
// phrase (the query is then all words). The range is applied before
// ranking, inside the index (index.TopQuery.Within): entries outside it
// are no candidates, for BM25 and for the fusion alike, so the hits are
// the best Limit inside it. A narrow range is scored entry by entry, which
// is faster than the lists of the whole index (docs/performance.md).
//
// A request with a range and no words left (the query was only the time
// phrase, or empty with After/Before) is a timeline: the entries in the
// range, newest first by effective date, then by identity, at most Limit,
// as hits with Score 0 and no BM25Score; links and the budget follow as
// for any retrieve. Result.TimeRange reports the range and the phrase it
// came from; every item of a ranged retrieve carries Date, links outside
// the range OutsideRange. Without a range only entries with an event date
// carry Date, so a store without dates answers exactly as before dates.
//
// # Validity
//
// An entry may supersede others (metadata key store.MetaSupersedes, a
// list of links) and may expire (store.MetaExpires); docs/validity.md is
// the contract. InputOf keeps both in the document's index.Input.Extra, so
// a persisted index carries them; Engine.Validity works out once per
// snapshot which entries are superseded: each link resolved as links
// resolve from that entry, chains hiding every entry but the last, a
// cycle keeping its most recently updated entry, links to no entry kept
// as problems (and reported in UnresolvedLinks when the entry is a hit).
// A retrieve leaves the superseded entries and those expired at
// Request.Now (else the clock; a date expires at its midnight in now's
// zone) out of the candidates before ranking (index.Snapshot.Except), for
// BM25, fusion and timelines alike, unless Request.IncludeSuperseded or
// IncludeExpired. Links to them are still injected. Items carry
// SupersededBy, Supersedes and Expired; a store without the keys carries
// no Extra and answers exactly as before. A Validity is derived from one
// snapshot alone and never changes; the first retrieve on a snapshot
// works it out on its own goroutine, outside the publish lock, and keeps
// it in a one-slot cache (an atomic pointer) that a concurrent retrieve
// may replace with an equal one.
//
// # Embeddings
//
// With Options.Embedder and Options.Vectors (normally an embed/cache.Cache
// filled by `recall embed`), each retrieve embeds the query once and fuses
// min-max-normalised BM25 and cosine scores (SPEC §6). The first fused
// retrieve starts loading the vector cache on the Engine's goroutine
// while its query is embedded. The embedding path, query embedding and
// waiting for that load together, gets Options.EmbedTimeout, and never
// more than half the time left before the retrieve's context deadline, so
// that BM25 answers in the rest: a retrieve with a 200 ms deadline during a
// slow load answers with BM25 after at most 100 ms, and retrieves fuse
// once the load is done. Any failure on that path (no vectors, vectors
// still loading, a timeout, an error, a dimension mismatch) gives exactly
// the BM25 result with EmbeddingUsed false. Document vectors are never
// computed during a retrieve.
//
// # Caveats
//
// Retrieve returns an error only when the store itself fails. An entry the
// store cannot read (a Get or an All item that fails other than by a
// cancelled context or a closed store) is not indexed, the same way on the
// incremental path as in a full build. Scores are
// comparable within one result only. Link items are not scored (Score 0).
//
// Retrieves reuse pooled room for their top k, which keeps pointers into
// the snapshot last ranked with it: after a Rebuild replaces a snapshot,
// the old one (with its documents' text) can stay in memory until each
// pooled room is used by a retrieve again, or until the pool drops it
// (two garbage collections without use). A process that must give that
// memory back at once can call runtime.GC twice.
package retrieve
