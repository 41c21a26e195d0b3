package review

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// relabelled writes the committed record name under rule, re-analysed
// and rendered: a forger's relabel.
func relabelled(t *testing.T, name string, rule schema.Rule) string {
	t.Helper()
	return forgedRecord(t, name, func(r *schema.Record) { r.Method.Rule = rule }, nil)
}

// A record built at a commit that changed the current rule names that
// commit's rule, unless its build had changes of its own.
func TestCheckHoldsTheRuleToItsCommit(t *testing.T) {
	const name = "spec-draft-epyc-2026-12-04" // robust-6, by 1db22a3
	probs := Check(relabelled(t, name, schema.RuleRobust5))
	const want = "Method: method.rule robust-5 cannot be its writer's: the record was written by decodebench 1db22a3 (commit 1db22a396e22, no changes), which writes robust-6"
	if len(probs) != 1 || probs[0].String() != want {
		t.Errorf("relabelled robust-5: %v, want %q", probs, want)
	}
	dirty := forgedRecord(t, name, func(r *schema.Record) { r.Method.Rule, r.Method.Dirty = schema.RuleRobust5, true }, nil)
	if probs := Check(dirty); len(probs) > 0 {
		t.Errorf("a build with changes of its own may write another rule than its commit's: %v", probs)
	}
}

// A record relabelled to a rule its writer could not have written fails
// check, naming the rule, the evidence and, where the two rules judge its
// runs otherwise, what today's rule finds: downward past a field only
// later builds write (a budgeted schedule, a whole warmup, a quiet
// gate's credit), upward past the campaign's start. A relabel its writer
// could have written whose judgement is today's passes silently; one
// whose judgement is not passes with a note saying what today's rule
// finds; the records as written pass.
func TestCheckHoldsTheRuleToItsWriter(t *testing.T) {
	today := string(schema.RuleCurrent)
	for name, c := range map[string]struct {
		record string
		rule   schema.Rule
		want   []string // problems, each as a part of one
		note   string   // a part of the one note, "" for none
	}{
		"as written": {"spec-draft-xeon-2026-12-04", schema.RuleRobust5, nil, ""},
		"as written, noted": {"spec-draft-epyc-2026-12-02", schema.RuleRobust2, nil,
			"its runs are judged otherwise under today's rule " + today + " than under its own (robust-2): arm draft significantly lower (-3.9%) under " + today + ", no significant difference (-3.9%) under robust-2"},
		// The reviewer's: "-11.6% slower" read "no significant difference".
		"down past a budget": {"spec-draft-xeon-2026-12-04", schema.RuleRobust3, []string{
			"Method: method.rule robust-3 cannot be its writer's: the record holds method.max_time (a budgeted schedule), which decodebench writes from commit 74acb34 on, whose rule is robust-4 or later",
			"; its runs are judged otherwise under today's rule " + today + " than under its own (robust-3): arm draft significantly lower, not separated from the control's noise (-11.6%) under " + today + ", no significant difference (-11.6%) under robust-3"}, ""},
		"down past a whole warmup": {"spec-draft-epyc-2026-12-05-3", schema.RuleRobust4, []string{
			"method.rule robust-4 cannot be its writer's: the record holds a warmup sent whole (runs' requests[].whole), which decodebench writes from commit ade3b05 on"}, ""},
		"down past a quiet credit": {"spec-draft-epyc-2026-12-05-3", schema.RuleRobust8, []string{
			"method.rule robust-8 cannot be its writer's: the record holds a quiet gate's credit (runs' quiet.credit_s), which decodebench writes from commit c438a5e on, whose rule is robust-9 or later"}, ""},
		"down to the first rule": {"spec-draft-epyc-2026-12-02", schema.RuleMedianU, []string{
			"method.rule median-U (the first) cannot be its writer's: the record holds places, which decodebench writes from commit 76ad78d on, whose rule is robust-1 or later"}, ""},
		// The reviewer's other: "~" read "-3.9% slower".
		"up past its start": {"spec-draft-epyc-2026-12-02", schema.RuleRobust5, []string{
			"Method: method.rule robust-5 cannot be its writer's: the build that wrote the record ran its campaign from 2026-12-02T01:53:00Z, before any decodebench wrote robust-5 (commit 183fac9, 2026-12-03T14:59:41Z)"}, ""},
		"up to a later rule": {"spec-draft-xeon-2026-12-04", schema.RuleRobust10, []string{
			"method.rule robust-10 cannot be its writer's: the build that wrote the record ran its campaign from 2026-12-04T00:09:48Z, before any decodebench wrote robust-10"}, ""},
		// A robust-5 record (of a build with changes) read as robust-4:
		// its writer's day and fields allow either, and robust-4 judges
		// it as today's does.
		"down, alike": {"spec-draft-xeon-2026-12-03-2", schema.RuleRobust4, nil, ""},
		// A robust-3 record read as robust-2, which its writer's day
		// allows: the judgement differs from today's, a note.
		"down, allowed": {"spec-draft-epyc-2026-12-02-2", schema.RuleRobust2, nil,
			"its runs are judged otherwise under today's rule " + today + " than under its own (robust-2): arm draft no significant difference"},
	} {
		t.Run(name, func(t *testing.T) {
			p := relabelled(t, c.record, c.rule)
			r := CheckAll([]string{p}, nil)[0]
			var got []string
			for _, p := range r.Problems {
				got = append(got, p.String())
			}
			all := strings.Join(got, "\n")
			if c.want == nil && len(got) > 0 {
				t.Fatalf("problems %v, want none", got)
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems:\n%s\nwant one holding %q", all, w)
				}
			}
			switch {
			case c.note == "" && len(r.Notes) > 0:
				t.Errorf("notes %q, want none", r.Notes)
			case c.note != "" && (len(r.Notes) != 1 || !strings.Contains(r.Notes[0], c.note)):
				t.Errorf("notes %q, want one holding %q", r.Notes, c.note)
			}
		})
	}
}

