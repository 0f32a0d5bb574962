package service_test

import (
	"errors"
	"testing"

	"github.com/recallhq/recall/service"
)

func TestSkipSummary(t *testing.T) {
	a, b := errors.New("a.md: front matter: line 2: bad"), errors.New("b.md: not UTF-8\x1b[31m")
	for _, c := range []struct {
		skipped []error
		want    string
	}{
		{nil, ""},
		{[]error{a}, "skipped a.md: front matter: line 2: bad"},
		{[]error{a, b}, "skipped 2 entries that could not be read, the first: a.md: front matter: line 2: bad (recall reindex names them all)"},
		{[]error{b, a, a}, `skipped 3 entries that could not be read, the first: b.md: not UTF-8\x1b[31m (recall reindex names them all)`},
	} {
		if got := service.SkipSummary(c.skipped); got != c.want {
			t.Errorf("SkipSummary(%v) = %q, want %q", c.skipped, got, c.want)
		}
	}
}
