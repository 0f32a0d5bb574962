// Package buildinfo tells which recall a binary is: the module version and
// the version-control revision it was built from, as the Go toolchain
// records them (runtime/debug.ReadBuildInfo).
//
// What a build records depends on how it was made:
//
//   - `go install github.com/recallhq/recall/cmd/recall@v1.2.3` records the
//     module version v1.2.3 and no revision (the source came from the module
//     proxy, not from a checkout): String gives "v1.2.3".
//   - `go build` or `go install` inside a git checkout records a
//     pseudo-version naming the commit (v0.0.0-20261203134103-ad90d1c1234a,
//     with "+dirty" when files were modified), the full revision, its commit
//     time and whether the tree was modified: String gives
//     "v0.0.0-20261203134103-ad90d1c1234a (revision ad90d1c1234a, 2026-12-03T13:41:03Z)".
//   - A build with -buildvcs=false, or outside any checkout, records
//     "(devel)" and no revision: String gives "dev".
//
// Info is a plain value, safe to copy and share.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Info is what a build recorded about its own source.
type Info struct {
	// Version is the main module's version ("v1.2.3", a pseudo-version), or
	// "dev" when the build recorded none.
	Version string
	// Revision is the full version-control revision, "" when none was
	// recorded; Time is its commit time (RFC 3339) and Modified reports
	// uncommitted changes in the tree that was built.
	Revision string
	Time     string
	Modified bool
	// GoVersion is the toolchain that built the binary ("go1.26.8").
	GoVersion string
}

// Read returns the running binary's Info. Without build information (a
// binary built without module support) it is Info{Version: "dev"}.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "dev"}
	}
	return From(bi)
}

// From reads an Info out of build information, as Read does for the
// running binary (debug.ParseBuildInfo gives it for another's `go version
// -m` text).
func From(bi *debug.BuildInfo) Info {
	info := Info{Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if info.Version == "" || info.Version == "(devel)" {
		info.Version = "dev"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// ShortRevision is the revision's first 12 characters (as pseudo-versions
// write it), "" when none was recorded.
func (i Info) ShortRevision() string {
	if len(i.Revision) > 12 {
		return i.Revision[:12]
	}
	return i.Revision
}

// String is the version, then what the build recorded of its revision:
// "v1.2.3", "v0.0.0-20261203134103-ad90d1c1234a (revision ad90d1c1234a,
// 2026-12-03T13:41:03Z)", "dev (revision ad90d1c1234a, modified)", "dev".
func (i Info) String() string {
	if i.Revision == "" {
		return i.Version
	}
	parts := []string{"revision " + i.ShortRevision()}
	if i.Time != "" {
		parts = append(parts, i.Time)
	}
	if i.Modified {
		parts = append(parts, "modified")
	}
	return i.Version + " (" + strings.Join(parts, ", ") + ")"
}
