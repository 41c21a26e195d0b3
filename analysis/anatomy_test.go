package analysis

import (
	"math"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// logVar is the variance of a log whose log-normal variable has CV cv.
func logVar(cv float64) float64 { return math.Log1p(cv * cv) }

// TestAnatomyAdvice: the hand measurement on the VM (5% between
// starts, 3% within, a start 3.6 s, a request 0.6 s) gives k* ≈ 1.4 and
// hardly any gain from more requests; a large model's slow start (60 s)
// with the same noise shifts the balance to several requests per start;
// no variance between starts advises the bound, and no variance within
// one request.
func TestAnatomyAdvice(t *testing.T) {
	vm := schema.AnatomyFigures{BetweenVar: logVar(0.0495), WithinVar: logVar(0.0291), StartS: 3.6, RequestS: 0.6}
	k, unbounded := optimumRequests(vm)
	if unbounded || math.Abs(k-1.44) > 0.02 {
		t.Errorf("VM optimum %.3f (unbounded %v), want about 1.44", k, unbounded)
	}
	if b := bestRequests(vm, 0); b != 1 && b != 2 {
		t.Errorf("VM advice %d, want the floor or ceiling of 1.44", b)
	}
	if gain := math.Sqrt(campaignVariance(vm, 2, 0)/campaignVariance(vm, 1, 0)) - 1; math.Abs(gain) > 0.02 {
		t.Errorf("VM: 2 requests change the width per minute by %.3f, want almost nothing", gain)
	}
	big := vm
	big.StartS = 60
	if k, _ := optimumRequests(big); math.Abs(k-math.Sqrt(100*vm.WithinVar/vm.BetweenVar)) > 1e-9 {
		t.Errorf("slow start optimum %.3f", k)
	}
	if b := bestRequests(big, 0); b < 5 || b > 6 {
		t.Errorf("slow start advice %d, want the floor or ceiling of %.2f", b, math.Sqrt(100*vm.WithinVar/vm.BetweenVar))
	}
	flat := vm
	flat.BetweenVar = 0
	if _, unbounded := optimumRequests(flat); !unbounded || bestRequests(flat, 0) != AnatomyAdviceMax {
		t.Errorf("no between-start variance: advice %d", bestRequests(flat, 0))
	}
	// Constant values (a fake engine) leave nothing to divide: no NaN
	// reaches the record.
	in := Input{Campaign: Campaign{Requests: 1, Warmup: 1}}
	in.Policy.Primary = schema.DecodeTokS
	in.Policy.Arms = []scenarios.ArmPolicy{{Name: "a"}}
	for i := range 4 {
		in.Runs = append(in.Runs, Run{Seq: i + 1, Arm: "a", Served: []schema.ServedRequest{
			{Kind: schema.RequestWarmup, Metrics: map[string]float64{schema.DecodeTokS: 10, schema.WallS: 1}},
			{Kind: schema.RequestMeasured, Metrics: map[string]float64{schema.DecodeTokS: 10, schema.WallS: 1}}}, Seconds: 2})
	}
	if an := noiseAnatomy(in); an == nil || an.Gap != "" || math.IsNaN(an.WidthChange) || an.Advice != 1 || an.Pooled.BetweenVar != 0 || an.Pooled.WithinVar != 0 {
		t.Errorf("constant values: %+v", an)
	}
	still := vm
	still.WithinVar = 0
	if bestRequests(still, 0) != 1 {
		t.Errorf("no within-start variance: advice %d", bestRequests(still, 0))
	}
}

// TestAnatomyGaps: records from before have none; one request per start,
// a window metric and a command engine say why there is none.
func TestAnatomyGaps(t *testing.T) {
	in := Input{}
	in.Policy.Primary = schema.DecodeTokS
	if noiseAnatomy(in) != nil {
		t.Error("a record from before got an anatomy")
	}
	for _, tc := range []struct {
		c       Campaign
		primary string
		want    schema.AnatomyGap
	}{
		{Campaign{Requests: 1}, schema.DecodeTokS, schema.AnatomyOneRequest},
		{Campaign{Requests: 1, Warmup: 1}, schema.EnergyJ, schema.AnatomyNotPerRequest},
		{Campaign{Requests: 1, Warmup: 1, Command: true}, schema.DecodeTokS, schema.AnatomyCommand},
		{Campaign{Requests: 2}, schema.DecodeTokS, schema.AnatomyFewStarts},
	} {
		in := Input{Campaign: tc.c}
		in.Policy.Primary = tc.primary
		in.Policy.Arms = []scenarios.ArmPolicy{{Name: "a"}}
		if an := noiseAnatomy(in); an == nil || an.Gap != tc.want {
			t.Errorf("%+v %s: %+v, want gap %s", tc.c, tc.primary, an, tc.want)
		}
	}
}

// TestAnatomyLeavesOutAWholeWarmup: where some start sent its last warmup
// whole for its token ids (no streamed figures), that position is left
// out of every start, those whose warmup streamed too, so that the starts
// keep one layout; the figures are those of the other requests alone.
// With one warmup and one measured request nothing would be left to vary
// within a start.
func TestAnatomyLeavesOutAWholeWarmup(t *testing.T) {
	in := Input{Campaign: Campaign{Requests: 2, Warmup: 2}}
	in.Policy.Primary = schema.DecodeTokS
	in.Policy.Arms = []scenarios.ArmPolicy{{Name: "a"}}
	rq := func(kind schema.RequestKind, v float64) schema.ServedRequest {
		return schema.ServedRequest{Kind: kind, Metrics: map[string]float64{schema.DecodeTokS: v, schema.WallS: 1}}
	}
	without := in
	for i := range 5 {
		s := float64(i % 3)
		first, last := rq(schema.RequestWarmup, 7+s), rq(schema.RequestWarmup, 50*(s+1))
		if i == 2 {
			last = schema.ServedRequest{Kind: schema.RequestWarmup, Whole: true, Metrics: map[string]float64{schema.WallS: 1}}
		}
		in.Runs = append(in.Runs, Run{Seq: i + 1, Arm: "a", Seconds: 5, Served: []schema.ServedRequest{
			first, last, rq(schema.RequestMeasured, 10+s), rq(schema.RequestMeasured, 11+s*s)}})
		without.Runs = append(without.Runs, Run{Seq: i + 1, Arm: "a", Seconds: 5, Served: []schema.ServedRequest{
			first, rq(schema.RequestMeasured, 10+s), rq(schema.RequestMeasured, 11+s*s)}})
	}
	without.Campaign.Warmup = 1
	got, want := noiseAnatomy(in), noiseAnatomy(without)
	if got == nil || got.Gap != "" || !got.LastWarmupLeftOut || got.Pooled.Starts != 5 || got.Pooled.PerStart != 3 {
		t.Fatalf("anatomy with a whole warmup: %+v", got)
	}
	if got.Pooled.BetweenVar != want.Pooled.BetweenVar || got.Pooled.WithinVar != want.Pooled.WithinVar || got.Pooled.StartS != want.Pooled.StartS {
		t.Errorf("figures %+v, want those without the last warmup %+v", *got.Pooled, *want.Pooled)
	}
	one := Input{Campaign: Campaign{Requests: 1, Warmup: 1}, Policy: in.Policy}
	for i := range 4 {
		one.Runs = append(one.Runs, Run{Seq: i + 1, Arm: "a", Seconds: 2, Served: []schema.ServedRequest{
			{Kind: schema.RequestWarmup, Whole: true, Metrics: map[string]float64{schema.WallS: 1}}, rq(schema.RequestMeasured, 10)}})
	}
	if an := noiseAnatomy(one); an == nil || an.Gap != schema.AnatomyOneRequest || !an.LastWarmupLeftOut {
		t.Errorf("one warmup sent whole and one measured request: %+v", an)
	}
}

// TestAnatomyAdviceCountsTheReplay: the xeon demo's figures with its
// whole warmup (spec-draft-xeon-2026-12-04: between starts 18.5%, within
// 9.20%, a start 5.31 s, a request 1.50 s) put the continuous optimum
// below 1, and one request a start looks best; but with one warmup and
// one measured request the warmup no longer gives the token ids, and a
// replay (a request's time) comes back, so the advice is 2.
func TestAnatomyAdviceCountsTheReplay(t *testing.T) {
	f := schema.AnatomyFigures{BetweenVar: logVar(0.185), WithinVar: logVar(0.092), StartS: 5.31, RequestS: 1.50}
	if b := bestRequests(f, 0); b != 1 {
		t.Errorf("without the replay: advice %d, want 1", b)
	}
	an := &schema.Anatomy{Warmup: 1, LastWarmupLeftOut: true}
	if rb := replayBelow(an); rb != 2 {
		t.Fatalf("one warmup sent whole: replay below %d requests, want 2", rb)
	}
	if b := bestRequests(f, replayBelow(an)); b != 2 {
		t.Errorf("with the replay one request would cost: advice %d, want 2", b)
	}
	if replayBelow(&schema.Anatomy{Warmup: 1}) != 0 || replayBelow(&schema.Anatomy{Warmup: 2, LastWarmupLeftOut: true}) != 1 {
		t.Error("replayBelow")
	}
}
