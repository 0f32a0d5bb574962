package fs

import (
	"sync"

	"github.com/recallhq/recall/store"
)

// All reads the files of a folder readWorkers at a time: a cold start
// reads every entry, and on a folder of thousands of small files the time
// is mostly waiting on each open and read, which overlap well.
const (
	readWorkers = 8
	readChunk   = 64
)

// readJob is one file All will yield.
type readJob struct {
	path, category, name string
	e                    store.Entry
	err                  error
}

// readAll fills every job's entry or error, readWorkers files at a time.
func readAll(jobs []readJob) {
	if len(jobs) == 1 {
		jobs[0].e, jobs[0].err = readEntry(jobs[0].path, jobs[0].category, jobs[0].name)
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(readWorkers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := &jobs[i]
				j.e, j.err = readEntry(j.path, j.category, j.name)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
}
