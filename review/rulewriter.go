package review

import (
	"fmt"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/schema"
)

// ruleWriterProblem says why the rule a record names (method.rule) cannot
// be the one the decodebench that wrote it wrote, or "". A build writes
// its own rule (schema.RuleCurrent) and no other, a resume the resuming
// build's; what a record holds bounds that build:
//   - exactly, its commit, where it is one that changed the current rule
//     (schema.RuleAt) and the build had no changes of its own;
//   - from above, its start: the campaign's, or its last resume's, is
//     after the build existed, and no build wrote a rule before its
//     first commit (schema.RuleSince). A record started before its rule
//     existed was relabelled to a later one;
//   - from below, fields only later builds write (writerMarks): a build
//     that writes one writes a rule no older than the mark's. A record
//     holding one under an older rule was relabelled to an earlier one.
//
// Any other commit is not read: offline, a commit names no date or rule.
// Nothing is said of a rule the sequence does not hold (one a test
// defines); a field a forger removes is not seen.
func ruleWriterProblem(rec *schema.Record) string {
	rule := rec.Method.Rule
	order, known := schema.RuleOrder(rule)
	if !known {
		return ""
	}
	if at, ok := schema.RuleAt(rec.Method.Commit); ok && at != rule && cleanBuild(rec.Method) {
		return fmt.Sprintf("method.rule %s cannot be its writer's: the record was written by decodebench %s (commit %s, no changes), which writes %s",
			RuleName(rule), termsafe.String(rec.Method.Version), termsafe.String(rec.Method.Commit), RuleName(at))
	}
	if since, ok := schema.RuleSince(rule); ok {
		if at := writerStart(rec.Method); !at.IsZero() && at.Before(since) {
			return fmt.Sprintf("method.rule %s cannot be its writer's: the build that wrote the record ran its campaign from %s, before any decodebench wrote %s (commit %s, %s)",
				RuleName(rule), at.UTC().Format(time.RFC3339), RuleName(rule), schema.RuleCommit(rule), since.Format(time.RFC3339))
		}
	}
	for _, m := range writerMarks {
		least, _ := schema.RuleOrder(m.rule)
		if order < least && m.holds(rec) {
			return fmt.Sprintf("method.rule %s cannot be its writer's: the record holds %s, which decodebench writes from commit %s on, whose rule is %s or later",
				RuleName(rule), m.field, m.commit, m.rule)
		}
	}
	return ""
}

// cleanBuild reports whether the record's decodebench was built from its
// commit as committed: a build from a tree with changes (Dirty, or a
// version git describes as -dirty) may write another rule than its
// commit's.
func cleanBuild(m schema.Method) bool {
	return !m.Dirty && !strings.HasSuffix(m.Version, "-dirty")
}

// writerStart is when the build that wrote the record last started its
// campaign: the campaign's start, or its last resume (within the
// campaign's time).
func writerStart(m schema.Method) time.Time {
	at := m.Started
	for _, r := range m.Resumed {
		if r.After(at) && (m.Finished.IsZero() || !r.After(m.Finished)) {
			at = r
		}
	}
	return at
}

// writerMark is a field of a record, or of its runs, that decodebench
// writes from a commit on: every build of that commit's descendants has a
// rule no older than rule (robust-6's withdrawal went back to robust-5,
// robust-7's to robust-6: later than any mark's rule here).
type writerMark struct {
	field  string
	commit string
	rule   schema.Rule
	holds  func(*schema.Record) bool
}

var writerMarks = []writerMark{
	{"places", "76ad78d", schema.RuleRobust1, func(r *schema.Record) bool { return r.Places != nil }},
	{"method.requests", "5501eaf", schema.RuleRobust1, func(r *schema.Record) bool { return r.Method.Requests > 0 }},
	{"method.prefix_cache", "5501eaf", schema.RuleRobust1, func(r *schema.Record) bool { return len(r.Method.PrefixCache) > 0 }},
	{"method.max_time (a budgeted schedule)", "74acb34", schema.RuleRobust4, func(r *schema.Record) bool {
		return r.Method.MaxTime != "" || len(r.Method.PlannedRounds) > 0
	}},
	{"a warmup sent whole (runs' requests[].whole)", "ade3b05", schema.RuleRobust5, anyRun(func(r schema.Run) bool {
		for _, q := range r.Requests {
			if q.Whole {
				return true
			}
		}
		return false
	})},
	{"a quiet gate's credit (runs' quiet.credit_s)", "c438a5e", schema.RuleRobust9, anyRun(func(r schema.Run) bool { return r.Quiet != nil && r.Quiet.CreditS > 0 })},
	{"method.interrupted_by", "3b8eb5c", schema.RuleRobust10, func(r *schema.Record) bool { return r.Method.InterruptedBy != "" }},
	{"a lost count (runs' lost_count)", "e4fd418", schema.RuleRobust10, anyRun(func(r schema.Run) bool { return r.LostCount != "" })},
	{"method.cut_off_s", "22b36a4", schema.RuleRobust15, func(r *schema.Record) bool { return r.Method.CutOffS != 0 }},
}

// anyRun holds for a record one of whose runs f holds for.
func anyRun(f func(schema.Run) bool) func(*schema.Record) bool {
	return func(rec *schema.Record) bool {
		for _, r := range rec.Runs {
			if f(r) {
				return true
			}
		}
		return false
	}
}
