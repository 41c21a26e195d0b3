package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// Rule is a statistical rule as a value: how an arm is compared with its
// reference, how the minimum detectable effect is modelled, how a negative
// control is judged, how drift is flagged and how a schedule's looks spend
// alpha. A record names its rule (Method.Rule); RuleOf resolves the name
// once, when the analysis' input is made, and nothing else branches on the
// name: the analysis calls the rule's parts, and the recorder words the
// verdict from its fields and the parts' types.
//
// Adding a rule is a schema.Rule constant and an entry of rules (rules.go);
// new mathematics goes to stats, and a part of a new kind to the file of
// its kind here (comparison.go, mde.go, control.go, drift.go, looks.go).
type Rule struct {
	Name       schema.Rule
	Comparison Comparison
	MDE        MDEModel
	Control    ControlTest
	Drift      DriftTest
	Looks      LookSpending
	// Pooling is whether the rule honours stats.pool_control (the
	// negative controls pooled with the baseline into every test arm's
	// reference) and says so.
	Pooling Pooling
	// Wording is how its records word a change of a metric.
	Wording Wording
	// Rows is the level of the primary metric's rows in the results
	// tables (rows.go).
	Rows RowsLevel
	// Statements is how exactly its records state levels, missing
	// comparisons and the runs a reason counts.
	Statements Statements
}

// Statements is how exactly a record states what four of its sentences
// say beside the numbers (schema.RuleRobust11 names them).
type Statements int

const (
	// StatementsRounded states them as the records of the rules before
	// robust-11 did (they keep it: check re-renders them byte for byte):
	// levels rounded to four decimals, a comparison without a ratio said
	// to lack finished runs, "run at least N rounds" for too few runs, and
	// a contended share of "N runs".
	StatementsRounded Statements = iota
	// StatementsExact states a level below 0.00005 in two significant
	// digits, a comparison by round that lacks rounds as such, the remedy
	// for too few runs from the rounds the schedule planned, and a
	// contended share of the runs long enough to judge.
	StatementsExact
	// StatementsAsRun states exactly, and states three things as they
	// ran (schema.RuleRobust12): the rounds run in the method's first
	// line, the cooldowns slept apart from the time between runs, and a
	// negative control's counter expectation as it was judged.
	StatementsAsRun
)

// Wording is how a record words a change of a metric that is not a speed.
type Wording int

const (
	// SpeedWords says "faster" or "slower" of every metric, as the records
	// of the rules before robust-2 did (they keep it: check re-renders
	// them byte for byte).
	SpeedWords Wording = iota
	// SenseWords says "faster" or "slower" of a rate or a time, and
	// "lower" or "higher", better or worse, of any other metric.
	SenseWords
)

// Pooling is whether a rule pools the negative controls into the
// reference when the scenario asks (stats.pool_control).
type Pooling int

const (
	// NoPooling compares every arm with the baseline alone.
	NoPooling Pooling = iota
	// PoolsUnstated pools, and its records' method paragraph does not say
	// so (robust-1, under which pool_control first came; the verdict line
	// names the pooled reference).
	PoolsUnstated
	// Pools pools, and the method paragraph says so.
	Pools
)

// Sequential reports whether the rule spends alpha over a schedule's looks,
// so that a sequential schedule may stop at a look that decides.
func (r Rule) Sequential() bool { return r.Looks.sequential() }

// RuleOf resolves a record's rule name.
func RuleOf(name schema.Rule) (Rule, error) {
	if r, ok := rules[name]; ok {
		return r, nil
	}
	var known []string
	for n := range rules {
		known = append(known, ruleLabel(n))
	}
	slices.Sort(known)
	return Rule{}, fmt.Errorf("unknown statistics rule %q (this decodebench knows %s)", string(name), strings.Join(known, ", "))
}

// resolved is in with its rule resolved: the zero Rule is the first rule,
// as the empty schema.Rule names it.
func resolved(in Input) Input {
	if in.Campaign.Rule.Comparison == nil {
		r, err := RuleOf(in.Campaign.Rule.Name)
		if err != nil {
			panic("analysis: an input's rule was never resolved: " + err.Error())
		}
		in.Campaign.Rule = r
	}
	return in
}

// Current is the rule new records are written under (schema.RuleCurrent).
func Current() Rule {
	r, err := RuleOf(schema.RuleCurrent)
	if err != nil {
		panic(err)
	}
	return r
}

// ruleLabel names a rule in a message: the empty name is the first rule's.
func ruleLabel(n schema.Rule) string {
	if n == schema.RuleMedianU {
		return `"" (median-u)`
	}
	return string(n)
}

// MDEPower is the power at which a record states its minimum detectable
// effect.
const MDEPower = 0.8
