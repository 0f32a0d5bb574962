// Package progress shows progress on long work to people at a terminal,
// and nothing to logs, pipes or tests: New returns nil unless its writer
// is a terminal, so a caller writes
//
//	if bar := progress.New(os.Stderr, len(items), "importing"); bar != nil {
//		defer bar.Finish()
//		opts.Progress = func(done, _ int) { bar.Set(done) }
//	}
//
// Phases shows one bar per phase of a run that reports (phase, done,
// total) as it goes, such as a benchmark's.
package progress
