package retrieve

import (
	"sync"

	"github.com/recallhq/recall/index"
)

// sectionCacheBytes bounds what an Engine's section cache holds (about,
// by noteSections.size): 64 MiB, some 3,700 notes of 700 tokens (18 KB
// a note of eight sections of 80 mixed Chinese and English terms, its
// 4.2 KB of content included). A variable for the tests and measurements.
var sectionCacheBytes = 64 << 20

// sectionCache keeps the noteSections of the long hits of recent
// retrieves that came back at least twice, so that such a note is
// neither split nor analysed again: the per-query work is then a lookup of each query
// term per note. An entry is keyed by the entry and used only if its
// content and analyzer are the ones asked for (a string compare, which
// stops at once when both are the same string), so it answers for any
// snapshot: it is a pure function of content and analyzer, and no
// snapshot is published through it (retrieve/doc.go's publish rule is
// not involved). Values are never changed once stored.
//
// It holds two generations, each of at most half of sectionCacheBytes:
// when the current one is full it becomes the old one and the old one is
// dropped; a note found in the old generation moves to the current one.
// The notes in use stay, the others leave within two generations.
type sectionCache struct {
	mu       sync.Mutex
	cur, old map[Ref]*noteSections
	curBytes int
}

// of returns the noteSections of the entry key holding content, analysed
// by an: from the cache, or made now (outside the lock) and stored when
// the note was seen before. The first time a note is seen it returns nil
// and keeps only a mark (the content, no analysis): a note asked once is
// cheaper to count for its query's terms alone (sectionScorer) than to
// analyse in full, which pays from the second retrieve on.
func (c *sectionCache) of(an *index.Analyzer, key Ref, content string) *noteSections {
	c.mu.Lock()
	ns := c.cur[key]
	if ns == nil {
		if ns = c.old[key]; ns != nil && ns.content == content && ns.an == an {
			delete(c.old, key)
			c.storeLocked(key, ns)
		}
	}
	if ns == nil || ns.content != content || ns.an != an {
		c.storeLocked(key, &noteSections{content: content, an: an, seen: true, size: len(content) + 64})
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	if !ns.seen {
		return ns
	}
	ns = newNoteSections(an, key, content)
	c.mu.Lock()
	c.storeLocked(key, ns)
	c.mu.Unlock()
	return ns
}

func (c *sectionCache) storeLocked(key Ref, ns *noteSections) {
	half := sectionCacheBytes / 2
	if ns.size > half {
		return
	}
	if old := c.cur[key]; old != nil {
		c.curBytes -= old.size
	}
	if c.cur == nil || c.curBytes+ns.size > half {
		c.old, c.cur, c.curBytes = c.cur, map[Ref]*noteSections{}, 0
	}
	c.cur[key] = ns
	c.curBytes += ns.size
}
