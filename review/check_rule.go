package review

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkRule holds the rule a record names (method.rule) to what its
// writer could have written (ruleWriterProblem), and judges its runs
// again under today's rule (schema.RuleCurrent): the rule is the record's
// own word, and check re-derives a record by it, so a record relabelled
// to another rule and re-analysed passed with another verdict
// ("-11.6% slower" relabelled robust-3 read "no significant difference";
// a robust-2 record relabelled robust-5 read "-3.9% slower" where it was
// "~"). Wherever the two rules judge an arm, or the verdict, otherwise,
// check says so: a problem where the rule named cannot be the writer's,
// a note otherwise (an older record is judged by the rule of its day,
// and says what today's would find). rec is loaded with its runs.
func checkRule(s *scenarios.Scenario, rec *schema.Record) (probs []Problem, notes []string) {
	otherwise := ""
	if rec.Method.Rule != schema.RuleCurrent {
		otherwise = judgedOtherwise(s, rec)
	}
	if why := ruleWriterProblem(rec); why != "" {
		if otherwise != "" {
			why += "; " + otherwise
		}
		return []Problem{{Section: "Method", Message: why}}, nil
	}
	if otherwise != "" {
		notes = append(notes, otherwise)
	}
	return nil, notes
}

// judgedOtherwise says what today's rule judges otherwise than the
// record's own in its runs (the verdict, and each arm's judgement: its
// primary comparison's significance and direction, a control's test), or
// "" where they agree.
func judgedOtherwise(s *scenarios.Scenario, rec *schema.Record) string {
	today := *rec
	today.Method.Rule = schema.RuleCurrent
	a, v, err := analysis.Rederive(s.Policy, &today)
	own, cur := RuleName(rec.Method.Rule), string(schema.RuleCurrent)
	if err != nil {
		return fmt.Sprintf("its runs cannot be judged under today's rule %s: %s", cur, termsafe.String(err.Error()))
	}
	var diffs []string
	if v != rec.Verdict {
		diffs = append(diffs, fmt.Sprintf("verdict %s under %s, %s under %s", v, cur, rec.Verdict, own))
	}
	mine := map[string]schema.ArmVerdict{}
	for _, x := range rec.Analysis.ArmVerdicts {
		mine[x.Arm] = x
	}
	seen := map[string]bool{}
	for _, x := range a.ArmVerdicts {
		seen[x.Arm] = true
		o, ok := mine[x.Arm]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("arm %s %s under %s, not judged under %s", termsafe.String(x.Arm), judged(x), cur, own))
			continue
		}
		if judgement(x) != judgement(o) {
			diffs = append(diffs, fmt.Sprintf("arm %s %s under %s, %s under %s", termsafe.String(x.Arm), judged(x), cur, judged(o), own))
		}
	}
	for _, o := range rec.Analysis.ArmVerdicts {
		if !seen[o.Arm] {
			diffs = append(diffs, fmt.Sprintf("arm %s not judged under %s, %s under %s", termsafe.String(o.Arm), cur, judged(o), own))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("its runs are judged otherwise under today's rule %s than under its own (%s): %s", cur, own, strings.Join(diffs, "; "))
}

// judged is an arm's judgement with the change it judged.
func judged(v schema.ArmVerdict) string {
	if !v.Comparison.Defined() {
		return judgement(v)
	}
	return judgement(v) + " (" + pct.Signed(v.Comparison.Ratio-1, 1) + ")"
}

// judgement is what a rule judged of an arm, in words: a test arm's
// primary comparison (significant and its direction on the metric's own
// scale, or why not) and whether it separates from a control's noise; a
// control's test. The change, its interval and p, which every rule
// estimates its own way, are not the judgement.
func judgement(v schema.ArmVerdict) string {
	c := v.Comparison
	switch {
	case v.Control && c.Significant:
		return "differs from the baseline"
	case v.Control && v.EquivalenceMargin > 0 && v.Equivalent:
		return "equivalent to the baseline"
	case v.Control && v.EquivalenceMargin > 0:
		return "not shown equivalent to the baseline"
	case v.Control:
		return "no significant difference from the baseline"
	case !c.Defined():
		return "not compared"
	case c.Significant && v.ControlArm != "" && v.VsControl != nil && !v.SeparatesFromNoise:
		return "significantly " + direction(c) + ", not separated from the control's noise"
	case c.Significant:
		return "significantly " + direction(c)
	case c.Disagreement == schema.PWithoutCI || c.Disagreement == schema.CIWithoutP:
		return "inconclusive"
	case c.Disagreement == schema.TooSmallDiff:
		return "no difference that matters"
	}
	return "no significant difference"
}

// direction is a comparison's direction on the metric's own scale.
func direction(c schema.Comparison) string {
	if c.Ratio > 1 {
		return "higher"
	}
	return "lower"
}
