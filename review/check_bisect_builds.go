package review

import (
	"fmt"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// buildsDir is a bisect's folder of build logs in its data folder, and
// the names bisect gives them (bisect/build.go).
const buildsDir = "builds"

func stepLog(commit string) string    { return buildsDir + "/" + short12(commit) + ".log" }
func referenceLog(good string) string { return buildsDir + "/reference-" + short12(good) + ".log" }
func short12(sha string) string       { return sha[:min(12, len(sha))] }

// checkBuilds checks every build the summary states against its log, the
// only evidence of a failed build: each log named is the one the bisect
// writes for that commit's build, a file of the summary's (named, so
// that its sha256 vouches for it: named in files) that is there with
// that sha256 (present); a failed build exited non-zero and a successful
// one with 0; every finished step has its build's log; and no step ran
// after the good commit failed to build.
func checkBuilds(b *schema.Bisect, steps []schema.BisectStep, named, present map[string]bool) []Problem {
	var probs []Problem
	build := func(sec, what string, bd schema.BisectBuild, want string, needed bool) {
		add := func(format string, args ...any) {
			probs = append(probs, Problem{sec, fmt.Sprintf(what+": "+format, args...)})
		}
		switch {
		case bd.Log == "" && needed:
			add("no log is named: the bisect keeps every build's output, the evidence of how it ended")
		case bd.Log == "":
		case bd.Log != want:
			add("its log is %q, not %s, the log of this commit's build", bd.Log, want)
		case !named[bd.Log]:
			add("its log %s is not one of the summary's files: no sha256 vouches for it", bd.Log)
		case !present[bd.Log]:
			add("its log %s is not there as the summary names it", bd.Log)
		}
		switch {
		case bd.OK && bd.ExitCode != 0:
			add("it succeeded, yet exited %d", bd.ExitCode)
		case !bd.OK && bd.ExitCode == 0 && bd.Log != "":
			add("it failed, yet exited 0")
		}
	}
	build("Summary", "the good commit's build", b.ReferenceBuild, referenceLog(b.Good), false)
	if len(steps) > 0 && !b.ReferenceBuild.OK && b.ReferenceBuild.Log != "" {
		probs = append(probs, Problem{"Summary", "the good commit did not build, yet steps ran: the bisect stops when the good commit does not build"})
	}
	for i, st := range steps {
		pending := b.Pending != nil && i == len(steps)-1
		build(fmt.Sprintf("Step %d", st.N), "the build", st.Build, stepLog(st.Commit), !pending || len(st.Campaigns) > 0)
	}
	return probs
}

// checkStepClass checks a step's campaigns and class against what the
// search runs and concludes (bisect/step.go): a commit that did not build
// is build-failed with no campaign; one that built has one campaign, or
// two when the first was undecided, the second of twice its rounds; an
// interrupted (INCOMPLETE) campaign is resumed before its step ends, or,
// when its rebuilt engine cannot go on in it (a build that is not bit for
// bit the same), stays linked and is followed by a fresh campaign of its
// own rounds; the class is the last campaign's, and undecided only after
// the second. A step under way has no class yet.
func checkStepClass(sec string, st schema.BisectStep, pending bool) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{sec, fmt.Sprintf(format, args...)})
	}
	if st.SameBuild != nil && !pending {
		// It built the good commit's engine again, byte for byte: good,
		// with no campaign.
		switch {
		case st.Class != schema.ClassGood || len(st.Campaigns) > 0:
			add("it built the good commit's engine again, so it is %s with no campaign, not %s", schema.ClassGood, st.Class)
		case !isHex(st.SameBuild.SHA256, 64):
			add("the engine it built again names no sha256 (%q)", st.SameBuild.SHA256)
		}
		for _, p := range checkSameBuild(st.SameBuild, st.Commit) {
			add("the good commit's engine again: %s", p)
		}
		return probs
	}
	cs := st.Campaigns
	measured := 0 // campaigns that ran to their end, the restarted ones not counted
	for j, c := range cs {
		last := j == len(cs)-1
		restarted := c.Verdict == schema.Incomplete && !last
		prev := -1 // the campaign before this one that ran to its end
		for k := j - 1; k >= 0; k-- {
			if cs[k].Verdict != schema.Incomplete {
				prev = k
				break
			}
		}
		switch {
		case j > 0 && cs[j-1].Verdict == schema.Incomplete && c.Rounds != cs[j-1].Rounds:
			add("campaign %d ran %d rounds after campaign %d was interrupted: a fresh campaign in its place runs its %d", j+1, c.Rounds, j, cs[j-1].Rounds)
		case (j == 0 || cs[j-1].Verdict != schema.Incomplete) && prev >= 0 && c.Rounds != 2*cs[prev].Rounds:
			add("campaign %d ran %d rounds, not twice the %d of the campaign before it", j+1, c.Rounds, cs[prev].Rounds)
		case c.Verdict == schema.Incomplete && last && !pending:
			add("campaign %d is %s: an interrupted campaign is resumed before anything follows it", j+1, c.Verdict)
		case !restarted && !last && c.Class != schema.ClassUndecided:
			add("campaign %d is %s, yet another followed it: only an undecided campaign is run again", j+1, c.Class)
		}
		if !restarted {
			measured++
		}
	}
	if measured > 2 {
		add("%d campaigns: a commit is measured again once, when its first campaign is undecided", measured)
	}
	if pending {
		if st.Class != "" {
			add("the step under way states class %s: a step has a class once it ends", st.Class)
		}
		if len(cs) > 0 && !st.Build.OK {
			add("campaigns ran though the build did not succeed")
		}
		return probs
	}
	switch {
	case !st.Build.OK && (st.Class != schema.ClassBuildFailed || len(cs) > 0):
		add("the build failed, so the commit is %s with no campaign, not %s", schema.ClassBuildFailed, st.Class)
	case st.Build.OK && len(cs) == 0:
		add("the build succeeded but no campaign is linked")
	case st.Build.OK && cs[len(cs)-1].Class != st.Class:
		add("class %s, but its last campaign's is %s", st.Class, cs[len(cs)-1].Class)
	case st.Build.OK && st.Class == schema.ClassUndecided && measured < 2:
		add("undecided after one campaign: an undecided commit is measured again with twice the rounds before it is skipped")
	}
	return probs
}

// checkSearch checks that each step measured the commit the search picks
// after the steps before it (analysis.NextBisectCommit, replayed step by
// step: analysis.BisectReplay), and that none ran after the search had
// ended: a step left out, added or reordered shows. Only the first step
// that does not follow is reported; the ones after it follow from another
// search.
func checkSearch(b *schema.Bisect, steps []schema.BisectStep) []Problem {
	shas := make([]string, len(b.Commits))
	for i, c := range b.Commits {
		shas[i] = c.SHA
	}
	r := analysis.NewBisectReplay(shas)
	for _, st := range steps {
		sec := fmt.Sprintf("Step %d", st.N)
		next, done := r.Next()
		switch {
		case done:
			return []Problem{{sec, "the search had ended before this step: the steps before it decide the outcome"}}
		case st.Commit != next:
			return []Problem{{sec, fmt.Sprintf("commit %.12s, but after the steps before it the search measures %.12s", st.Commit, next)}}
		}
		r.Measured(st.Commit, st.Class)
	}
	return nil
}
