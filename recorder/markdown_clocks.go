package recorder

import (
	"fmt"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// The decode rate on both clocks (schema.ArmClocks): the Method section's
// table and the flag's sentence.

// clocks writes the Method section's account of the two clocks: how each
// defines the decode rate, which the verdict uses, the bound, and the
// table per arm.
func (m *mdWriter) clocks(r *schema.Record) {
	cs := r.Analysis.Clocks
	m.p("- Decode rate on both clocks, each the tokens after the first over the time from the first token to the last: %s; %s. %s\n\n",
		"the client's from its first token event's arrival to its last (`decode_tok_s`, the clock the verdict uses), "+
			"the engine's from its first token's sampling to its last (`(timings.predicted_n − 1) ÷ timings.predicted_ms`), per measured request",
		"an arm whose median ratio is off 1 by more than "+pct.Exact(schema.ClocksBound)+" is flagged",
		"The first-token lag is the client's time to first token less the engine's prompt time: "+
			"what the engine's clock holds before the first token reached the client.")
	table(m, []column[schema.ArmClocks]{
		left("arm", func(c schema.ArmClocks) string { return code(c.Arm) }),
		right("requests", func(c schema.ArmClocks) string { return fmt.Sprint(c.Requests) }),
		right("client tok/s", func(c schema.ArmClocks) string { return num(c.ClientTokS, 4) }),
		right("engine tok/s", func(c schema.ArmClocks) string { return num(c.EngineTokS, 4) }),
		right("client ÷ engine", func(c schema.ArmClocks) string { return num(c.Ratio, 4) + "×" }),
		right("range", func(c schema.ArmClocks) string { return num(c.RatioMin, 4) + "–" + num(c.RatioMax, 4) }),
		right("first-token lag", func(c schema.ArmClocks) string { return num(c.LagMS, 3) + " ms" }),
	}, cs)
	m.ln("")
}

// clocksSentence states a ClocksDisagree flag.
func clocksSentence(f style, r schema.ClocksDisagree) string {
	s := fmt.Sprintf("Clocks disagree: arm %s's decode rate on the client's clock is %s× the engine's (bound ±%s): the verdict, on the client's clock, is not the engine's own figure.",
		f.code(r.Arm), num(r.Ratio, 4), pct.Exact(r.Bound))
	if r.Arm != r.Baseline && r.LagMS-r.BaselineLagMS > 1 {
		s += fmt.Sprintf(" Its first token reached the client %s ms after the engine's clock started, against %s ms for the baseline %s: %s",
			num(r.LagMS, 3), num(r.BaselineLagMS, 3), f.code(r.Baseline),
			"the engine spends the difference between sampling its first token and sending it, which its clock counts and the client's does not.")
	}
	return s
}
