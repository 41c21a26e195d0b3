package schema

// Code names a reason. Codes are stable: they are persisted in records.
type Code string

// Reasons that decide the verdict, flags that accompany it, warnings, and
// what the campaign could not measure. The parameters each uses are named
// beside it.
const (
	// Verdict reasons.
	CounterFailed      Code = "counter-failed"        // Run, Round, Arm, Counter, Value, Text (expectation)
	Declined           Code = "declined"              // Run, Round, Arm, N (lines), Text (the first line)
	SourceAbsent       Code = "counter-source-absent" // Counter, Text (source: metric name, JSON path or log pattern), Other (source kind), N (runs read)
	ControlDiffers     Code = "control-differs"       // Arm (control), Other (baseline), Metric, Value (ratio), Lo, Hi (interval), P, Limit (alpha)
	RunFailed          Code = "run-failed"            // Run, Round, Arm, Attempt, Text (error's first line)
	IdentityMismatch   Code = "identity-mismatch"     // Arm, Other (against), Run (token index), N (byte offset), Text (arm verdict)
	Interrupted        Code = "interrupted"           // N (finished runs), M (planned runs)
	ThinArm            Code = "thin-arm"              // Arm, N (successful runs)
	TooNoisy           Code = "too-noisy"             // Arm, Metric, Value (spread), Limit
	TooFewSamples      Code = "too-few-samples"       // Arm, N, M (samples; rounds when paired), Value (smallest p), Limit (alpha the arm must reach), Text ("paired" or "")
	ContendedHost      Code = "contended-host"        // N (contended), M (judged), Value (contended_cpu), Limit (max_contended)
	IdentityUndecided  Code = "identity-undecidable"  // identity Notes say why
	IdentityBrokenNote Code = "identity-broken"       // Arm, Other, Run (token index), N (byte offset), Text (arm verdict); on_mismatch: report

	// Flags.
	Drift      Code = "drift"      // Arm, Value (change), Limit (rho)
	Contention Code = "contention" // N, M, Value (contended_cpu), Limit (max_contended)

	// Warnings.
	ComparisonNote  Code = "comparison-note"  // Arm, Other (baseline), Text (the statistics library's warning)
	RunsExcluded    Code = "runs-excluded"    // N, Text (on_failure)
	GatesRelaxed    Code = "gates-relaxed"    // Text (which)
	AllowUnverified Code = "allow-unverified" // Text (the scenario's reason)

	// Not measured.
	NoEngineTimings Code = "no-engine-timings" // N
	EventCounted    Code = "event-counted"     // N
	NoContention    Code = "no-contention"     // N, Value (window, seconds)
	NotRun          Code = "not-run"           // N
	NoExactness     Code = "no-exactness"
	KernelTiming    Code = "kernel-timing"

	// Identity notes.
	IdentityEmptyBaseline  Code = "identity-empty-baseline"   // Arm, Text (why)
	IdentityUncomparable   Code = "identity-uncomparable"     // Arm, Text (why)
	IdentityNotDeterminist Code = "identity-nondeterministic" // Arm, N (disagreeing), M (runs), Run, Round (run numbers), Value (byte offset), Limit (token index)
	IdentityEmptyArm       Code = "identity-empty-arm"        // Arm, Text (why)
	IdentityNoRuns         Code = "identity-no-runs"          // Arm

	// Host warnings (host.go): the machine was not as it should be during
	// N of M finished runs.
	HostOnBattery   Code = "host-on-battery"    // N, M
	HostLowPower    Code = "host-low-power"     // N, M
	HostThermal     Code = "host-thermal"       // N, M, Text (the conditions seen, comma-separated: thermal_warning, cpu_speed_limited, cpu_thermal_trip, gpu_thermal_capping)
	HostGPUPowerCap Code = "host-gpu-power-cap" // N, M
	QuietTimedOut   Code = "quiet-timed-out"    // N (runs started on a host not found quiet), M, Text (on_busy)
)

// Reason is a code with its parameters.
type Reason struct {
	Code    Code    `json:"code"`
	Arm     string  `json:"arm,omitempty"`
	Other   string  `json:"other,omitempty"`
	Counter string  `json:"counter,omitempty"`
	Metric  string  `json:"metric,omitempty"`
	Run     int     `json:"run,omitempty"`
	Round   int     `json:"round,omitempty"`
	Attempt int     `json:"attempt,omitempty"`
	N       int     `json:"n,omitempty"`
	M       int     `json:"m,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Limit   float64 `json:"limit,omitempty"`
	P       float64 `json:"p,omitempty"`
	Lo      float64 `json:"lo,omitempty"`
	Hi      float64 `json:"hi,omitempty"`
	Text    string  `json:"text,omitempty"`
}
