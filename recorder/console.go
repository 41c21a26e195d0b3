package recorder

import (
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

// ReasonText states a reason of the record as a sentence, for the
// console.
func ReasonText(rec *schema.Record, r schema.Reason) string { return consoleStyle(rec).reason(r) }

// ArmVerdictText is an arm's verdict line, for the console.
func ArmVerdictText(r *schema.Record, v schema.ArmVerdict) string {
	f := consoleStyle(r)
	return f.armVerdict(v, r.Scenario.Baseline, f.senseOf(r, r.Scenario.Primary))
}

// IdentityLines states an identity check per arm, for the console.
func IdentityLines(id *schema.IdentityResult) []string {
	var out []string
	for _, n := range id.Notes {
		out = append(out, style{}.reason(n))
	}
	for _, a := range append([]schema.IdentityArm{id.Baseline}, id.Arms...) {
		line := fmt.Sprintf("%s vs %s: %s", a.Arm, id.Against, a.Verdict)
		if a.Diverging > 0 {
			line += fmt.Sprintf(" (%d of %d runs differ; first: run %d vs run %d at byte %d", a.Diverging, a.Runs, a.RunA, a.RunB, a.ByteOffset)
			if a.TokensCompared && a.TokenIndex >= 0 {
				line += fmt.Sprintf(", token %d", a.TokenIndex)
			}
			line += ")"
		}
		if a.Error != "" {
			line += ": " + a.Error
		}
		out = append(out, line)
	}
	return out
}
