package schema

import (
	"slices"
	"strings"
)

// EngineIdentity is what a record states of an engine beside its hashes:
// what the scenario named, the file that ran, the binary a wrapper runs,
// its version text and its source checkout. The campaign state keeps it
// per arm (arm_identity), and check compares the record's with it.
type EngineIdentity struct {
	Command      string `json:"command"`
	Path         string `json:"path"`
	RealBinary   string `json:"real_binary,omitempty"`
	Version      string `json:"version"`
	SourceDir    string `json:"source_dir,omitempty"`
	SourceCommit string `json:"source_commit,omitempty"`
}

// Identity is the engine's EngineIdentity.
func (id EngineInfo) Identity() EngineIdentity {
	return EngineIdentity{Command: id.Command, Path: id.Path, RealBinary: id.RealBinary, Version: id.Version,
		SourceDir: id.SourceDir, SourceCommit: id.SourceCommit}
}

// ModelKey is what the engine's model files hash to, sorted and joined by
// ", ": the hashes alone, since a path may hold text the campaign state's
// redactor masks (a folder named password=…), which then never equals
// the path as it is. The campaign state keeps it per arm (arm_models): a
// resume refuses when it changed, and check when the record states other
// models.
func (id EngineInfo) ModelKey() string {
	var ms []string
	for _, m := range id.Models {
		ms = append(ms, m.SHA256)
	}
	slices.Sort(ms)
	return strings.Join(ms, ", ")
}

// HashKey is what an engine's files hash to: the binary, the binary a
// wrapper runs, and the engine's own shared libraries. The campaign state
// keeps it per arm (arm_engines), and a resume refuses when it changed.
func (id EngineInfo) HashKey() string {
	k := id.SHA256
	if id.RealSHA256 != "" {
		k += " wrapping " + id.RealSHA256
	}
	var libs []string
	for _, l := range id.Libraries {
		libs = append(libs, l.SHA256)
	}
	slices.Sort(libs)
	if len(libs) > 0 {
		k += " with libraries " + strings.Join(libs, ",")
	}
	return k
}
