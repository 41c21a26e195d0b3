package bisect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/schema"
)

// A campaign whose two arms run byte-identical engines is refused
// (harness.IdenticalEngines). For a bisect step that is a result, no
// change, only when the bytes compared are the engine that runs and each
// arm's are its own commit's build: the shortcut claims "byte for byte
// the good commit's engine", and takes no measurement to contradict it.

// sameBuild decides a campaign refused as err. identical says err is the
// refusal of the reference and candidate arms' byte-identical engines;
// then same is the step's result when the shortcut holds (the engine
// files, and the binaries wrappers run, are different files, each inside
// its own arm's worktree, and what runs is no script: an interpreter
// outside the worktrees runs code its hash does not cover), else nil with
// why it does not hold, and the campaign is to run them. An error says
// the two arms run one file: they cannot be compared.
func (b *bisector) sameBuild(err error, candDir string) (same *schema.BisectSameBuild, why string, identical bool, _ error) {
	var ie *harness.IdenticalEngines
	sum := &b.st.Summary
	if !errors.As(err, &ie) || !ie.Of(sum.Reference, sum.Candidate) {
		return nil, "", false, nil
	}
	paths, real := ie.Paths, ie.Real
	if ie.Arms[0] != sum.Reference {
		paths[0], paths[1] = paths[1], paths[0]
		real[0], real[1] = real[1], real[0]
	}
	if oneFile(paths[0], paths[1]) {
		return nil, "", true, b.oneFileError(paths[0])
	}
	if real[0] != "" && oneFile(real[0], real[1]) && within(resolved(real[0]), resolved(b.st.WorkDir)) {
		return nil, "", true, b.oneFileError(real[0])
	}
	dirs := [2]string{resolved(b.refDir()), resolved(candDir)}
	for i := range 2 {
		runs := paths[i]
		if real[i] != "" {
			runs = real[i]
		}
		switch {
		case !within(paths[i], dirs[i]):
			return nil, fmt.Sprintf("%s lies outside its worktree %s", paths[i], dirs[i]), true, nil
		case real[i] != "" && !within(real[i], dirs[i]):
			return nil, fmt.Sprintf("%s runs %s, outside its worktree %s", paths[i], real[i], dirs[i]), true, nil
		case real[i] != "" && oneFile(real[0], real[1]):
			return nil, fmt.Sprintf("both wrappers run one file, %s", real[i]), true, nil
		case isScript(runs):
			return nil, fmt.Sprintf("%s is a script: its interpreter runs code its hash does not cover", runs), true, nil
		}
	}
	return &schema.BisectSameBuild{SHA256: ie.SHA256, Reference: paths[0], Candidate: paths[1], ReferenceBinary: real[0], CandidateBinary: real[1]}, "", true, nil
}

func (b *bisector) oneFileError(path string) error {
	return fmt.Errorf("arms %s and %s both run one file, %s: the build writes the engine outside its worktree, "+
		"so each commit's build replaces the last one's and the two arms cannot be compared; build into the worktree (${%s}, ${%s})",
		b.st.Summary.Reference, b.st.Summary.Candidate, path, ReferenceVar, CandidateVar)
}

// oneFile reports whether two paths name one file (device and inode).
func oneFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// resolved is path with its links followed, as engine paths are.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// isScript reports whether the file starts with #!, or cannot be read.
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	head := make([]byte, 2)
	_, err = io.ReadFull(f, head)
	return err != nil || bytes.Equal(head, []byte("#!"))
}
