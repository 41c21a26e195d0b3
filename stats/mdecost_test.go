package stats_test

import (
	"fmt"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// BenchmarkAnalyzeMDE is a whole analysis of a fixed campaign on the CV 9%
// host under robust-12 and robust-13, whose only difference is the MDE's
// jackknife of the clean noise (a leave-one-out choice of the clean rounds
// per round: quadratic in the rounds).
func BenchmarkAnalyzeMDE(b *testing.B) {
	for _, rounds := range []int{30, 300} {
		for _, rule := range []schema.Rule{schema.RuleRobust12, schema.RuleRobust13} {
			p := simPolicy(b, rounds, "")
			in := simInput(b, campaignSpec{policy: p, host: calibNoisy, rule: rule}, 9001)
			b.Run(fmt.Sprintf("%d rounds/%s", rounds, rule), func(b *testing.B) {
				for b.Loop() {
					analysis.Analyze(in)
				}
			})
		}
	}
}
