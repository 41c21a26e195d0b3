package review

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// failedAttempt is run r as a request that failed leaves it: its error,
// none of the values a finished run holds, and a second's time ending
// at ends.
func failedAttempt(r schema.Run, ends time.Time) schema.Run {
	f := schema.Run{Seq: r.Seq, Round: r.Round, Arm: r.Arm, Attempt: r.Attempt, Start: ends.Add(-time.Second), Seconds: 1,
		CooldownS: r.CooldownS, Log: r.Log, Error: "measured request: event stream: unexpected EOF; the engine exited (exit status 1)"}
	return f
}

// retried puts failed attempts of run i's slot before it (n of them,
// between the run before and it), run i their last attempt.
func retried(runs []schema.Run, i, n int) []schema.Run {
	prev := runs[i-1]
	from := prev.Start.Add(time.Duration(prev.Seconds * float64(time.Second)))
	slot := runs[i].Start.Sub(from) / time.Duration(n+1)
	var fails []schema.Run
	for k := range n {
		f := failedAttempt(runs[i], from.Add(time.Duration(k)*slot+slot/2))
		f.Start, f.Seconds, f.Attempt = from.Add(time.Duration(k)*slot+slot/10), (slot * 4 / 10).Seconds(), k+1
		f.CooldownS = (slot / 20).Seconds() // within the gap before it, as the harness times it
		if k == 0 {
			f.Attempt = 0
		}
		fails = append(fails, f)
	}
	runs[i].Attempt = n + 1
	runs[i].CooldownS = min(runs[i].CooldownS, (slot / 20).Seconds())
	return slices.Insert(runs, i, fails...)
}

// moved is run r put in slot's place (its seq, round and log), its
// times its own.
func moved(r, slot schema.Run) schema.Run {
	r.Seq, r.Round, r.Log = slot.Seq, slot.Round, slot.Log
	return r
}

