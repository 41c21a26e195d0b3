package analysis

import (
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func TestHostWarnings(t *testing.T) {
	in := Input{Policy: scenarios.Policy{Gates: scenarios.GatesPolicy{Quiet: &scenarios.QuietPolicy{OnBusy: schema.BusyMark}}}, Runs: []Run{
		{HostWarnings: []HostCondition{CondOnBattery, CondCPUSpeed}},
		{HostWarnings: []HostCondition{CondOnBattery, CondGPUThermal, CondGPUPower}, QuietTimedOut: true},
		{HostWarnings: []HostCondition{CondLowPowerMode}},
		{},
		{Error: "failed", HostWarnings: []HostCondition{CondLowPowerMode}}, // not counted
	}}
	got := map[schema.Code]schema.Reason{}
	for _, r := range hostWarnings(in) {
		got[r.Code()] = r
	}
	check := func(want schema.Reason) {
		t.Helper()
		if r := got[want.Code()]; r != want {
			t.Errorf("%s: %+v, want %+v", want.Code(), r, want)
		}
	}
	h := func(n int) schema.HostRuns { return schema.HostRuns{Runs: n, Finished: 4} }
	check(schema.HostOnBattery{HostRuns: h(2)})
	check(schema.HostLowPower{HostRuns: h(1)})
	check(schema.HostThermal{HostRuns: h(2), Conditions: "cpu_speed_limited,gpu_thermal_capping"})
	check(schema.HostGPUPowerCap{HostRuns: h(1)})
	check(schema.QuietTimedOut{HostRuns: h(1), OnBusy: "mark"})
	if len(got) != 5 {
		t.Errorf("extra warnings: %v", got)
	}
	if w := hostWarnings(Input{Runs: []Run{{}, {}}}); len(w) != 0 {
		t.Errorf("quiet host warned: %v", w)
	}
}
