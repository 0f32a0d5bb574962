package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Example runs a short session in-process: two entries, one linking the
// other, then a retrieve that finds the first and brings the second along.
// Diagnostics (stderr) are shown inline here.
func Example() {
	dir, err := os.MkdirTemp("", "recall-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	recall := func(args ...string) {
		root := newRootCmd(nil, os.Stdout, os.Stdout, func(string) string { return "" })
		root.SetArgs(append([]string{"--store", filepath.Join(dir, "memory")}, args...))
		if code := execute(context.Background(), root); code != 0 {
			fmt.Println("exit", code)
		}
	}
	recall("add", "trips", "三亚之行", "--content", "住在海边的民宿，和[[people:小雨]]一起。", "--tag", "travel")
	recall("add", "people", "小雨", "--content", "妹妹，UI设计师。")
	recall("ls")
	// The score is BM25 over two documents: idf ln 2, tf 1, 13 bigrams
	// against an average of 9: 0.693 · 2.5 / (1 + 1.5·(0.25 + 0.75·13/9)).
	// tokens_est counts CJK characters and words: 4 + 12 + "people".
	recall("retrieve", "海边")
	recall("rm", "people", "nobody")
	// Output:
	// added trips:三亚之行
	// added people:小雨
	// people:小雨
	// trips:三亚之行
	// 1. hit trips:三亚之行  score=0.578 bm25=0.578 matched=海边 tokens=17
	//     住在海边的民宿，和[[people:小雨]]一起。
	//
	// 2. link people:小雨  via=trips:三亚之行 tokens=8
	//     妹妹，UI设计师。
	//
	// 2 items, 25/800 tokens, embedding not used
	// recall: people:nobody: entry not found
	// exit 1
}
