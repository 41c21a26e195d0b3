// Package recorder holds the benchmark record: its model, its Markdown
// rendering with an embedded machine-readable data block, parsing that
// block back, and choosing the record's file name.
package recorder

import (
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/stats"
)

// Schema names the version of the record's data block.
const Schema = "decodebench/record/v1"

// Verdict is the campaign's one-word outcome.
type Verdict string

// Verdicts, with their exit codes.
const (
	Valid        Verdict = "VALID"        // 0: arms proven distinct, numbers publishable
	Failed       Verdict = "FAILED"       // 1: an engine or harness failure stopped the campaign
	Inconclusive Verdict = "INCONCLUSIVE" // 2: too noisy, contended, or identity undecidable
	Unverified   Verdict = "UNVERIFIED"   // 2: the scenario allowed running without a distinguishing counter
	Rejected     Verdict = "REJECTED"     // 3: the counter gate failed
	Incomplete   Verdict = "INCOMPLETE"   // 130/143: interrupted
)

// ExitCode is the exit status of `decodebench run` for the verdict.
func (v Verdict) ExitCode() int {
	switch v {
	case Valid:
		return 0
	case Inconclusive, Unverified:
		return 2
	case Rejected:
		return 3
	case Incomplete:
		return 130
	}
	return 1
}

// ShowsResults reports whether a record with this verdict shows a results
// table. A rejected campaign does not: its arms were not proven to be what
// they claim, so its numbers must not be quoted.
func (v Verdict) ShowsResults() bool {
	return v == Valid || v == Inconclusive || v == Unverified || v == Incomplete
}

// Record is everything one campaign produced.
type Record struct {
	Schema   string   `json:"schema"`
	Verdict  Verdict  `json:"verdict"`
	Reasons  []string `json:"reasons,omitempty"`
	Warnings []string `json:"warnings,omitempty"`

	Feature  string `json:"feature"`
	Title    string `json:"title"`
	Issue    string `json:"issue,omitempty"`
	Hardware string `json:"hardware"`
	Date     string `json:"date"`

	Scenario ScenarioInfo     `json:"scenario"`
	Engine   engine.Identity  `json:"engine"`
	Machine  machine.Identity `json:"machine"`
	Method   Method           `json:"method"`
	Counters []CounterSpec    `json:"counters"`
	Results  []MetricResult   `json:"results,omitempty"`
	// ArmVerdicts says, per arm other than the baseline, in plain words
	// whether it differs from the baseline on the primary metric.
	ArmVerdicts []ArmVerdict `json:"arm_verdicts,omitempty"`
	// Identity is the output identity check, when the scenario asks for it.
	Identity *IdentityResult `json:"identity,omitempty"`
	// Plots are image files in the data folder, relative to it.
	Plots []string `json:"plots,omitempty"`
	Runs  []Run    `json:"runs"`
	// NotMeasured is the scenario's list plus what the campaign itself
	// could not measure.
	NotMeasured []string `json:"not_measured"`
	// DataDir is the folder of raw data, relative to the record file.
	DataDir string `json:"data_dir"`
}

// ScenarioInfo identifies the scenario as run.
type ScenarioInfo struct {
	Path string `json:"path"`
	// Hash is the sha256 of the scenario's semantic content.
	Hash     string         `json:"hash"`
	Baseline string         `json:"baseline"`
	Primary  string         `json:"primary"`
	Arms     []ArmInfo      `json:"arms"`
	Vars     []scenarios.KV `json:"vars,omitempty"`
	Request  RequestInfo    `json:"request"`
	// AllowUnverified is the reason the scenario gave for running without
	// a distinguishing counter.
	AllowUnverified string `json:"allow_unverified,omitempty"`
}

// ArmInfo is one arm's full command line and environment.
type ArmInfo struct {
	Name    string            `json:"name"`
	Command []string          `json:"command"`
	Env     map[string]string `json:"env,omitempty"`
	Control bool              `json:"control,omitempty"`
}

// RequestInfo describes the measured request.
type RequestInfo struct {
	Endpoint    string  `json:"endpoint"`
	Prompt      string  `json:"prompt"`
	MaxTokens   int     `json:"max_tokens"`
	Temperature float64 `json:"temperature"`
	Seed        int     `json:"seed"`
	IgnoreEOS   bool    `json:"ignore_eos"`
}

