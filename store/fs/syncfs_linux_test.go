package fs

import "testing"

func TestKernelAtLeast(t *testing.T) {
	for _, c := range []struct {
		release string
		want    bool
	}{
		{"5.8.0", true}, {"5.8-rc1", true}, {"5.7.19", false}, {"6.1.0-18-amd64", true},
		{"4.19.0", false}, {"5.10.0-custom", true}, {"10.0", true}, {"5", false}, {"x.y", false},
	} {
		if got := kernelAtLeast(c.release, 5, 8); got != c.want {
			t.Errorf("kernelAtLeast(%q, 5, 8) = %v, want %v", c.release, got, c.want)
		}
	}
}
