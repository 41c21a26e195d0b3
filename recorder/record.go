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
	Runs     []Run            `json:"runs"`
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
	Seq   int       `json:"seq"` // 1-based position in the plan
	Round int       `json:"round"`
	Arm   string    `json:"arm"`
	Start time.Time `json:"start"`
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
	LoadAfter     *machine.Load            `json:"load_after,omitempty"`
	OutputSHA256  string                   `json:"output_sha256,omitempty"`
	// Output is the generated text; kept in runs.jsonl, left out of the
	// Markdown's data block to keep it small.
	Output string `json:"output,omitempty"`
	Error  string `json:"error,omitempty"`
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

// ArmResult is one arm's summary of one metric and its ratio to the
// baseline's median.
type ArmResult struct {
	Arm string `json:"arm"`
	stats.Summary
	Ratio float64 `json:"ratio"`
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
