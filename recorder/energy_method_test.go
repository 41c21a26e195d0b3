package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// The method section names each energy source with what it covers, its
// samples, and how they became joules: powermetrics' samples are weighted
// by the time they share with the window, NVIDIA's integrated.
func TestEnergyMethodNamesEachSource(t *testing.T) {
	runs := []schema.Run{
		{Energy: &schema.Energy{Source: schema.EnergyPowermetrics, Coverage: []string{"cpu", "gpu", "ane"}, Joules: 12, Samples: 9, IntervalS: 0.201, MinSamples: 5}},
		{Energy: &schema.Energy{Source: schema.EnergyPowermetrics, Coverage: []string{"cpu", "gpu", "ane"}, Joules: 13, Samples: 11, IntervalS: 0.2, MinSamples: 5}},
		{Energy: &schema.Energy{Unavailable: "powermetrics: only 3 powermetrics sample(s) inside the 0.70s window (at least 5 needed)"}},
	}
	got := energyMethod(runs)
	for _, want := range []string{"`powermetrics` (covers cpu, gpu, ane) in 2 run(s)", "9–11 per window (at least 5)", "the time it shares with the window"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "trapezoids") {
		t.Errorf("powermetrics described as NVIDIA's: %q", got)
	}
	nv := energyMethod([]schema.Run{{Energy: &schema.Energy{Source: schema.EnergyNvidiaSMI, Coverage: []string{"gpu"}, Joules: 50, Samples: 10, IntervalS: 0.2, MinSamples: 5}}})
	if !strings.Contains(nv, "trapezoids") {
		t.Errorf("NVIDIA: %q", nv)
	}
}
