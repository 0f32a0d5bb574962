//go:build !linux

package bolt

import "errors"

// Elsewhere the copy is not mapped (MapIndex fails with ErrNotMapped) and
// readers decode it from ViewIndex.
const canMap = false

var osPageSize = 4096

func mapFile(string, int64, int) ([]byte, error) { return nil, errors.New("not supported") }

func unmapFile([]byte) {}

func dropResident([]byte) {}
