package bisect

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// step builds the commit in its own worktree and, when it builds (and the
// good commit's worktree is built), runs its campaigns, filling in st. A
// step that a resume finds decided (its build failed, or its last
// campaign settled it) is concluded without a build. An error stops the
// bisect (the context ended, --max-time cut a build short: errOutOfTime,
// or something other than the build or the campaign failed).
func (b *bisector) step(ctx context.Context, st *schema.BisectStep) error {
	if class, ok := settled(st); ok {
		st.Class = class
		return nil
	}
	start := time.Now()
	dir := filepath.Join(b.st.WorkDir, short(st.Commit))
	if err := addWorktree(ctx, b.st.Source, dir, st.Commit); err != nil {
		return err
	}
	defer func() { _ = removeWorktree(context.Background(), b.st.Source, dir) }()
	res, err := b.runBuild(ctx, dir, buildsDir+"/"+short(st.Commit)+".log")
	if err != nil {
		return err
	}
	if !res.OK && len(st.Campaigns) > 0 {
		// It built before the interruption: its campaigns stand, and the
		// step stays pending for a resume to build it again.
		return fmt.Errorf("%.12s built before, and building it again on resume failed (%s): see %s", st.Commit, exitText(res), filepath.Join(b.dataDir, filepath.FromSlash(res.Log)))
	}
	st.Build = res
	if res.OK {
		// The good commit's build, once, when a campaign is to run.
		refStart := time.Now()
		if err := b.buildReference(ctx); err != nil {
			return err
		}
		start = start.Add(time.Since(refStart))
	}
	runIdentical := false
	for {
		if class, ok := settled(st); ok {
			st.Class = class
			st.Seconds += roundSeconds(time.Since(start))
			return nil
		}
		rounds, resume := nextCampaign(st, b.st.BaseRounds)
		c, resumed, err := b.campaign(ctx, st.Commit, dir, rounds, resume, runIdentical)
		same, why, identical, serr := b.sameBuild(err, dir)
		switch {
		case serr != nil:
			return serr
		case same != nil && len(st.Campaigns) == 0:
			// The commit built the good commit's binary again: a result,
			// no change, not an accidental A/A comparison to refuse.
			st.SameBuild = same
			b.progress("%.12s builds the good commit's engine again, byte for byte (sha256 %.12s): no change, good, without a campaign", st.Commit, same.SHA256)
			continue
		case identical && same == nil && !runIdentical:
			// The bytes compared are not all that runs: measure it.
			runIdentical = true
			b.progress("%.12s runs an engine byte-identical to the good commit's, but %s: the campaign runs", st.Commit, why)
			continue
		}
		if err != nil {
			return err
		}
		if resumed {
			st.Campaigns[len(st.Campaigns)-1] = c
		} else {
			st.Campaigns = append(st.Campaigns, c)
		}
		if err := b.save(); err != nil {
			return err
		}
		if ctx.Err() != nil {
			st.Seconds += roundSeconds(time.Since(start))
			return ctx.Err()
		}
	}
}

// settled is the class of a step whose build failed, or whose last
// campaign decided it: good or bad, or undecided after two finished
// campaigns (an interrupted campaign whose resume was refused stays
// linked, and does not count).
func settled(st *schema.BisectStep) (schema.BisectClass, bool) {
	if st.Build.Log != "" && !st.Build.OK {
		return schema.ClassBuildFailed, true
	}
	if st.SameBuild != nil {
		return schema.ClassGood, true
	}
	n := len(st.Campaigns)
	if n == 0 || st.Campaigns[n-1].Verdict == schema.Incomplete {
		return "", false
	}
	last, finished := st.Campaigns[n-1], 0
	for _, c := range st.Campaigns {
		if c.Verdict != schema.Incomplete {
			finished++
		}
	}
	if last.Class != schema.ClassUndecided || finished >= 2 {
		return last.Class, true
	}
	return "", false
}

// nextCampaign is the step's next campaign: the interrupted last one
// (resume names its record) with its rounds, else one with twice the last
// finished one's rounds, or the first with the scenario's.
func nextCampaign(st *schema.BisectStep, base int) (rounds int, resume string) {
	n := len(st.Campaigns)
	if n == 0 {
		return base, ""
	}
	if last := st.Campaigns[n-1]; last.Verdict == schema.Incomplete {
		return last.Rounds, last.Record
	}
	return 2 * st.Campaigns[n-1].Rounds, ""
}

// buildReference builds the good commit's worktree, once a process.
func (b *bisector) buildReference(ctx context.Context) error {
	if b.refBuilt {
		return nil
	}
	sum := &b.st.Summary
	if err := addWorktree(ctx, b.st.Source, b.refDir(), sum.Good); err != nil {
		return err
	}
	rb, err := b.runBuild(ctx, b.refDir(), buildsDir+"/reference-"+short(sum.Good)+".log")
	if err != nil {
		return err
	}
	sum.ReferenceBuild = rb
	if !rb.OK {
		return fmt.Errorf("the good commit %.12s does not build (%s): see %s", sum.Good, exitText(rb), filepath.Join(b.dataDir, filepath.FromSlash(rb.Log)))
	}
	b.refBuilt = true
	return nil
}

