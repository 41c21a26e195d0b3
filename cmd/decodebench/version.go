package main

import "runtime/debug"

// Set by the Makefile through -ldflags "-X main.version=… -X main.commit=…";
// a plain `go install` falls back to the module version and the VCS stamp.
var (
	version = ""
	commit  = ""
)

// buildInfo returns decodebench's version, commit and whether the tree it
// was built from had uncommitted changes.
func buildInfo() (ver, rev string, dirty bool) {
	ver, rev = version, commit
	if bi, ok := debug.ReadBuildInfo(); ok {
		if ver == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			ver = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if ver == "" {
		ver = "devel"
	}
	if rev == "" {
		rev = "unknown"
	}
	if len(rev) > 12 && commit == "" {
		rev = rev[:12]
	}
	return ver, rev, dirty
}
