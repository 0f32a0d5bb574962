package buildinfo

import (
	"runtime/debug"
	"testing"
)

// The build information texts below are what `go version -m` prints for
// (without its first line, the toolchain)
// recall binaries built each way (go1.26); debug.ParseBuildInfo reads the
// same text the binary embeds.
func TestFrom(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       Info
		str        string
	}{
		{
			name: "go install @version (from the module proxy: no VCS settings)",
			text: "path\tgithub.com/recallhq/recall/cmd/recall\nmod\tgithub.com/recallhq/recall\tv1.2.3\th1:abc=\n" +
				"build\t-buildmode=exe\nbuild\tCGO_ENABLED=1\n",
			want: Info{Version: "v1.2.3"},
			str:  "v1.2.3",
		},
		{
			name: "go build in a clean checkout",
			text: "path\tgithub.com/recallhq/recall/cmd/recall\nmod\tgithub.com/recallhq/recall\tv0.0.0-20261203134103-ad90d1c1234a\t\n" +
				"build\tvcs=git\nbuild\tvcs.revision=ad90d1c1234a5678ad90d1c1234a5678ad90d1c1\nbuild\tvcs.time=2026-12-03T13:41:03Z\nbuild\tvcs.modified=false\n",
			want: Info{Version: "v0.0.0-20261203134103-ad90d1c1234a", Revision: "ad90d1c1234a5678ad90d1c1234a5678ad90d1c1", Time: "2026-12-03T13:41:03Z"},
			str:  "v0.0.0-20261203134103-ad90d1c1234a (revision ad90d1c1234a, 2026-12-03T13:41:03Z)",
		},
		{
			name: "go build with uncommitted changes",
			text: "path\tgithub.com/recallhq/recall/cmd/recall\nmod\tgithub.com/recallhq/recall\tv0.0.0-20261203134103-ad90d1c1234a+dirty\t\n" +
				"build\tvcs=git\nbuild\tvcs.revision=ad90d1c1234a5678ad90d1c1234a5678ad90d1c1\nbuild\tvcs.time=2026-12-03T13:41:03Z\nbuild\tvcs.modified=true\n",
			want: Info{Version: "v0.0.0-20261203134103-ad90d1c1234a+dirty", Revision: "ad90d1c1234a5678ad90d1c1234a5678ad90d1c1", Time: "2026-12-03T13:41:03Z", Modified: true},
			str:  "v0.0.0-20261203134103-ad90d1c1234a+dirty (revision ad90d1c1234a, 2026-12-03T13:41:03Z, modified)",
		},
		{
			name: "-buildvcs=false",
			text: "path\tgithub.com/recallhq/recall/cmd/recall\nmod\tgithub.com/recallhq/recall\t(devel)\t\n",
			want: Info{Version: "dev"},
			str:  "dev",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bi, err := debug.ParseBuildInfo(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			got := From(bi)
			if got != tc.want {
				t.Errorf("From = %#v, want %#v", got, tc.want)
			}
			if s := got.String(); s != tc.str {
				t.Errorf("String = %q, want %q", s, tc.str)
			}
		})
	}
}
