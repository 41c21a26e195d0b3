package analysis

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

// Reason is a code with its parameters; which parameters a code uses is
// said beside the code.
type Reason struct {
	Code    Code
	Arm     string
	Other   string
	Counter string
	Metric  string
	Run     int
	Round   int
	Attempt int
	N, M    int
	Value   float64
	Limit   float64
	// P, Lo and Hi are a comparison's p-value and interval.
	P, Lo, Hi float64
	Text      string
}
