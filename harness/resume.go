package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Resume continues an interrupted campaign from its data folder: the same
// scenario (by semantic hash) and the same engine binary (by hash), from the
// run after the last finished one, into the same record. It trusts nothing
// it reads there: the record's path, hardware slug and date come from the
// data folder's own path and name (<out>/data/<stem>, record
// <out>/<stem>.md), and a data folder holding a symbolic link is refused.
// opt.OutDir, when set, must be that <out>.
func Resume(ctx context.Context, dataDir string, s *scenarios.Scenario, opt Options) (*Outcome, error) {
	dataDir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	recPath, stem, err := resumeTarget(dataDir, s.Feature, opt.OutDir)
	if err != nil {
		return nil, err
	}
	st, err := readState(dataDir)
	if err != nil {
		return nil, err
	}
	if h := s.Hash(); h != st.ScenarioHash {
		return nil, scenarioChanged(dataDir, s, opt.Shell, h, st.ScenarioHash, opt.ReceivedScenario)
	}

	c, err := newCampaign(s, opt)
	if err != nil {
		return nil, err
	}
	c.dataDir, c.recPath = dataDir, recPath
	if err := c.holdFolders(); err != nil {
		return nil, fmt.Errorf("resume %s: %w", dataDir, err)
	}
	defer c.releaseFolders()
	journalPath := filepath.Join(dataDir, recorder.RunsFile)
	if cut, err := RepairJournal(journalPath); err != nil {
		return nil, err
	} else if cut > 0 {
		c.progress.Printf("warning: %s ended in a torn line (%d bytes: a run cut off by a crash or a full disk); it was removed, and that run will be measured again", journalPath, cut)
	}
	runs, err := recorder.ReadRuns(filepath.Join(dataDir, recorder.RunsFile))
	if err != nil {
		return nil, err
	}
	if err := c.journalFits(runs); err != nil {
		return nil, fmt.Errorf("resume %s: %w; nothing was run", dataDir, err)
	}
	if err := finished(recPath, journalPath); err != nil {
		return nil, fmt.Errorf("resume %s: %w", dataDir, err)
	}
	if err := c.sealForResume(st); err != nil {
		return nil, fmt.Errorf("resume %s: %w; nothing was run", dataDir, err)
	}
	id, err := machine.Identify(ctx)
	if err != nil {
		c.progress.Printf("machine identity incomplete: %v", err)
	}
	c.rec = c.newRecord(stem.Hardware, stem.Date, id, st.Started)
	// The record names the scenario the campaign started from, as the
	// start named it, whichever file this resume read (the stored copy
	// where that file is gone, or a copy named on the command line).
	c.rec.Scenario.Path = st.startedPath()
	c.engines = identifyEngines(ctx, s)
	c.engines.runIdentical = c.opt.RunIdentical
	c.engines.record(c.rec, s.Baseline)
	if changed := c.engines.changedSince(st); len(changed) > 0 {
		return nil, fmt.Errorf("resume %s: the engine changed since the campaign started: %s%s; nothing was run", dataDir, strings.Join(changed, "; "), st.varsHint(s))
	}
	if c.rec.Engine.SHA256 != st.EngineSHA256 {
		return nil, fmt.Errorf("resume %s: the engine binary changed since the campaign started (%s, was sha256 %s)%s; nothing was run",
			dataDir, engineNow(c.rec.Engine), orNone(abbrevHash(st.EngineSHA256)), st.varsHint(s))
	}
	if err := c.engines.refuse(s); err != nil {
		return nil, fmt.Errorf("resume %s: %w", dataDir, err)
	}
	now := time.Now().Round(0)
	st.Resumed = append(st.Resumed, now)
	// The engines as this resume identified them (their files hash as
	// before): the record it writes states these.
	st.ResumedIdentity = append(st.ResumedIdentity, c.engines.armIdentity())
	c.rec.Method.Resumed = st.Resumed
	c.rec.Method.PlannedRounds = st.PlannedRounds
	c.redact.Walk(&st)
	st.withheld()
	if err := writeStateIn(c.data, st); err != nil {
		return nil, err
	}
	c.st = st
	c.rec.Runs = runs
	c.progress.Printf("resuming %s: %d run(s) already finished", dataDir, len(runs))
	return c.execute(ctx)
}

// Finished is the refusal to resume a campaign whose record is written
// and holds every run of its journal, was not interrupted (an interrupted
// campaign whose gate failed under on_gate_failure: continue is REJECTED,
// not INCOMPLETE), and has a verdict a resume cannot change (not FAILED,
// whose failed slot a resume tries again): a resume would only rewrite
// that record, counting the time since it finished as an interruption.
type Finished struct {
	Record  string
	Verdict schema.Verdict
}

func (f *Finished) Error() string {
	return fmt.Sprintf("the campaign finished (%s) and its record %s holds every run of its journal: nothing to resume; nothing was run or written", f.Verdict, f.Record)
}