// Method says how the campaign was run.
type Method struct {
	Rounds   int    `json:"rounds"`
	Warmup   int    `json:"warmup"`
	Order    string `json:"order"`
	Seed     int64  `json:"seed"`
	Cooldown string `json:"cooldown"`
	// Planned is the arm order of the plan; each run's Seq indexes it.
	Planned  []string  `json:"planned"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Version and Commit identify decodebench itself.
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Dirty   bool   `json:"dirty,omitempty"`
	// Resumed lists when an interrupted campaign was continued.
	Resumed []time.Time `json:"resumed,omitempty"`
	// StoppedBy says what ended the schedule: the fixed number of rounds,
	// an adaptive target reached, or the adaptive maximum.
	StoppedBy string `json:"stopped_by,omitempty"`
	// RoundsRun is the number of rounds actually run.
	RoundsRun int `json:"rounds_run"`
	// OnFailure and Outliers are the scenario's policies.
	OnFailure string `json:"on_failure,omitempty"`
	Outliers  string `json:"outliers,omitempty"`
	// Stats and Gates are the thresholds applied.
	Confidence   float64 `json:"confidence"`
	Alpha        float64 `json:"alpha"`
	MinEffect    float64 `json:"min_effect"`
	MaxSpread    float64 `json:"max_spread"`
	MaxContended float64 `json:"max_contended"`
	ContendedCPU float64 `json:"contended_cpu"`
	MaxDrift     float64 `json:"max_drift"`
	// ClientEngineRatio is the median over runs of the client-side decode
	// rate divided by the engine's own, a check on the measurement.
	ClientEngineRatio float64 `json:"client_engine_ratio,omitempty"`
}

// CounterSpec is a counter as the scenario declared it.
type CounterSpec struct {
	Name   string            `json:"name"`
	Kind   string            `json:"kind"`
	Expr   string            `json:"expr"`
	Expect map[string]string `json:"expect"`
}

// Run is one measured run.
type Run struct {
	Seq   int    `json:"seq"` // 1-based position in the plan
	Round int    `json:"round"`
	Arm   string `json:"arm"`
	// Attempt counts tries of this slot under on_failure: retry:N (1 first).
	Attempt int       `json:"attempt,omitempty"`
	Start   time.Time `json:"start"`
	// Seconds is the whole run: engine start, warmups, measured request,
	// stop.
	Seconds float64 `json:"seconds"`
	// CooldownS is the cooldown actually slept before this run.
	CooldownS float64 `json:"cooldown_s"`
	Port      int     `json:"port,omitempty"`

	Metrics       map[string]float64       `json:"metrics,omitempty"`
	Tokens        int                      `json:"tokens,omitempty"`
	TokenSource   string                   `json:"token_source,omitempty"`
	EngineTimings map[string]float64       `json:"engine_timings,omitempty"`
	Counters      map[string]CounterResult `json:"counters,omitempty"`
	LoadBefore    *machine.Load            `json:"load_before,omitempty"`
	// Contention is the CPU used by other processes during the measured
	// window; Contended is whether it exceeded the gate's threshold.
	Contention *machine.Contention `json:"contention,omitempty"`
	Contended  bool                `json:"contended,omitempty"`
	// Outlier marks a primary-metric value flagged by modified z-score;
	// Dropped marks one removed from the statistics (outliers: drop).
	Outlier      bool          `json:"outlier,omitempty"`
	Dropped      bool          `json:"dropped,omitempty"`
	LoadAfter    *machine.Load `json:"load_after,omitempty"`
	OutputSHA256 string        `json:"output_sha256,omitempty"`
	// Output is the generated text; kept in runs.jsonl, left out of the
	// Markdown's data block to keep it small.
	Output string `json:"output,omitempty"`
	// Reasoning is text the engine put in a separate reasoning channel.
	Reasoning string `json:"reasoning,omitempty"`
	// TokenIDs are the generated token ids when the engine returned all of
	// them (runs.jsonl only).
	TokenIDs []int `json:"token_ids,omitempty"`
	// TokenNote says where TokenIDs came from, or why there are none.
	TokenNote string `json:"token_note,omitempty"`
	Error     string `json:"error,omitempty"`
	// Log is the engine log of this run, relative to the data folder.
	Log string `json:"log,omitempty"`
}

// OK reports whether the run finished without error.
func (r Run) OK() bool { return r.Error == "" }

// CounterResult is a counter's value in one run against its expectation.
type CounterResult struct {
	Value  float64 `json:"value"`
	Expect string  `json:"expect,omitempty"`
	OK     bool    `json:"ok"`
	Note   string  `json:"note,omitempty"`
}

// MetricResult is one metric's per-arm statistics.
type MetricResult struct {
	Metric         string      `json:"metric"`
	Unit           string      `json:"unit"`
	Primary        bool        `json:"primary"`
	HigherIsBetter bool        `json:"higher_is_better"`
	Arms           []ArmResult `json:"arms"`
}

// ArmResult is one arm's summary of one metric and its comparison with the
// baseline.
type ArmResult struct {
	Arm string `json:"arm"`
	stats.Summary
	// MedianLo and MedianHi bound the median at MedianConfidence, the level
	// actually achievable with N samples.
	MedianLo         float64 `json:"median_lo"`
	MedianHi         float64 `json:"median_hi"`
	MedianConfidence float64 `json:"median_confidence"`
	Ratio            float64 `json:"ratio"`
	// Comparison with the baseline (absent for the baseline itself).
	RatioLo     float64 `json:"ratio_lo,omitempty"`
	RatioHi     float64 `json:"ratio_hi,omitempty"`
	P           float64 `json:"p,omitempty"`
	Significant bool    `json:"significant,omitempty"`
	Sentence    string  `json:"sentence,omitempty"`
	Outliers    int     `json:"outliers,omitempty"`
	Dropped     int     `json:"dropped,omitempty"`
	// Drift is the relative change from the first to the last third of the
	// campaign, and DriftRho its rank correlation with time.
	Drift    float64 `json:"drift"`
	DriftRho float64 `json:"drift_rho"`
}

// ArmVerdict is the plain-words verdict of one arm against the baseline.
type ArmVerdict struct {
	Arm      string `json:"arm"`
	Control  bool   `json:"control,omitempty"`
	Sentence string `json:"sentence"`
	// SeparatesFromNoise is set when the campaign has a control arm.
	SeparatesFromNoise *bool `json:"separates_from_noise,omitempty"`
}

// IdentityResult is the output identity check.
type IdentityResult struct {
	Verdict    string             `json:"verdict"` // IDENTICAL, DIVERGENT, INCONCLUSIVE, ERROR
	Against    string             `json:"against"`
	OnMismatch string             `json:"on_mismatch"`
	Baseline   IdentityArm        `json:"baseline"`
	Arms       []IdentityArm      `json:"arms"`
	Stripped   []string           `json:"stripped,omitempty"`
	Strip      []string           `json:"strip,omitempty"`
	Notes      []string           `json:"notes,omitempty"`
	Extra      map[string]float64 `json:"extra,omitempty"`
}

// IdentityArm is one arm's identity verdict against the baseline (or, for
// the baseline, against itself).
type IdentityArm struct {
	Arm       string `json:"arm"`
	Identical bool   `json:"identical"`
	Verdict   string `json:"verdict"`
	Runs      int    `json:"runs"`
	// First divergence, when not identical.
	RunA            int    `json:"run_a,omitempty"`
	RunB            int    `json:"run_b,omitempty"`
	TokenIndex      int    `json:"token_index"`
	ByteOffset      int    `json:"byte_offset"`
	TokenA          int    `json:"token_a"`
	TokenB          int    `json:"token_b"`
	DifferingTokens int    `json:"differing_tokens,omitempty"`
	DifferingBytes  int    `json:"differing_bytes,omitempty"`
	ExcerptA        string `json:"excerpt_a,omitempty"`
	ExcerptB        string `json:"excerpt_b,omitempty"`
	TokensCompared  bool   `json:"tokens_compared"`
	Error           string `json:"error,omitempty"`
}

// Result returns the result for metric, if any.
func (r *Record) Result(metric string) (MetricResult, bool) {
	for _, m := range r.Results {
		if m.Metric == metric {
			return m, true
		}
	}
	return MetricResult{}, false
}
