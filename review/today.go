package review

import (
	"fmt"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// UnfitToday says why a record's numbers are not fit to gate on under
// today's rule (schema.RuleCurrent), or "" when they are: the verdict the
// current rule gives its runs under its stored scenario, where the record
// was written under an earlier rule. check holds a record to the rule it
// names, and a record's rule is its data block's word: rewritten to an
// earlier rule, a record whose runs today's rule finds INCONCLUSIVE (too
// many stalls) was re-derived VALID and gated on. A record of today's
// rule, or one whose verdict already says its numbers are unfit, has
// nothing to add. rec's runs are not read (it may hold their figures
// only, recorder.LoadFigures): the verdict re-derives the identity
// check, which reads their texts, so they are read afresh, whole, within
// the process's runs budget (heldRuns).
func UnfitToday(path string, rec *schema.Record) string {
	if rec.Method.Rule == schema.RuleCurrent || !fitVerdict(rec.Verdict) {
		return ""
	}
	v, err := todaysVerdict(path, rec)
	if err != nil {
		return fmt.Sprintf("its runs cannot be judged under today's rule %s: %s", schema.RuleCurrent, termsafe.String(err.Error()))
	}
	if fitVerdict(v) {
		return ""
	}
	return fmt.Sprintf("its runs give %s under today's rule %s (it was written %s under rule %s)", v, schema.RuleCurrent, rec.Verdict, RuleName(rec.Method.Rule))
}

func fitVerdict(v schema.Verdict) bool { return v == schema.Valid || v == schema.Unverified }

// RuleName is a rule as a sentence names it: the first rule, which records
// name by no rule at all, as "median-U (the first)".
func RuleName(r schema.Rule) string {
	if r == schema.RuleMedianU {
		return "median-U (the first)"
	}
	return string(r)
}

func todaysVerdict(path string, rec *schema.Record) (schema.Verdict, error) {
	dataDir, err := recorder.DataPath(path, rec)
	if err != nil {
		return "", err
	}
	d, err := safefs.OpenDir(dataDir)
	if err != nil {
		return "", err
	}
	defer d.Close()
	src, err := d.ReadFile(recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		return "", err
	}
	s, err := storedScenario(dataDir, src, rec.Scenario.Request.Prompt, rec.Scenario.Overrides)
	if err != nil {
		return "", err
	}
	runs, release, err := heldRuns(path)
	if err != nil {
		return "", err
	}
	defer release()
	today := *rec
	today.Runs = runs
	today.Method.Rule = schema.RuleCurrent
	_, v, err := analysis.Rederive(s.Policy, &today)
	return v, err
}