// finished is a *Finished when the record at recPath is the finished
// record of the journal at journal (its runs.jsonl's sha256 is the
// journal's); nil otherwise, or when either cannot be read.
func finished(recPath, journal string) error {
	rec, err := recorder.ParseFile(recPath)
	if err != nil || rec.Verdict == schema.Incomplete || rec.Verdict == schema.Failed || rec.Method.Interrupted {
		return nil
	}
	sum, err := recorder.HashFile(journal)
	if err != nil {
		return nil
	}
	for _, f := range rec.Files {
		if f.Path == recorder.RunsFile && f.SHA256 == sum {
			return &Finished{Record: recPath, Verdict: rec.Verdict}
		}
	}
	return nil
}

// maxAttempt bounds a slot's attempt in a journal: each resume of a
// campaign stopped on a failed slot tries it once more, so a real journal's
// attempts are its retries and resumes, far below this.
const maxAttempt = 1_000_000

// journalFits refuses a journal that this scenario's campaign cannot have
// written: a run's slot outside the schedule's most runs (its most rounds
// × its arms), slots out of order, a slot whose round or arm is not the
// plan's, or an attempt out of bounds. The resume plans its schedule from
// the last slot, its retries from the last attempt and its looks from the
// rounds run, so forged ones must not make it plan rounds past the
// scenario's bounds, retry without end, or take a first look for the last.
func (c *campaign) journalFits(runs []schema.Run) error {
	s := c.scenario
	rounds := max(s.Schedule.Rounds.Max, s.Schedule.Rounds.Min)
	plan, err := c.plan(rounds)
	if err != nil {
		return err
	}
	prev := 0
	for i, r := range runs {
		switch {
		case r.Seq < 1 || r.Seq > len(plan):
			return fmt.Errorf("the journal's run %d is slot %d, outside the schedule's %d runs (%d arms × %d rounds): it was not written by this scenario's campaign",
				i+1, r.Seq, len(plan), len(s.Arms), rounds)
		case r.Seq < prev:
			return fmt.Errorf("the journal's run %d is slot %d, after slot %d: a campaign writes its slots in order", i+1, r.Seq, prev)
		case r.Round != plan[r.Seq-1].Round || r.Arm != plan[r.Seq-1].Arm:
			return fmt.Errorf("the journal's run %d, slot %d, is round %d of arm %q, where the plan has round %d of arm %q",
				i+1, r.Seq, r.Round, r.Arm, plan[r.Seq-1].Round, plan[r.Seq-1].Arm)
		case r.Attempt < 0 || r.Attempt > maxAttempt:
			return fmt.Errorf("the journal's run %d is attempt %d of its slot, outside 0 to %d", i+1, r.Attempt, maxAttempt)
		}
		prev = r.Seq
	}
	return nil
}

// resumePoint returns the index of the next slot to run and its attempt
// number, given the runs already in the record.
func (c *campaign) resumePoint() (next, attempt int) {
	if len(c.rec.Runs) == 0 {
		return 0, 1
	}
	last := c.rec.Runs[len(c.rec.Runs)-1]
	if last.OK() {
		return last.Seq, 1
	}
	if c.policy.Failure == schema.FailContinue {
		return last.Seq, 1
	}
	// The last slot failed and the campaign stopped there: try it again
	// (journalFits bounded the attempt, so the count cannot wrap round
	// to retries without end).
	return last.Seq - 1, max(last.Attempt, 1) + 1
}

// resumeSchedule plans the schedule from where the record's runs leave
// off: as many rounds as they reach (an adaptive campaign may have grown
// before it was interrupted), and the slot after the last finished run.
func (c *campaign) resumeSchedule() (*schedule, error) {
	s := c.scenario
	sch := &schedule{rounds: s.Schedule.Rounds.Min}
	if n := len(c.rec.Runs); n > 0 {
		// journalFits bounded the last slot by the schedule's most runs.
		sch.rounds = max(sch.rounds, (c.rec.Runs[n-1].Seq+len(s.Arms)-1)/len(s.Arms))
	}
	var err error
	if sch.plan, err = c.plan(sch.rounds); err != nil {
		return nil, err
	}
	sch.next, sch.attempt = c.resumePoint()
	c.progress.SetTotal(len(sch.plan), sch.next)
	c.progress.Printf("campaign %s: %d runs (%d arms × %d rounds, order %s), record %s",
		s.Feature, len(sch.plan), len(s.Arms), sch.rounds, s.Schedule.Order, c.recPath)
	return sch, nil
}

// varsHint is what to do about an engine that changed in a campaign whose
// state kept no variables (started before they were kept): its shell may
// have set the variables the scenario took from its own vars here.
func (st state) varsHint(s *scenarios.Scenario) string {
	if st.Vars != nil {
		return ""
	}
	var names []string
	for _, kv := range s.VarsUsed() {
		if !kv.FromEnv {
			names = append(names, kv.Key)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" (this campaign's state, written before decodebench kept the environment's variables, does not say which its shell set: if it set %s, set them as they were and resume again)", strings.Join(names, " or "))
}

// SameFolder reports whether two paths name one folder, however each
// reaches it (a link, a $PWD that is not the canonical path).
func SameFolder(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
