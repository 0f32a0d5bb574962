package index

import (
	"math"
	"os"
	"testing"
)

// TestMain runs the package's tests with the exhaustive scorer finding
// its top k's masks afterwards at every store size (matchedSearchDocs
// 0), the path large stores take; TestMaskedPathEqualsSearched compares
// it with the per-posting masks small stores keep.
func TestMain(m *testing.M) {
	matchedSearchDocs = 0
	os.Exit(m.Run())
}

// TestMaskedPathEqualsSearched runs the reference comparisons with the
// masks kept per posting at every size (matchedSearchDocs past any
// store), the path stores under matchedSearchDocs take.
func TestMaskedPathEqualsSearched(t *testing.T) {
	defer func(v int) { matchedSearchDocs = v }(matchedSearchDocs)
	matchedSearchDocs = math.MaxInt
	t.Run("random snapshots", randomSnapshotsEqualReference)
	t.Run("within", TestWithinEqualsReference)
}
