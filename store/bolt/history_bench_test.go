package bolt

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/store"
)

// BenchmarkPutHistory is the cost of one Put (an overwrite, 1 KB) with its
// change history record, into a file of 10k entries, without fsync so
// that the record's own cost shows rather than the disk's:
//
//	go test -run '^$' -bench PutHistory -count 5 ./store/bolt/
func BenchmarkPutHistory(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "m.db"), &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	es := batchEntries(10_000)
	if err := s.PutBatch(ctx, es); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		e := es[i%len(es)]
		e.Content = fmt.Sprint(e.Content[:900], i)
		e.Meta = store.Meta{}
		if err := s.Put(ctx, e); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
