package bisect

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/engine"
)

// buildPIDFile, in the work folder, names the build running now (an
// engine.PIDRecord): a resume after a kill -9 kills the build the dead
// bisect left running (engine.ReapStale), before it removes its worktree.
const buildPIDFile = "build-pid.json"

// leftoverWorktrees are the worktrees of the bisect's work folder that its
// repository still lists, as a run that was killed leaves them: a step's
// (the folder named after its commit, checked out at it, detached) or the
// good commit's (reference, at the good commit) unless keepRef. Nothing
// else is the bisect's: no other worktree of the repository is named.
func leftoverWorktrees(ctx context.Context, st *state, keepRef bool) []string {
	out, err := git(ctx, st.Source, "worktree", "list", "--porcelain")
	if err != nil {
		return nil
	}
	ours := map[string]string{}
	if !keepRef {
		ours[filepath.Join(st.WorkDir, "reference")] = st.Summary.Good
	}
	for _, c := range st.Summary.Commits {
		ours[filepath.Join(st.WorkDir, short(c.SHA))] = c.SHA
	}
	var dirs []string
	for _, block := range strings.Split(out, "\n\n") {
		var path, head string
		detached := false
		for _, l := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(l, "worktree "); ok {
				path = v
			} else if v, ok := strings.CutPrefix(l, "HEAD "); ok {
				head = v
			} else if l == "detached" {
				detached = true
			}
		}
		if sha, ok := ours[path]; ok && detached && head == sha {
			dirs = append(dirs, path)
		}
	}
	return dirs
}

// clearLeftovers kills the build a killed run left running and removes
// the worktrees it left (leftoverWorktrees); a work folder the resume no
// longer uses is removed once empty. It says what it did.
func (p *ResumePlan) clearLeftovers(ctx context.Context, say func(string, ...any)) {
	st := p.st
	if !st.ownWork() {
		say("the work folder %s that bisect.json names is not one this bisect made (decodebench-bisect-*): it is left as it is", st.WorkDir)
	} else if what, err := engine.ReapStaleGroup(filepath.Join(st.WorkDir, buildPIDFile)); err != nil {
		say("%v", err)
	} else if what != "" {
		say("%s", what)
	}
	for _, what := range engine.ReapStaleTrees() {
		say("%s", what)
	}
	for _, dir := range p.Leftovers {
		if err := removeWorktree(ctx, st.Source, dir); err != nil {
			say("could not remove the worktree %s a killed run left: %v", dir, err)
		} else {
			say("removed the worktree %s a killed run left", dir)
		}
	}
	if !p.ReuseWork && st.ownWork() {
		_ = os.Remove(st.WorkDir)
	}
}

// workPrefix begins the name of every work folder a bisect makes.
const workPrefix = "decodebench-bisect-"

// ownWork reports whether the state's work folder is one a bisect made:
// only such a folder's pid file is reaped, its worktrees removed or
// reused, and itself removed.
func (st *state) ownWork() bool {
	return strings.HasPrefix(filepath.Base(st.WorkDir), workPrefix)
}
