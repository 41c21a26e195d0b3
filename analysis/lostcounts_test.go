package analysis

import (
	"slices"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// retried is a campaign of arms a and b over rounds, in which the first
// lost of b's slots were each tried first by an attempt that failed for a
// lost count of c (and other of them by one that failed otherwise), then
// retried to a finished run.
func retried(rounds, lost, other int) Input {
	p := policy("a", "b")
	p.Failure = "retry:2"
	in := campaign(p, rounds, level(map[string]float64{"a": 100, "b": 110}), honest)
	var runs []Run
	for _, r := range in.Runs {
		if r.Arm == "b" && lost+other > 0 {
			f := Run{Seq: r.Seq, Round: r.Round, Arm: r.Arm, Attempt: 1, Start: r.Start, Error: "the command's output has no match for counter c", LostCount: "c",
				Counters: map[string]Reading{"c": {Absent: true}}}
			if lost == 0 {
				f.Error, f.LostCount, other = "the engine exited", "", other-1
			} else {
				lost--
			}
			r.Attempt = 2
			runs = append(runs, f)
		}
		runs = append(runs, r)
	}
	in.Runs = runs
	return in
}

// An arm may lose one count whatever its attempts, and from two on at
// most one in ten of them: beyond, the campaign is REJECTED, naming the
// arm, the counter and the attempts that lacked it; within, it is judged
// on its finished runs and warned of the lost counts. A run that failed
// for another reason is no lost count.
func TestLostCountsBounded(t *testing.T) {
	for _, c := range []struct {
		rounds, lost, other int
		reject              bool
	}{
		{3, 1, 0, false},    // one lost count in 4 attempts of b: the race met once
		{18, 2, 0, false},   // 2 of 20
		{17, 2, 0, true},    // 2 of 19: more than one in ten
		{17, 1, 1, false},   // one lost count, one other failure
		{4, 4, 0, true},     // every slot of b lost its count once
		{40, 5, 0, true},    // 5 of 45
		{40, 4, 0, false},   // 4 of 44
		{17, 0, 2, false},   // failures that are not lost counts
		{6, 2, 0, true},     // the reviewer's campaign, shortened
		{100, 10, 5, false}, // 10 of 115
	} {
		in := retried(c.rounds, c.lost, c.other)
		a := Analyze(in)
		attempts := c.rounds + c.lost + c.other
		want := schema.LostCounts{Arm: "b", Counter: "c", Lost: c.lost, Attempts: attempts}
		switch {
		case c.reject:
			if a.Verdict != schema.Rejected || first(a.Reasons) != schema.Reason(schema.TooManyLostCounts(want)) || len(a.Results) > 0 {
				t.Errorf("%+v: %s, reasons %+v, %d results", c, a.Verdict, a.Reasons, len(a.Results))
			}
		case c.lost > 0:
			if a.Verdict != schema.Valid || !slices.Contains(a.Warnings, schema.Reason(want)) {
				t.Errorf("%+v: %s, reasons %+v, warnings %+v", c, a.Verdict, a.Reasons, a.Warnings)
			}
		default:
			if a.Verdict != schema.Valid || slices.ContainsFunc(a.Warnings, func(r schema.Reason) bool { return r.Code() == want.Code() }) {
				t.Errorf("%+v: %s, warnings %+v", c, a.Verdict, a.Warnings)
			}
		}
	}
}
