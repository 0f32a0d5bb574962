package retrieve_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store/fs"
)

// BenchmarkFolderColdStart: a new engine's Load over a folder of n
// generated notes (synth, 120 terms each), as a one-shot command does it:
// "build" reads and analyses every file (no copy), "copy" takes every
// entry from a current .recall/index, "patched" after one file changed.
// The rounds alternate the three, and each reports its median; the
// folder is RECALL_BENCH_FOLDER when set (a copy of /work/data/f10k, say),
// else generated (10k notes).
//
//	go test -run '^$' -bench FolderColdStart -benchtime 5x ./retrieve/
func BenchmarkFolderColdStart(b *testing.B) {
	ctx := context.Background()
	dir := os.Getenv("RECALL_BENCH_FOLDER")
	if dir == "" {
		dir = b.TempDir()
		for _, e := range synth.New(1, 20_000).Entries(10_000, 120) {
			p := filepath.Join(dir, e.Category, e.Name+".md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(e.Content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(50 * time.Millisecond) // no file racily clean
	}
	st, err := fs.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	load := func(cached bool) time.Duration {
		e := retrieve.New(st, retrieve.Options{Stamped: st})
		start := time.Now()
		var err error
		if cached {
			_, err = e.Load(ctx)
		} else {
			_, err = e.Rebuild(ctx)
		}
		took := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		e.Close() // waits for a save, outside the timer
		return took
	}
	load(false) // a copy to start from
	var one string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if one == "" && err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			one = p
		}
		return nil
	})
	var builds, copies, patched []time.Duration
	for i := 0; b.Loop(); i++ {
		builds = append(builds, load(false))
		copies = append(copies, load(true))
		b, _ := os.ReadFile(one)
		os.WriteFile(one, append(b, []byte(" edit"+strconv.Itoa(i))...), 0o644)
		time.Sleep(20 * time.Millisecond) // past the edit's clock tick
		patched = append(patched, load(true))
	}
	b.StopTimer()
	b.ReportMetric(median(builds).Seconds()*1000, "ms-build")
	b.ReportMetric(median(copies).Seconds()*1000, "ms-copy")
	b.ReportMetric(median(patched).Seconds()*1000, "ms-patched")
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}