// runBuild builds a worktree, for at most --build-timeout and what is left
// of --max-time: a build past --build-timeout has failed, one past
// --max-time is errOutOfTime (and is not run at all when none is left).
func (b *bisector) runBuild(ctx context.Context, dir, logName string) (schema.BisectBuild, error) {
	timeout, byMaxTime := b.opt.BuildTimeout, false
	if b.st.MaxSeconds > 0 {
		left := time.Duration((b.st.MaxSeconds - b.elapsed()) * float64(time.Second))
		if left <= 0 {
			return schema.BisectBuild{}, errOutOfTime
		}
		if timeout <= 0 || left < timeout {
			timeout, byMaxTime = left, true
		}
	}
	res, err := build(ctx, b.dataDir, dir, b.build, logName, b.redact, timeout)
	if errors.Is(err, errBuildTimeout) {
		if byMaxTime {
			b.progress("--max-time ran out while building %s", dir)
			return res, errOutOfTime
		}
		b.progress("the build in %s did not finish within --build-timeout %s: killed, and its commit skipped", dir, timeout)
		return res, nil
	}
	return res, err
}

// exitText says how a failed build ended.
func exitText(b schema.BisectBuild) string {
	if b.ExitCode < 0 {
		return "killed"
	}
	return fmt.Sprintf("exit %d", b.ExitCode)
}

// campaign runs (or, given the record of an interrupted one, resumes) one
// campaign of the scenario with the two worktrees and classifies it;
// resumed says it went on in the interrupted campaign's record.
func (b *bisector) campaign(ctx context.Context, commit, candDir string, rounds int, resume string, runIdentical bool) (c schema.BisectCampaign, resumed bool, err error) {
	refDir := b.refDir()
	var set []string
	if rounds != b.st.BaseRounds {
		set = []string{scenarios.RoundsOverride(rounds)}
	}
	s, hash, err := loadStep(b.st.ScenarioPath, candDir, refDir, set)
	if err != nil {
		return c, false, err
	}
	// A step run again at more rounds is held to the scenario as much as
	// one at the base rounds: its hash with the rounds overridden is
	// another, so it was not compared, and a file rewritten after the
	// consent ran its commands.
	if hash != b.st.Summary.ScenarioHash {
		return c, false, fmt.Errorf("the scenario %s changed since the bisect started (hash %.12s, was %.12s)", s.Path, hash, b.st.Summary.ScenarioHash)
	}
	opt := b.opt.Harness
	opt.OutDir = filepath.Join(b.dataDir, "steps")
	opt.RunIdentical = runIdentical
	var out *harness.Outcome
	if resume != "" {
		rec := filepath.Join(filepath.Dir(b.sumPath), filepath.FromSlash(resume))
		dataDir := filepath.Join(filepath.Dir(rec), "data", strings.TrimSuffix(filepath.Base(rec), ".md"))
		out, err = harness.Resume(ctx, dataDir, s, opt)
		if fin := (*harness.Finished)(nil); errors.As(err, &fin) {
			// The step's campaign finished before the bisect was
			// stopped: its record is the step's, as written.
			var done *schema.Record
			if done, err = recorder.Load(rec); err == nil {
				out = &harness.Outcome{Record: done, RecordPath: rec, DataDir: dataDir}
			}
		}
		resumed = err == nil
		if err != nil {
			// The interrupted campaign cannot go on: a build that is not
			// bit for bit the same, rebuilt on resume, is another engine.
			// Its record stays linked as it was, INCOMPLETE (check still
			// vouches for it), and a fresh campaign follows.
			b.progress("%s cannot be resumed (%v; a rebuild that is not bit for bit the same is another engine): it stays linked, INCOMPLETE, and a fresh campaign follows", resume, err)
			out, err = harness.Run(ctx, s, opt)
		}
	} else {
		out, err = harness.Run(ctx, s, opt)
	}
	if err != nil {
		return c, false, err
	}
	if err := b.verifyBuilds(out.Record, candDir, refDir, commit); err != nil {
		return c, false, fmt.Errorf("%s: %w", out.RecordPath, err)
	}
	c = analysis.ClassifyStep(out.Record, b.st.Summary.Reference, b.st.Summary.Candidate, b.st.Summary.Threshold)
	rel, err := filepath.Rel(filepath.Dir(b.sumPath), out.RecordPath)
	if err != nil {
		return c, false, err
	}
	c.Record, c.Rounds = filepath.ToSlash(rel), rounds
	return c, resumed, nil
}

// verifyBuilds checks that each arm ran its own build: the reference arm
// the good commit's worktree, the candidate the commit's, by the engine
// paths and source commits its record names. A scenario that swapped the
// variables would otherwise bisect the wrong way round.
func (b *bisector) verifyBuilds(rec *schema.Record, candDir, refDir, commit string) error {
	for _, side := range []struct{ arm, dir, other, commit string }{
		{b.st.Summary.Reference, refDir, candDir, b.st.Summary.Good},
		{b.st.Summary.Candidate, candDir, refDir, commit},
	} {
		e := rec.EngineOf(side.arm)
		if within(e.Path, side.other) || within(e.RealBinary, side.other) {
			return fmt.Errorf("arm %s ran %s, a build of the other worktree: the baseline arm must run ${%s}, the other ${%s}", side.arm, e.Path, ReferenceVar, CandidateVar)
		}
		if e.SourceCommit != "" && e.SourceCommit != side.commit {
			return fmt.Errorf("arm %s ran a build whose source is at %.12s, not %.12s", side.arm, e.SourceCommit, side.commit)
		}
	}
	return nil
}

// within reports whether path lies inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return path != "" && err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