// A resume by a later build writes the later build's rule: the writer's
// start is the campaign's last resume within its time, not its first
// start; a resume outside it is not the writer's.
func TestWriterStartIsTheLastResume(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 12, 4, h, 0, 0, 0, time.UTC) }
	m := schema.Method{Started: at(1), Finished: at(9), Resumed: []time.Time{at(3), at(5), at(12)}}
	if got := writerStart(m); !got.Equal(at(5)) {
		t.Errorf("writer's start %v, want the last resume within the campaign, %v", got, at(5))
	}
	rec := &schema.Record{Method: schema.Method{Rule: schema.RuleRobust6, Started: at(1), Finished: at(16), Resumed: []time.Time{at(15)}}}
	if why := ruleWriterProblem(rec); why != "" {
		t.Errorf("a robust-6 record resumed after robust-6 came: %s", why)
	}
	rec.Method.Resumed = nil
	if why := ruleWriterProblem(rec); !strings.Contains(why, "before any decodebench wrote robust-6") {
		t.Errorf("a robust-6 record started before robust-6 came: %q", why)
	}
}

// A record's note comes back from the check cache as it was first given.
func TestCheckCacheKeepsNotes(t *testing.T) {
	p := relabelled(t, "spec-draft-epyc-2026-12-02", schema.RuleRobust2)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "test"}
	first := CheckAll([]string{p}, cache)[0]
	again := CheckAll([]string{p}, cache)[0]
	if len(first.Notes) != 1 || first.Cached || !again.Cached || !slices.Equal(first.Notes, again.Notes) || len(again.Problems) > 0 {
		t.Errorf("first %+v, from the cache %+v", first, again)
	}
}

// A record holding a run cut off (method.cut_off_s, from 22b36a4 on)
// cannot be relabelled to a rule before robust-15; under robust-15 it
// can.
func TestRuleWriterKnowsTheCutOffMark(t *testing.T) {
	rec := &schema.Record{Method: schema.Method{Rule: schema.RuleRobust14, Interrupted: true, CutOffS: 2.5}}
	const want = "method.rule robust-14 cannot be its writer's: the record holds method.cut_off_s, which decodebench writes from commit 22b36a4 on, whose rule is robust-15 or later"
	if got := ruleWriterProblem(rec); got != want {
		t.Errorf("robust-14 with cut_off_s: %q, want %q", got, want)
	}
	rec.Method.Rule = schema.RuleRobust15
	if got := ruleWriterProblem(rec); got != "" {
		t.Errorf("robust-15 with cut_off_s: %q", got)
	}
}
