package review

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A record whose account of how its campaign ran was forged apart from
// its stored schedule and runs fails check, where the analysis took it as
// given: an interrupted campaign re-labelled as finished over a truncated
// plan (INCOMPLETE made VALID), a budget's plans in a schedule without a
// budget (the whole alpha spent at the first look), a sequential campaign
// cut at a look that did not decide. The records as committed pass.
func TestCheckRefusesAForgedLifecycle(t *testing.T) {
	const (
		fixed      = "spec-draft-epyc-2026-11-29-2" // 6 rounds
		sequential = "spec-draft-epyc-2026-12-02"   // {min: 5, max: 15, every: 5}, ran 15
		budget     = "spec-draft-epyc-2026-12-05-3" // {min: 5, max: 10, max_time: 10m, every: 5}, ran 10
	)
	cut := func(rounds int) func(*schema.Record) {
		return func(r *schema.Record) {
			arms := len(r.Scenario.Arms)
			r.Method.RoundsRun, r.Method.Planned, r.Method.Interrupted = rounds, r.Method.Planned[:rounds*arms], false
			var runs []schema.Run
			for _, run := range r.Runs {
				if run.Round <= rounds {
					runs = append(runs, run)
				}
			}
			r.Runs = runs
		}
	}
	for name, c := range map[string]struct {
		record string
		edit   func(*schema.Record)
		want   string
	}{
		"fixed as committed":      {fixed, func(*schema.Record) {}, ""},
		"sequential as committed": {sequential, func(*schema.Record) {}, ""},
		"fixed cut short":         {fixed, cut(5), "rounds run 5, where the stored scenario's fixed schedule plans 6"},
		"plan shorter than run":   {fixed, func(r *schema.Record) { r.Method.Planned = r.Method.Planned[:9] }, "the plan holds 9 runs, where 6 rounds of 3 arms were planned"},
		"a budget's plans":        {sequential, func(r *schema.Record) { r.Method.PlannedRounds = []int{5} }, "planned_rounds [5], where the stored scenario's schedule has no budget"},
		"cut at the first look":   {sequential, cut(5), "the campaign stopped after 5 rounds, at a look that did not decide, before max (15)"},
		"cut between looks":       {sequential, cut(7), "rounds run 7 is not a look of the schedule"},
		"budget as committed":     {budget, func(*schema.Record) {}, ""},
		// A budgeted campaign cut at a look that did not decide, where its
		// budget's plan there allowed the next: its stopping was not
		// checked at all (a review's forged record passed).
		"budget cut at the first look": {budget, func(r *schema.Record) {
			cut(5)(r)
			r.Method.PlannedRounds = r.Method.PlannedRounds[:1]
		}, "the campaign stopped after 5 rounds, at a look that did not decide, before max (10) or the last look its budget's plan allowed"},
		"budget decided at the first look": {"spec-draft-epyc-2026-12-05", func(*schema.Record) {}, ""},
		// The plan reordered: each arm's runs together, on a rotating order.
		"plan reordered":                     {fixed, func(r *schema.Record) { slices.Sort(r.Method.Planned) }, "the plan is not the stored scenario's (order rotate, seed "},
		"started after run 1":                {fixed, func(r *schema.Record) { r.Method.Started = r.Runs[0].Start.Add(time.Second) }, "run 1 started at "},
		"finished before the last run ended": {fixed, func(r *schema.Record) { r.Method.Finished = r.Runs[len(r.Runs)-1].Start }, ", after the campaign finished ("},
		"stopped_by of a sequential look":    {fixed, func(r *schema.Record) { r.Method.StoppedBy = "the arms separated at the first look" }, "where the stored scenario's fixed schedule stops by its rounds"},
		"stopped_by of a fixed schedule":     {sequential, func(r *schema.Record) { r.Method.StoppedBy = "fixed schedule of 15 rounds" }, "where the stored scenario's schedule is adaptive"},
		"a signal named, not interrupted":    {fixed, func(r *schema.Record) { r.Method.InterruptedBy = "SIGTERM" }, `interrupted_by "SIGTERM", where only an interrupted campaign names its signal`},
		// A campaign that ran to max undecided claiming a decision, and one
		// that decided claiming max; a budget's plans left out (a missing
		// plan reads as max: a campaign went on past its budget's last
		// look).
		"stopped_by claims a decision": {sequential, func(r *schema.Record) {
			r.Method.StoppedBy = "sequential look after 15 rounds decided every test arm (look 3 of 3, alpha 0.01667 a look)"
		}, "where the schedule stops at its last look by its runs for: maximum of 15 rounds reached at the last sequential look: no decision for every test arm"},
		"stopped_by claims max": {budget, func(r *schema.Record) {
			r.Method.StoppedBy = "maximum of 10 rounds reached at the last sequential look: no decision for every test arm"
		}, "where the schedule stops at its last look by its runs for: sequential look after 10 rounds decided every test arm (look 2 of 2, O'Brien-Fleming type spending, alpha 0.05 spent)"},
		// Free text after the words the harness writes, and a gate's stop
		// over a campaign whose runs all passed theirs (review: both
		// passed check).
		"stopped_by with text added": {budget, func(r *schema.Record) {
			r.Method.StoppedBy = strings.Replace(r.Method.StoppedBy, " spent)", " spent); the draft arm is 2.1x faster", 1)
		}, "where the schedule stops at its last look by its runs for: sequential look after 10 rounds decided every test arm"},
		"a gate's stop claimed": {fixed, func(r *schema.Record) {
			r.Method.StoppedBy = fmt.Sprintf("run %d failed its counter expectation (on_gate_failure: stop)", r.Runs[len(r.Runs)-1].Seq)
		}, "where the verdict is "},
		"a gate's stop at an earlier run": {fixed, func(r *schema.Record) {
			r.Method.StoppedBy = "run 1 failed its counter expectation (on_gate_failure: stop)"
		},
			"where run 1 is not the campaign's last run"},
		// stopped_by deleted: why the campaign stopped, and any overrun
		// of its budget, unsaid (a review's edit passed).
		"stopped_by deleted": {budget, func(r *schema.Record) { r.Method.StoppedBy = "" },
			"no stopped_by, where a sequential campaign that was not interrupted says what stopped it"},
		"a budget's plans left out": {budget, func(r *schema.Record) { r.Method.PlannedRounds = nil },
			"planned_rounds []: 0 plan(s) for the 2 look(s) taken ([5 10]), where a budgeted campaign that was not interrupted plans at every look it takes"},
		"a budget's plan left out": {budget, func(r *schema.Record) { r.Method.PlannedRounds = r.Method.PlannedRounds[:1] },
			"planned_rounds [10]: 1 plan(s) for the 2 look(s) taken"},
		// Every time stretched threefold: the budget's plan at the first
		// look allows 8 rounds, no second look, so the first decides (the
		// last look spends the rest of alpha), yet the campaign went on.
		"went on past the budget's last look": {budget, func(r *schema.Record) {
			stretch := func(t time.Time) time.Time { return r.Method.Started.Add(3 * t.Sub(r.Method.Started)) }
			for i := range r.Runs {
				r.Runs[i].Start, r.Runs[i].Seconds, r.Runs[i].CooldownS = stretch(r.Runs[i].Start), 3*r.Runs[i].Seconds, 3*r.Runs[i].CooldownS
			}
			r.Method.Finished = stretch(r.Method.Finished)
			r.Method.PlannedRounds = []int{8, 10}
		}, "the look after 5 rounds decided, yet the campaign went on to 10"},
		// An overrun of the budget (10 minutes; its runs took less) claimed,
		// and one misstated.
		"a budget's overrun forged": {budget, func(r *schema.Record) {
			r.Method.StoppedBy += "; the 10 rounds' runs and cooldowns took 12m0s, 2m0s past the budget of 10m0s (the rounds since the look before took longer than those before it)"
		}, "states an overrun of the budget that its runs do not give (they took no longer than the budget)"},
		"a budget's overrun misstated": {budget, func(r *schema.Record) {
			for i := range r.Runs {
				r.Runs[i].Seconds *= 3
			}
			r.Method.StoppedBy += "; the 10 rounds' runs and cooldowns took 10m1s, 1s past the budget of 10m0s (the rounds since the look before took longer than those before it)"
		}, "states an overrun of the budget that its runs do not give (they give the 10 rounds' runs and cooldowns took "},
		// The budget's last look at 5 rounds: the whole alpha spent there.
		"a budget's plan forged": {budget, func(r *schema.Record) { r.Method.PlannedRounds[0] = 5 }, "planned_rounds [5 10]: the budget's plan at the look after 5 rounds is 10 by the runs' times, not 5"},
	} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join("..", "docs", "benchmark_results", c.record+".md")
			rec, err := recorder.Load(src)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(rec)
			var got []string
			for _, p := range Check(writeCopy(t, t.TempDir(), filepath.Join(filepath.Dir(src), "data", c.record), rec)) {
				if p.Section == "Method" {
					got = append(got, p.Message)
				}
			}
			if c.want == "" && len(got) > 0 || c.want != "" && !strings.Contains(strings.Join(got, "\n"), c.want) {
				t.Errorf("problems of the method %q, want %q", got, c.want)
			}
		})
	}
}
