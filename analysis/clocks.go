package analysis

import (
	"sort"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// clocks is each arm's decode rate on the client's clock and the engine's
// (schema.ArmClocks), from the measured requests of finished runs that
// carry the engine's own timings, and a flag for each arm whose clocks
// disagree past schema.ClocksBound. Runs from before per-request timings
// were kept give none.
func clocks(in Input) ([]schema.ArmClocks, []schema.Reason) {
	var out []schema.ArmClocks
	for _, arm := range in.Policy.Arms {
		var client, eng, ratio, lag []float64
		for _, r := range in.Runs {
			if r.Arm != arm.Name || !r.OK() {
				continue
			}
			for _, q := range r.Served {
				e, ok := engineDecodeRate(q.EngineTimings)
				c := q.Metrics[schema.DecodeTokS]
				if q.Kind != schema.RequestMeasured || !ok || c <= 0 {
					continue
				}
				client, eng, ratio = append(client, c), append(eng, e), append(ratio, c/e)
				if ttft, ok := q.Metrics[schema.TTFTms]; ok {
					if p, ok := q.EngineTimings["prompt_ms"]; ok {
						lag = append(lag, ttft-p)
					}
				}
			}
		}
		if len(ratio) == 0 {
			continue
		}
		sort.Float64s(ratio)
		ac := schema.ArmClocks{Arm: arm.Name, ClientTokS: median(client), EngineTokS: median(eng),
			Ratio: median(ratio), RatioMin: ratio[0], RatioMax: ratio[len(ratio)-1], Requests: len(ratio)}
		if len(lag) > 0 {
			ac.LagMS = median(lag)
		}
		out = append(out, ac)
	}
	var flags []schema.Reason
	base := schema.ArmClocks{}
	for _, c := range out {
		if c.Arm == in.Policy.Baseline {
			base = c
		}
	}
	for _, c := range out {
		if c.Ratio > 1+schema.ClocksBound || c.Ratio < 1/(1+schema.ClocksBound) {
			flags = append(flags, schema.ClocksDisagree{Arm: c.Arm, Ratio: c.Ratio, Bound: schema.ClocksBound,
				LagMS: c.LagMS, Baseline: in.Policy.Baseline, BaselineLagMS: base.LagMS})
		}
	}
	return out, flags
}

// engineDecodeRate is the engine's decode rate defined as the client's:
// the tokens after the first over the time from the first to the last
// (llama-server's predicted_ms runs from its first token's sampling to
// its last's; predicted_n counts the first). ok is false without them.
func engineDecodeRate(t map[string]float64) (float64, bool) {
	n, ms := t["predicted_n"], t["predicted_ms"]
	if n < 2 || ms <= 0 {
		return 0, false
	}
	return (n - 1) / (ms / 1000), true
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return stats.Quantile(s, 0.5)
}
