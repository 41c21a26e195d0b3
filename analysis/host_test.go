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
		got[r.Code] = r
	}
	check := func(c schema.Code, n int, text string) {
		t.Helper()
		r, ok := got[c]
		if !ok || r.N != n || r.M != 4 || r.Text != text {
			t.Errorf("%s: %+v (present %v), want N=%d M=4 Text=%q", c, r, ok, n, text)
		}
	}
	check(schema.HostOnBattery, 2, "")
	check(schema.HostLowPower, 1, "")
	check(schema.HostThermal, 2, "cpu_speed_limited,gpu_thermal_capping")
	check(schema.HostGPUPowerCap, 1, "")
	check(schema.QuietTimedOut, 1, "mark")
	if len(got) != 5 {
		t.Errorf("extra warnings: %v", got)
	}
	if w := hostWarnings(Input{Runs: []Run{{}, {}}}); len(w) != 0 {
		t.Errorf("quiet host warned: %v", w)
	}
}
