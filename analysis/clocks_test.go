package analysis

import (
	"math"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// servedMeasured is one measured request: the client's decode rate and time to
// first token, the engine's own timings.
func servedMeasured(client, ttft, predictedN, predictedMS, promptMS float64) schema.ServedRequest {
	return schema.ServedRequest{Kind: schema.RequestMeasured,
		Metrics:       map[string]float64{schema.DecodeTokS: client, schema.TTFTms: ttft},
		EngineTimings: map[string]float64{"predicted_n": predictedN, "predicted_ms": predictedMS, "prompt_ms": promptMS}}
}

// The committed H200 record identity-chaotic-h200-2026-12-02, run 1
// (classic) and run 2 (draft), as their raw runs hold them: the draft
// arm's client rate is 1.22× the engine's, and the 107 ms the engine's
// clock holds before its first token reached the client (4 ms for
// classic) is the whole difference.
func TestClocksFlagTheH200DraftArm(t *testing.T) {
	in := Input{Policy: policy("classic", "draft"), Runs: []Run{
		{Seq: 1, Arm: "classic", Served: []schema.ServedRequest{servedMeasured(2277.7185069880575, 11.785, 400, 178.006, 7.735)}},
		{Seq: 2, Arm: "draft", Served: []schema.ServedRequest{servedMeasured(838.7027687163312, 112.809, 400, 581.049, 6.246)}},
	}}
	cs, flags := clocks(in)
	if len(cs) != 2 {
		t.Fatalf("clocks %+v", cs)
	}
	// The engine's rate defined as the client's: 399 tokens after the
	// first over predicted_ms.
	if want := 399 / 0.581049; math.Abs(cs[1].EngineTokS-want) > 1e-9 {
		t.Errorf("draft engine rate %v, want %v", cs[1].EngineTokS, want)
	}
	if math.Abs(cs[0].Ratio-1.0162) > 0.001 || math.Abs(cs[1].Ratio-1.2214) > 0.001 {
		t.Errorf("ratios %v and %v, want 1.016 and 1.221", cs[0].Ratio, cs[1].Ratio)
	}
	if math.Abs(cs[0].LagMS-4.05) > 0.01 || math.Abs(cs[1].LagMS-106.563) > 0.01 {
		t.Errorf("lags %v and %v ms", cs[0].LagMS, cs[1].LagMS)
	}
	if len(flags) != 1 {
		t.Fatalf("flags %v, want the draft arm's", flags)
	}
	f := flags[0].(schema.ClocksDisagree)
	if f.Arm != "draft" || f.Baseline != "classic" || f.BaselineLagMS != cs[0].LagMS || f.Bound != schema.ClocksBound {
		t.Errorf("flag %+v", f)
	}
	// The engine's clock holds, before the first token reached the
	// client, what the client's lacks: the two spans differ by the lag
	// less the classic arm's.
	clientSpan := 399 / 838.7027687163312 * 1000
	if d := 581.049 - clientSpan; math.Abs(d-(cs[1].LagMS-cs[0].LagMS)) > 5 {
		t.Errorf("the spans differ by %.1f ms, the lags by %.1f", d, cs[1].LagMS-cs[0].LagMS)
	}
}

// spec-draft-epyc-2026-12-02, run 44 (classic), served two measured
// requests: 104.09 and 113.91 tok/s on the client's clock. The run's
// engine timings were the first request's (104.10 tok/s), so the run's
// rate (their geometric mean) over them read 1.046 where each request
// agrees with itself. Each request carries its own timings now; the
// second's here are those of a request of that start at the client's
// rate.
func TestClocksCompareEachRequestWithItself(t *testing.T) {
	first := servedMeasured(104.0944, 21.2, 256, 2449.592, 18.042)
	second := servedMeasured(113.9078, 19.3, 256, 255/113.9078*1000, 17.0)
	run := Run{Seq: 44, Arm: "classic", Served: []schema.ServedRequest{first, second},
		Metrics:    schema.StartMetrics([]schema.ServedRequest{first, second}),
		EngineRate: 104.09896831798928}
	in := Input{Policy: policy("classic"), Runs: []Run{run}}
	cs, flags := clocks(in)
	if len(cs) != 1 || cs[0].Requests != 2 || len(flags) != 0 {
		t.Fatalf("clocks %+v, flags %v", cs, flags)
	}
	if math.Abs(cs[0].Ratio-1) > 0.001 {
		t.Errorf("ratio %v, want 1: each request compared with its own timings", cs[0].Ratio)
	}
	if old := clientEngineRatio([]Run{run}, nil); math.Abs(old-1.046) > 0.002 {
		t.Errorf("the run-level comparison of before gave %v", old)
	}
	if r := clientEngineRatio([]Run{run}, cs); r != cs[0].Ratio {
		t.Errorf("client/engine ratio %v, want the clocks' %v", r, cs[0].Ratio)
	}
}

// Runs from before per-request timings (the committed records) have no
// clocks and no flag: they re-derive as they were.
func TestClocksAbsentForOldRuns(t *testing.T) {
	in := Input{Policy: policy("classic"), Runs: []Run{{Seq: 1, Arm: "classic", EngineRate: 100,
		Metrics: map[string]float64{schema.DecodeTokS: 110},
		Served:  []schema.ServedRequest{{Kind: schema.RequestMeasured, Metrics: map[string]float64{schema.DecodeTokS: 110}}}}}}
	if cs, flags := clocks(in); cs != nil || flags != nil {
		t.Errorf("clocks %v flags %v from runs without per-request timings", cs, flags)
	}
}
