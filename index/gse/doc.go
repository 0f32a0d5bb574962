// Package gse plugs dictionary segmentation of Chinese text into recall's
// analyzer: a Segmenter (index.Segmenter) backed by github.com/go-ego/gse,
// the Go counterpart of jieba, and the off / auto / on modes of SPEC §3.
//
// It lives beside index rather than inside it because gse embeds its
// dictionaries in the binary: a program that links this package grows by
// tens of megabytes, and one that does not (a library user of retrieve with
// the default bigrams) carries none of it. cmd/recall and bench link it;
// index, retrieve and the stores never do (TestCoreDoesNotLinkGSE checks
// it with `go list -deps`).
//
// # Basics
//
//	a := gse.Apply(index.Spec(), gse.ModeAuto, gse.DictSimplified) // "spec+gse:zh_s"
//	eng := retrieve.New(st, retrieve.Options{Analyzer: a})
//
// # Caveats
//
// The dictionary costs seconds and over 100 MB to load. It is loaded at
// most once per process and dictionary, lazily, the first time a
// segmenting analyzer meets CJK text, and never when the mode is off. If
// it cannot be loaded, Segment reports so and the analyzer falls back to
// bigrams: retrieve never fails because of it. The analyzer's name stays
// "…+gse:DICT" in that case.
package gse
