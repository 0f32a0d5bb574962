package retrieve

import (
	"sync/atomic"

	"github.com/recallhq/recall/index"
)

// perSnapshot keeps one value worked out from a snapshot (the engine's
// Validity, its Links) until a value of another snapshot is asked for.
// Readers of the same snapshot share it; two readers that meet a new
// snapshot at once may both work it out, and either result is kept: the
// value is a pure function of the snapshot.
type perSnapshot[T any] struct {
	p atomic.Pointer[snapValue[T]]
}

type snapValue[T any] struct {
	snap *index.Snapshot
	v    T
}

// get returns the value of snap, made by of unless it is the one kept.
func (c *perSnapshot[T]) get(snap *index.Snapshot, of func(*index.Snapshot) T) T {
	if x := c.p.Load(); x != nil && x.snap == snap {
		return x.v
	}
	v := of(snap)
	c.p.Store(&snapValue[T]{snap: snap, v: v})
	return v
}
