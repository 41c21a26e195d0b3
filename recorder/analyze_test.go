package recorder

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// analyze is analysis.Record for the records the tests make, whose rule
// is always known.
func analyze(p scenarios.Policy, runs []schema.Run, m schema.Method, version string) (schema.Analysis, schema.Verdict) {
	a, v, err := analysis.Record(p, runs, m, version)
	if err != nil {
		panic(err)
	}
	return a, v
}

// styleOf is the style of a record of the named rule.
func styleOf(rule schema.Rule, md bool) style {
	st, err := recordStyle(&schema.Record{Method: schema.Method{Rule: rule}}, md)
	if err != nil {
		panic(err)
	}
	return st
}
