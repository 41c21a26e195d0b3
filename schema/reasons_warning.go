package schema

// Warnings that qualify the results, and what a campaign could not measure.

// ComparisonNote: the statistics library's Note on comparing Arm with
// Baseline.
type ComparisonNote struct {
	Arm      string `json:"arm"`
	Baseline string `json:"baseline" v2:"other"`
	Note     string `json:"note" v2:"text"`
}

// RunsExcluded: Failed runs are excluded from the statistics (OnFailure).
type RunsExcluded struct {
	Failed    int    `json:"failed" v2:"n"`
	OnFailure string `json:"on_failure" v2:"text"`
}

// GatesRelaxed: the scenario set the gates Which looser than the defaults.
type GatesRelaxed struct {
	Which string `json:"which" v2:"text"`
}

// AllowUnverified: the scenario allowed running without a distinguishing
// counter, for Why.
type AllowUnverified struct {
	Why string `json:"why" v2:"text"`
}

// HostRuns counts the finished runs around which the host was not as it
// should be: Runs of Finished.
type HostRuns struct {
	Runs     int `json:"runs" v2:"n"`
	Finished int `json:"finished" v2:"m"`
}

// HostOnBattery: the machine ran on battery.
type HostOnBattery struct{ HostRuns }

// HostLowPower: low-power mode was on.
type HostLowPower struct{ HostRuns }

// HostPowerModeChanged: macOS's energy mode was not the same around every
// finished run; Modes are those seen, in order, comma-separated.
type HostPowerModeChanged struct {
	Modes string `json:"modes" v2:"text"`
}

// HostThermal: the machine reported a thermal limit; Conditions are those
// seen, comma-separated.
type HostThermal struct {
	HostRuns
	Conditions string `json:"conditions" v2:"text"`
}

// HostGPUPowerCap: a GPU's clocks were capped for power.
type HostGPUPowerCap struct{ HostRuns }

// QuietTimedOut: runs started on a host the quiet gate did not find quiet
// (OnBusy).
type QuietTimedOut struct {
	HostRuns
	OnBusy string `json:"on_busy" v2:"text"`
}

// OutputFlood: in Runs of Finished runs the engine wrote more than LimitMiB
// MiB to its standard output and error during the measured window, which
// competes with decoding: a contention warning for those runs.
type OutputFlood struct {
	HostRuns
	LimitMiB float64 `json:"limit_mib" v2:"value"`
}

// ImpossibleValues: in Runs runs the engine reported values that could
// not be true; they were recorded as absent.
type ImpossibleValues struct {
	Runs int `json:"runs" v2:"n"`
}

// NoEngineTimings: the engine reported no timings in Runs runs.
type NoEngineTimings struct {
	Runs int `json:"runs" v2:"n"`
}

// EventCounted: tokens were counted as stream events in Runs runs.
type EventCounted struct {
	Runs int `json:"runs" v2:"n"`
}

// NoContention: contention could not be judged in Runs runs (no CPU time,
// or a request shorter than WindowS seconds).
type NoContention struct {
	Runs    int     `json:"runs" v2:"n"`
	WindowS float64 `json:"window_s" v2:"value"`
}

// MetricNoValue: the scenario's own metric Metric has no value in any of
// the Runs finished runs (its source was absent, or an input of its
// expression was).
type MetricNoValue struct {
	Metric string `json:"metric"`
	Runs   int    `json:"runs" v2:"n"`
}

// NotRun: Runs planned runs did not run.
type NotRun struct {
	Runs int `json:"runs" v2:"n"`
}

// NoExactness: the scenario has no exactness block.
type NoExactness struct{}

// KernelTiming: kernel timing is not measured.
type KernelTiming struct{}

// NoEnergy: energy was not measured in Runs runs; Why is the first run's
// reason.
type NoEnergy struct {
	Runs int    `json:"runs" v2:"n"`
	Why  string `json:"why" v2:"text"`
}

// NoDiagnosis: the divergence of Arm against the baseline could not be
// diagnosed, or one side's candidates are missing (Side names the arm whose
// engine did not answer), for the reason Why (a DiagnosisProblem) with
// Detail.
type NoDiagnosis struct {
	Arm    string `json:"arm"`
	Side   string `json:"side,omitempty" v2:"other"`
	Why    string `json:"why" v2:"text"`
	Detail string `json:"detail,omitempty" v2:"metric"`
}

func (ComparisonNote) Code() Code  { return "comparison-note" }
func (RunsExcluded) Code() Code    { return "runs-excluded" }
func (GatesRelaxed) Code() Code    { return "gates-relaxed" }
func (AllowUnverified) Code() Code { return "allow-unverified" }
func (HostOnBattery) Code() Code   { return "host-on-battery" }
func (HostLowPower) Code() Code    { return "host-low-power" }
func (HostPowerModeChanged) Code() Code {
	return "host-power-mode-changed"
}
func (HostThermal) Code() Code      { return "host-thermal" }
func (HostGPUPowerCap) Code() Code  { return "host-gpu-power-cap" }
func (QuietTimedOut) Code() Code    { return "quiet-timed-out" }
func (OutputFlood) Code() Code      { return "output-flood" }
func (ImpossibleValues) Code() Code { return "impossible-values" }
func (NoEngineTimings) Code() Code  { return "no-engine-timings" }
func (EventCounted) Code() Code     { return "event-counted" }
func (NoContention) Code() Code     { return "no-contention" }
func (NotRun) Code() Code           { return "not-run" }
func (MetricNoValue) Code() Code    { return "metric-no-value" }
func (NoExactness) Code() Code      { return "no-exactness" }
func (KernelTiming) Code() Code     { return "kernel-timing" }
func (NoEnergy) Code() Code         { return "no-energy" }
func (NoDiagnosis) Code() Code      { return "no-diagnosis" }
