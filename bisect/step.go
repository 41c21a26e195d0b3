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
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// step builds the commit in its own worktree and runs its campaigns,
// filling in st. An error stops the bisect (the context ended, or
// something other than the build or the campaign failed).
func (b *bisector) step(ctx context.Context, refDir string, st *schema.BisectStep) error {
	start := time.Now()
	dir := filepath.Join(b.st.WorkDir, short(st.Commit))
	if err := addWorktree(ctx, b.st.Source, dir, st.Commit); err != nil {
		return err
	}
	defer func() { _ = removeWorktree(context.Background(), b.st.Source, dir) }()
	res, err := build(ctx, b.dataDir, dir, b.build, buildsDir+"/"+short(st.Commit)+".log", b.redact, b.opt.BuildTimeout)
	if errors.Is(err, errBuildTimeout) {
		err = nil // a build that failed: its commit is skipped
	}
	if err != nil {
		return err
	}
	st.Build = res
	if !res.OK {
		st.Class = schema.ClassBuildFailed
		st.Seconds += roundSeconds(time.Since(start))
		return nil
	}
	for {
		n := len(st.Campaigns)
		var resume string
		rounds := b.st.BaseRounds
		if n > 0 {
			last := st.Campaigns[n-1]
			switch {
			case last.Verdict == schema.Incomplete:
				resume = last.Record // interrupted: finish it
				rounds = last.Rounds
			case last.Class != schema.ClassUndecided || n >= 2:
				st.Class = last.Class
				st.Seconds += roundSeconds(time.Since(start))
				return nil
			default:
				rounds = 2 * last.Rounds
			}
		}
		c, err := b.campaign(ctx, st.Commit, dir, refDir, rounds, resume)
		if err != nil {
			return err
		}
		if resume != "" {
			st.Campaigns[n-1] = c
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

// campaign runs (or, given the record of an interrupted one, resumes) one
// campaign of the scenario with the two worktrees and classifies it.
func (b *bisector) campaign(ctx context.Context, commit, candDir, refDir string, rounds int, resume string) (schema.BisectCampaign, error) {
	var set []string
	if rounds != b.st.BaseRounds {
		set = []string{scenarios.RoundsOverride(rounds)}
	}
	s, err := loadStep(b.st.ScenarioPath, candDir, refDir, set)
	if err != nil {
		return schema.BisectCampaign{}, err
	}
	if s.Hash() != b.st.Summary.ScenarioHash && len(set) == 0 {
		return schema.BisectCampaign{}, fmt.Errorf("the scenario %s changed since the bisect started (hash %.12s, was %.12s)", s.Path, s.Hash(), b.st.Summary.ScenarioHash)
	}
	opt := b.opt.Harness
	opt.OutDir = filepath.Join(b.dataDir, "steps")
	var out *harness.Outcome
	if resume != "" {
		rec := filepath.Join(filepath.Dir(b.sumPath), filepath.FromSlash(resume))
		out, err = harness.Resume(ctx, filepath.Join(filepath.Dir(rec), "data", strings.TrimSuffix(filepath.Base(rec), ".md")), s, opt)
		if err != nil {
			// The interrupted campaign cannot go on (its binary was
			// rebuilt differently, say): it stays as it was, INCOMPLETE,
			// and a fresh campaign follows.
			b.progress("resume of %s refused (%v): starting a fresh campaign", resume, err)
			out, err = harness.Run(ctx, s, opt)
		}
	} else {
		out, err = harness.Run(ctx, s, opt)
	}
	if err != nil {
		return schema.BisectCampaign{}, err
	}
	if err := b.verifyBuilds(out.Record, candDir, refDir, commit); err != nil {
		return schema.BisectCampaign{}, fmt.Errorf("%s: %w", out.RecordPath, err)
	}
	c := analysis.ClassifyStep(out.Record, b.st.Summary.Reference, b.st.Summary.Candidate, b.st.Summary.Threshold)
	rel, err := filepath.Rel(filepath.Dir(b.sumPath), out.RecordPath)
	if err != nil {
		return c, err
	}
	c.Record, c.Rounds = filepath.ToSlash(rel), rounds
	return c, nil
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
