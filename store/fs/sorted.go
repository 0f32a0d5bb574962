package fs

import (
	"container/heap"
	"context"
	"iter"

	"github.com/recallhq/recall/store"
)

var _ store.Sorter = (*Store)(nil)

// AllSorted is All in identity order (category, then name, bytewise), so
// that an export streams: it yields the same entries and the same error
// items as All, holding in memory only the folders still to read (their
// paths) and the note names of the one folder being read.
//
// A depth-first walk is not identity order: "c/x-y" sorts between "c/x"
// and "c/x/sub" ('-' is below '/'), and the root's own notes are category
// RootCategory, which sorts among the top-level folders. So the folders
// wait in a heap keyed by their category; the smallest is read next, its
// sub-folders go into the heap and its notes are yielded sorted by name.
// Every folder pushed while reading category C has a category that starts
// with C + "/", so nothing yielded later sorts before C. The root is read
// twice: once for its folders (key ""), once for its notes (key
// RootCategory). Error items (a file that cannot be mapped) come when
// their folder is read, before its notes.
func (s *Store) AllSorted(ctx context.Context) iter.Seq2[store.Entry, error] {
	return func(yield func(store.Entry, error) bool) {
		if err := s.check(ctx, "all"); err != nil {
			yield(store.Entry{}, err)
			return
		}
		var pending dirHeap
		w := walker[store.Entry]{s: s, ctx: ctx, yield: yield, leaf: readLeaf,
			push: func(d pendingDir) { heap.Push(&pending, d) }}
		heap.Push(&pending, pendingDir{key: "", dir: s.root, rootDirs: true})
		heap.Push(&pending, pendingDir{key: RootCategory, dir: s.root, rootNotes: true})
		for pending.Len() > 0 {
			d := heap.Pop(&pending).(pendingDir)
			w.flat, w.dirsOnly = d.rootNotes, d.rootDirs
			if !w.walk(d.dir, d.cat, d.bad) {
				return
			}
		}
	}
}

// pendingDir is a folder AllSorted has yet to read.
type pendingDir struct {
	key       string   // the category of its notes (bad: its parent's)
	dir       string   // its path
	cat       []string // its category levels
	bad       error    // why its notes cannot be mapped, if so
	rootDirs  bool     // the root, for its folders only
	rootNotes bool     // the root, for its notes only
}

// dirHeap is a min-heap of pending folders by key (container/heap).
type dirHeap []pendingDir

func (h dirHeap) Len() int           { return len(h) }
func (h dirHeap) Less(i, j int) bool { return h[i].key < h[j].key }
func (h dirHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dirHeap) Push(x any)        { *h = append(*h, x.(pendingDir)) }
func (h *dirHeap) Pop() any {
	old := *h
	d := old[len(old)-1]
	old[len(old)-1] = pendingDir{}
	*h = old[:len(old)-1]
	return d
}
