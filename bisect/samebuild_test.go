package bisect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/schema"
)

// The same-build shortcut (a step good without a campaign) holds only on
// evidence that covers what runs: two files (device and inode), each in
// its own worktree, neither a script whose interpreter (outside the
// worktrees) runs code the hash does not cover, and the binaries wrappers
// run alike. Arms that run one file stop the bisect; anything else the
// hash does not cover runs the campaign.
func TestSameBuildEvidence(t *testing.T) {
	native, err := os.ReadFile("/usr/bin/true")
	if err != nil {
		t.Skip("needs /usr/bin/true")
	}
	const commit = "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name     string
		files    map[string]string // path under the work folder: content ("native": the binary)
		link     [2]string         // a hard link: the second path names the first's file
		paths    [2]string         // the engines, reference first
		real     [2]string         // the binaries they wrap
		shortcut bool
		why, err string
	}{
		{name: "two copies of a native binary", files: map[string]string{"reference/engine": "native", "0123456789ab/engine": "native"},
			paths: [2]string{"reference/engine", "0123456789ab/engine"}, shortcut: true},
		{name: "one file by a hard link", files: map[string]string{"reference/engine": "native"}, link: [2]string{"reference/engine", "0123456789ab/engine"},
			paths: [2]string{"reference/engine", "0123456789ab/engine"}, err: "both run one file"},
		{name: "one file outside both worktrees", files: map[string]string{"build/engine": "native"},
			paths: [2]string{"build/engine", "build/engine"}, err: "both run one file"},
		{name: "scripts that name no binary", files: map[string]string{"reference/engine": "#!/bin/sh\nawk -f engine.awk\n", "0123456789ab/engine": "#!/bin/sh\nawk -f engine.awk\n"},
			paths: [2]string{"reference/engine", "0123456789ab/engine"}, why: "is a script"},
		{name: "wrappers of a shared interpreter", files: map[string]string{"reference/run.sh": "#!/bin/sh\n", "0123456789ab/run.sh": "#!/bin/sh\n"},
			paths: [2]string{"reference/run.sh", "0123456789ab/run.sh"}, real: [2]string{"/usr/bin/true", "/usr/bin/true"}, why: "outside its worktree"},
		{name: "wrappers of one build outside the worktrees", files: map[string]string{"reference/run.sh": "#!/bin/sh\n", "0123456789ab/run.sh": "#!/bin/sh\n", "build/engine": "native"},
			paths: [2]string{"reference/run.sh", "0123456789ab/run.sh"}, real: [2]string{"build/engine", "build/engine"}, err: "both run one file"},
		{name: "wrappers of their own builds", files: map[string]string{"reference/run.sh": "#!/bin/sh\n", "0123456789ab/run.sh": "#!/bin/sh\n", "reference/bin": "native", "0123456789ab/bin": "native"},
			paths: [2]string{"reference/run.sh", "0123456789ab/run.sh"}, real: [2]string{"reference/bin", "0123456789ab/bin"}, shortcut: true},
		{name: "an engine outside its worktree", files: map[string]string{"reference/engine": "native", "other/engine": "native"},
			paths: [2]string{"reference/engine", "other/engine"}, why: "outside its worktree"},
	} {
		work, _ := filepath.EvalSymlinks(t.TempDir())
		at := func(p string) string {
			if p == "" || filepath.IsAbs(p) {
				return p
			}
			return filepath.Join(work, p)
		}
		for p, content := range c.files {
			b := []byte(content)
			if content == "native" {
				b = native
			}
			if err := os.MkdirAll(filepath.Dir(at(p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := execfile.Write(at(p), b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if c.link[0] != "" {
			if err := os.MkdirAll(filepath.Dir(at(c.link[1])), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(at(c.link[0]), at(c.link[1])); err != nil {
				t.Fatal(err)
			}
		}
		b := &bisector{st: &state{WorkDir: work, Summary: schema.Bisect{Reference: "ref", Candidate: "cand"}}}
		// The harness names the arms in the scenario's order: candidate first here.
		refused := &harness.IdenticalEngines{Arms: [2]string{"cand", "ref"}, Paths: [2]string{at(c.paths[1]), at(c.paths[0])},
			Real: [2]string{at(c.real[1]), at(c.real[0])}, SHA256: strings.Repeat("a", 64)}
		same, why, identical, err := b.sameBuild(refused, filepath.Join(work, "0123456789ab"))
		switch {
		case !identical:
			t.Errorf("%s: the refusal was not taken as the arms' identical engines", c.name)
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.shortcut && (same == nil || same.Reference != at(c.paths[0]) || same.Candidate != at(c.paths[1]) || same.ReferenceBinary != at(c.real[0]) || same.CandidateBinary != at(c.real[1])):
			t.Errorf("%s: %+v (%s), want the shortcut with the reference's paths first", c.name, same, why)
		case !c.shortcut && (same != nil || !strings.Contains(why, c.why)):
			t.Errorf("%s: %+v, %q; want the campaign to run, because %q", c.name, same, why, c.why)
		}
	}
	b := &bisector{st: &state{Summary: schema.Bisect{Reference: "ref", Candidate: "cand"}}}
	if _, _, identical, err := b.sameBuild(os.ErrNotExist, "/w/x"); identical || err != nil {
		t.Errorf("another error taken as identical engines (%v)", err)
	}
}