// A run's arm and round are its slot's in the stored plan, and the runs
// follow one another as the run loop runs them under on_failure: a
// forged record that swaps two runs' arms (their logs renamed), permutes
// one arm's rounds, moves runs with their times and logs, marks a
// finished run failed under abort, runs on after a failure that stopped
// the campaign, or retries where the policy does not fails check, each
// named; the run loop's own shapes (a retry,
// a resume after an abort, the resumed run without a cooldown) pass.
func TestCheckHoldsRunsToTheirSlots(t *testing.T) {
	edit := func(f func(runs []schema.Run) []schema.Run) func(*[]schema.Run) {
		return func(r *[]schema.Run) { *r = f(*r) }
	}
	resumedBefore := func(i int) func(*schema.Record) {
		return func(rec *schema.Record) {
			rec.Method.Resumed = []time.Time{rec.Runs[i].Start.Add(-50 * time.Millisecond)}
			rec.Runs[i].CooldownS = 0
		}
	}
	for name, c := range map[string]struct {
		onFailure string
		runs      func(*[]schema.Run)
		record    func(*schema.Record)
		renames   map[string]string
		want      []string
	}{
		"as written": {},
		"arms swapped": {runs: edit(func(runs []schema.Run) []schema.Run {
			runs[0].Arm, runs[2].Arm = "draft", "classic"
			runs[0].Log, runs[2].Log = "logs/run-001-draft.log", "logs/run-003-classic.log"
			runs[0].Counters, runs[2].Counters = runs[2].Counters, runs[0].Counters
			return runs
		}), renames: map[string]string{"run-001-classic.log": "run-001-draft.log", "run-003-draft.log": "run-003-classic.log"},
			want: []string{"run 1 is arm draft, where the plan (order rotate, seed 1) runs arm classic in slot 1", "run 3 is arm classic, where the plan"}},
		"rounds permuted": {runs: edit(func(runs []schema.Run) []schema.Run {
			for i := range runs {
				if runs[i].Arm == "draft" {
					runs[i].Round = 7 - runs[i].Round
				}
			}
			return runs
		}), want: []string{"run 3 (draft) is round 6, where the plan's slot 3 is in round 1"}},
		// Round 1's classic run and round 2's exchanged, their logs too.
		"runs moved with their times": {runs: edit(func(runs []schema.Run) []schema.Run {
			runs[0], runs[5] = moved(runs[5], runs[0]), moved(runs[0], runs[5])
			return runs
		}), renames: map[string]string{"run-001-classic.log": "run-006-classic.log", "run-006-classic.log": "run-001-classic.log"},
			want: []string{"run 2 (control) started at ", ", before run 1 (classic), the one before it in runs.jsonl, ended ("}},
		"a finished run marked failed under abort": {runs: edit(func(runs []schema.Run) []schema.Run {
			runs[2].Error = "engine exited before its ready answer: exit status 1"
			return runs
		}), want: []string{"run 4 (control) is attempt 1 of slot 4, where after slot 3's failed attempt 1 the harness runs attempt 2 of slot 3 (on_failure: abort)"}},
		"a slot left out": {runs: edit(func(runs []schema.Run) []schema.Run { return slices.Delete(runs, 4, 5) }),
			want: []string{"run 6 (classic) is attempt 1 of slot 6, where after slot 4's finished run the harness runs attempt 1 of slot 5"}},
		"another attempt after an abort": {runs: edit(func(runs []schema.Run) []schema.Run { return retried(runs, 4, 1) }),
			want: []string{"run 5 (draft), attempt 2, follows its slot's failed attempt 1, after which on_failure: abort stopped the campaign; no resume"}},
		"a resume whose run cooled down": {runs: edit(func(runs []schema.Run) []schema.Run { return retried(runs, 4, 1) }),
			record: func(rec *schema.Record) {
				rec.Method.Resumed = []time.Time{rec.Runs[5].Start.Add(-200 * time.Millisecond)}
			},
			want: []string{"run 5 (draft) is the first after the resume at ", "yet states a cooldown of"}},
		// A cooldown forged longer than the gap the runs leave (a budget's
		// plan reads it: a look made the budget's last), below zero, or
		// before the first run.
		"a cooldown longer than the gap": {runs: edit(func(runs []schema.Run) []schema.Run {
			runs[3].CooldownS += 30
			return runs
		}), want: []string{"run 4 (control) states a cooldown of ", " s after run 3 (draft) ended: the harness times the cooldown between the two"}},
		"a cooldown below zero": {runs: edit(func(runs []schema.Run) []schema.Run {
			runs[3].CooldownS = -1
			return runs
		}), want: []string{"run 4 (control) states a cooldown of -1.000 s, below zero"}},
		"a cooldown before the first run": {runs: edit(func(runs []schema.Run) []schema.Run {
			runs[0].CooldownS = 2
			return runs
		}), want: []string{"run 1 (classic), the campaign's first, states a cooldown of 2.000 s since a run before it"}},
		"resumed after an abort":  {runs: edit(func(runs []schema.Run) []schema.Run { return retried(runs, 4, 1) }), record: resumedBefore(5)},
		"retried":                 {onFailure: "retry:1", runs: edit(func(runs []schema.Run) []schema.Run { return retried(runs, 4, 1) })},
		"retried past its policy": {onFailure: "retry:1", runs: edit(func(runs []schema.Run) []schema.Run { return retried(runs, 4, 2) }), want: []string{"attempt 3, follows its slot's failed attempt 2, after which on_failure: retry:1 stopped the campaign"}},
		"retried under continue": {onFailure: "continue", runs: edit(func(runs []schema.Run) []schema.Run { return retried(runs, 4, 1) }),
			want: []string{"run 5 (draft) is attempt 2 of slot 5, where after slot 5's failed run the harness runs attempt 1 of slot 6 (on_failure: continue)"}},
		"the last run failed with a retry left": {onFailure: "retry:2", runs: edit(func(runs []schema.Run) []schema.Run {
			n := len(runs) - 1
			runs[n] = failedAttempt(runs[n], runs[n].Start.Add(time.Second))
			return runs
		}), want: []string{"the last run, attempt 1 of slot 18 (control), failed with a retry left under on_failure: retry:2, and the campaign was not interrupted"}},
	} {
		t.Run(name, func(t *testing.T) {
			var set func(*schema.Record)
			f := forgery{onFailure: c.onFailure, renames: c.renames}
			if c.runs != nil || c.record != nil {
				set = func(rec *schema.Record) {
					if c.runs != nil {
						c.runs(&rec.Runs)
					}
					if c.record != nil {
						c.record(rec)
					}
				}
			}
			f.record = set
			got := problemsOf(t, forgedRuns(t, craftedName, f))
			wantProblems(t, got, c.want...)
		})
	}
}

// A genuine cooldown timed on the monotonic clock passes though the wall
// clock stepped back a second between the two runs (a leap second, an
// NTP step); one that the runs' times leave no room for does not.
func TestCooldownAllowsAWallClockStep(t *testing.T) {
	prev := schema.Run{Seq: 1, Arm: "base", Start: time.Date(2026, 12, 31, 23, 59, 30, 0, time.UTC), Seconds: 10}
	run := schema.Run{Seq: 2, Arm: "draft", Start: prev.Start.Add(10*time.Second + 19400*time.Millisecond), CooldownS: 20.2}
	if p := cooldownProblem(&prev, run); p != "" {
		t.Errorf("a cooldown of 20.2 s across a wall clock stepped back 1 s: %s", p)
	}
	run.CooldownS = 30
	if p := cooldownProblem(&prev, run); !strings.Contains(p, "states a cooldown of 30.000 s, where it started 19.400 s after run 1 (base) ended") {
		t.Errorf("a cooldown of 30 s in a gap of 19.4 s: %q", p)
	}
}
