package schema

// Energy is what a run's measured window cost in energy, from the best
// source the host has, or why it was not measured.
type Energy struct {
	// Source names where the joules come from: EnergyNvidiaSMI,
	// EnergyRAPL or EnergyPowermetrics; "" when not measured.
	Source string `json:"source,omitempty"`
	// Coverage names what the source covers: "gpu", "package", "dram",
	// "cpu", "ane"; the rest of the machine is not in Joules.
	Coverage []string `json:"coverage,omitempty"`
	Joules   float64  `json:"joules,omitempty"`
	// Samples and IntervalS describe a sampled source (power readings
	// integrated over the window); a counter source has neither.
	Samples   int     `json:"samples,omitempty"`
	IntervalS float64 `json:"interval_s,omitempty"`
	// MinSamples is the fewest samples energy is computed from.
	MinSamples int     `json:"min_samples,omitempty"`
	WindowS    float64 `json:"window_s,omitempty"`
	// Unavailable says why energy was not measured.
	Unavailable string `json:"unavailable,omitempty"`
}

// Energy sources.
const (
	EnergyNvidiaSMI    = "nvidia-smi power.draw"
	EnergyRAPL         = "rapl"
	EnergyPowermetrics = "powermetrics"
)

// EnergyMetrics puts a measured window's energy per measured request (the
// window holds requests of them), and its energy per generated token,
// into the run's metrics: the harness computes them so once the window is
// measured, and check again from the energy and tokens runs.jsonl stores.
func EnergyMetrics(run *Run, requests int) {
	e := run.Energy
	if e == nil || e.Unavailable != "" || e.Joules <= 0 || requests < 1 {
		return
	}
	run.Metrics[EnergyJ] = e.Joules / float64(requests)
	if run.Tokens > 0 {
		run.Metrics[EnergyJPerTok] = e.Joules / float64(requests*run.Tokens)
	}
}
