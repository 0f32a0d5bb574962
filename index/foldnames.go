package index

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

// The case-folded name index: which documents hold a name when case is
// ignored. Link resolution needs it (SPEC §7 step 3: Obsidian matches a
// link's file name whatever its case, so [[internal links]] finds
// "Internal links"). A base segment's table is built on the first lookup
// and shared by every snapshot over that segment; the overlay's is kept by
// With and Without (addName, dropName), so a lookup never scans the
// snapshot.

// FoldName is the case-folded form of a name the fold index compares:
// the name as written (store.UnescapeName: SPEC §1's name mapping keeps
// the case of an escaped letter in its hex digits, so "CON" is "%43ON"
// and "con" "%63on"), every rune lower-cased (unicode.ToLower). A name
// without escapes is only lower-cased.
func FoldName(name string) string { return strings.Map(unicode.ToLower, store.UnescapeName(name)) }

// foldTable is a base segment's fold index: an open-addressed table
// (linear probing, load at most three quarters) of ord+1 of every
// document (0 = empty), placed by the hash of its folded name; the
// documents of one folded name lie on one probe run, told apart from
// others on it by a tag of the hash (tags, the hash's top byte), then by
// comparing names: a probe run reads the dense tags, not the documents.
// 5 bytes a slot, where a map of folded names would cost some 60 bytes a
// document.
type foldTable struct {
	once  sync.Once
	slots []uint32
	tags  []uint8
	mask  uint64
}

func (seg *segment) foldIndex() *foldTable {
	ft := &seg.fold
	ft.once.Do(func() {
		size := termDictSize(len(seg.docs))
		ft.slots, ft.tags, ft.mask = make([]uint32, size), make([]uint8, size), uint64(size-1)
		for i := range seg.docs {
			h := foldHash(seg.docs[i].Name)
			j := h & ft.mask
			for ft.slots[j] != 0 {
				j = (j + 1) & ft.mask
			}
			ft.slots[j], ft.tags[j] = uint32(i)+1, uint8(h>>56)
		}
	})
	return ft
}

// each calls fn with the ord of every document of docs whose name folds
// to name's fold, until fn returns false.
func (ft *foldTable) each(docs []Doc, name string, fn func(uint32) bool) {
	if len(ft.slots) == 0 {
		return
	}
	h := foldHash(name)
	tag := uint8(h >> 56)
	for j := h & ft.mask; ft.slots[j] != 0; j = (j + 1) & ft.mask {
		if ft.tags[j] != tag {
			continue
		}
		o := ft.slots[j] - 1
		if foldEqual(docs[o].Name, name) && !fn(o) {
			return
		}
	}
}

// foldHash is the hash of FoldName(s), computed without building it
// (FNV-1a over the folded runes' UTF-8, then a final mix so that the top
// byte, the tag, is as good as the low bits).
func foldHash(s string) uint64 {
	s = store.UnescapeName(s)
	h := uint64(14695981039346656037)
	var buf [utf8.UTFMax]byte
	for _, c := range s {
		n := utf8.EncodeRune(buf[:], unicode.ToLower(c))
		for _, b := range buf[:n] {
			h = (h ^ uint64(b)) * 1099511628211
		}
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// foldEqual reports whether FoldName(a) == FoldName(b), without building
// either.
func foldEqual(a, b string) bool {
	a, b = store.UnescapeName(a), store.UnescapeName(b)
	for _, c := range a {
		r, size := utf8.DecodeRuneInString(b)
		if size == 0 || unicode.ToLower(r) != unicode.ToLower(c) {
			return false
		}
		b = b[size:]
	}
	return b == ""
}

// LookupFold calls fn with every live document whose name equals name
// when both are case-folded (FoldName), in no particular order, until fn
// returns false. The first call on a snapshot of a new base segment builds
// that segment's table (one pass over its names, 5 bytes a slot); every
// other costs a probe run and the overlay's documents of that name.
func (s *Snapshot) LookupFold(name string, fn func(*Doc) bool) {
	stop := false
	s.base.foldIndex().each(s.base.docs, name, func(o uint32) bool {
		if !s.isDead(o) && !fn(&s.base.docs[o]) {
			stop = true
		}
		return !stop
	})
	if stop || s.ofold.n == 0 {
		return
	}
	for _, i := range s.ofold.get(FoldName(name)) {
		if !fn(&s.overlay[i].Doc) {
			return
		}
	}
}

// addFold and dropFold keep the overlay's fold index beside its name
// index (see addName, dropName).
func (ns *Snapshot) addFold(name string, i int) {
	f := FoldName(name)
	ns.ofold.set(f, append(slices.Clip(ns.ofold.get(f)), i))
}

func (ns *Snapshot) dropFold(name string, i int) {
	f := FoldName(name)
	ns.ofold.set(f, slices.DeleteFunc(slices.Clone(ns.ofold.get(f)), func(x int) bool { return x == i }))
}
