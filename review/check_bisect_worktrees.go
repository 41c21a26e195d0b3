package review

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// A bisect builds each commit in its own worktree, <work>/<the commit's
// first 12 hex digits>, and the good commit once, in <work>/reference
// (bisect/step.go), and sets ${CANDIDATE_DIR} and ${REFERENCE_DIR} to
// them. Where the scenario names no engine source (no source commit in
// the record), that is what ties a step's record to its commit: each arm
// ran something of its own worktree (its engine, the binary a wrapper
// runs, or a path its command line or environment names), and neither
// arm's engine lies in the other's.

// refWorktree is the name of the good commit's worktree in a bisect's
// work folder.
const refWorktree = "reference"

// stepWorktree is the name of a commit's worktree in a bisect's work
// folder.
func stepWorktree(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// workFolders are the folders W for which a path lies in W/name.
func workFolders(name string, paths ...string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		for d := filepath.Clean(p); d != filepath.Dir(d); d = filepath.Dir(d) {
			if filepath.Base(d) == name {
				out = append(out, filepath.Dir(d))
			}
		}
	}
	return out
}

// inside reports whether path lies inside dir (or is dir).
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return path != "" && filepath.IsAbs(path) && err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// armPaths are the paths an arm of a record ran from: its engine, the
// binary a wrapper ran, its source folder, and its command line's words
// and environment's values.
func armPaths(rec *schema.Record, arm string) []string {
	e := rec.EngineOf(arm)
	out := []string{e.Path, e.RealBinary, e.SourceDir}
	for _, a := range rec.Scenario.Arms {
		if a.Name != arm {
			continue
		}
		out = append(out, a.Command...)
		for _, v := range a.Env {
			out = append(out, v)
		}
	}
	return out
}

// checkWorktrees checks that a step's record ran its commit's worktree
// and the good commit's: an arm whose engine names its source commit is
// tied to it by that (checked beside); any other must have run a path of
// its own worktree, in one work folder for both. Neither arm's engine
// (or the binary it wraps) lies in the other's worktree.
func checkWorktrees(rec *schema.Record, b *schema.Bisect, commit string) []string {
	ref, cand := rec.EngineOf(b.Reference), rec.EngineOf(b.Candidate)
	name := stepWorktree(commit)
	works := workFolders(name, armPaths(rec, b.Candidate)...)
	var probs []string
	refWorks := workFolders(refWorktree, armPaths(rec, b.Reference)...)
	if cand.SourceCommit == "" && len(works) == 0 {
		probs = append(probs, fmt.Sprintf("the candidate arm %s ran nothing of the commit's worktree <work>/%s (its engine %s names no source commit)", b.Candidate, name, dashIf(cand.Path)))
	} else if ref.SourceCommit == "" && !sharesWork(refWorks, works, cand.SourceCommit != "") {
		probs = append(probs, fmt.Sprintf("the reference arm %s ran nothing of the good commit's worktree <work>/%s beside <work>/%s (its engine %s names no source commit)", b.Reference, refWorktree, name, dashIf(ref.Path)))
	}
	for _, w := range works {
		for _, side := range []struct {
			arm   string
			e     schema.EngineInfo
			other string
		}{{b.Reference, ref, filepath.Join(w, name)}, {b.Candidate, cand, filepath.Join(w, refWorktree)}} {
			for _, p := range []string{side.e.Path, side.e.RealBinary} {
				if inside(p, side.other) {
					probs = append(probs, fmt.Sprintf("the arm %s ran %s, a build of the other arm's worktree %s", side.arm, p, side.other))
				}
			}
		}
	}
	return probs
}

// sharesWork reports whether the reference ran in one of the candidate's
// work folders, or in any when the candidate is tied by its source commit.
func sharesWork(refWorks, works []string, anyWork bool) bool {
	if anyWork {
		return len(refWorks) > 0
	}
	for _, r := range refWorks {
		for _, w := range works {
			if r == w {
				return true
			}
		}
	}
	return false
}

// checkSameBuild checks a step's claim that its commit built the good
// commit's engine again: two files, the good commit's in <work>/reference
// and the commit's in <work>/<its 12 hex digits> (and so the binaries
// wrappers run, when named), never one file for both arms.
func checkSameBuild(sb *schema.BisectSameBuild, commit string) []string {
	var probs []string
	name := stepWorktree(commit)
	if sb.Reference == sb.Candidate || (sb.ReferenceBinary != "" && sb.ReferenceBinary == sb.CandidateBinary) {
		probs = append(probs, fmt.Sprintf("both arms ran one file, %s: two arms of one file are not compared, and bisect stops there", sb.Reference))
	}
	if (sb.ReferenceBinary == "") != (sb.CandidateBinary == "") {
		probs = append(probs, "it names the binary one arm's wrapper runs and not the other's")
	}
	ok := false
	for _, w := range workFolders(name, sb.Candidate) {
		rw, cw := filepath.Join(w, refWorktree), filepath.Join(w, name)
		if inside(sb.Reference, rw) && (sb.ReferenceBinary == "" || inside(sb.ReferenceBinary, rw) && inside(sb.CandidateBinary, cw)) {
			ok = true
		}
	}
	if !ok {
		probs = append(probs, fmt.Sprintf("its engines %s and %s are not each its own worktree's build (<work>/%s and <work>/%s, and the binaries they run)", dashIf(sb.Reference), dashIf(sb.Candidate), refWorktree, name))
	}
	return probs
}
