package retrieve

import (
	"testing"

	"github.com/recallhq/recall/internal/cachetest"
)

// TestMain keeps folder stores' caches out of the user's cache directory.
func TestMain(m *testing.M) { cachetest.Main(m) }
