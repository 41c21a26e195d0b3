package main

import (
	"encoding/json"
	"io"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// summary is what `run --json` prints: enough for a CI job to act on
// without parsing the record.
type summary struct {
	Verdict     schema.Verdict         `json:"verdict"`
	ExitCode    int                    `json:"exit_code"`
	Record      string                 `json:"record"`
	DataDir     string                 `json:"data_dir"`
	Reasons     []string               `json:"reasons,omitempty"`
	AlsoFailed  []string               `json:"also_failed,omitempty"`
	Warnings    []string               `json:"warnings,omitempty"`
	Primary     string                 `json:"primary"`
	Baseline    string                 `json:"baseline"`
	ArmVerdicts []armVerdict           `json:"arm_verdicts,omitempty"`
	Results     []schema.MetricResult  `json:"results,omitempty"`
	Identity    *schema.IdentityResult `json:"identity,omitempty"`
}

func printSummary(w io.Writer, out *harness.Outcome, code int) error {
	r := out.Record
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	a := r.Analysis
	return enc.Encode(summary{
		Verdict: r.Verdict, ExitCode: code, Record: out.RecordPath, DataDir: out.DataDir,
		Reasons: texts(r, append(append([]schema.Reason{}, a.Reasons...), a.Flags...)), AlsoFailed: texts(r, a.AlsoFailed), Warnings: texts(r, a.Warnings),
		Primary: r.Scenario.Primary, Baseline: r.Scenario.Baseline,
		ArmVerdicts: armVerdicts(r), Results: a.Results, Identity: a.Identity,
	})
}

// armVerdict is an arm's verdict with its sentence.
type armVerdict struct {
	schema.ArmVerdict
	Sentence string `json:"sentence"`
	// SeparatesFromNoise is null when the campaign has no control arm.
	SeparatesFromNoise *bool `json:"separates_from_noise"`
}

func armVerdicts(r *schema.Record) []armVerdict {
	var out []armVerdict
	for _, v := range r.Analysis.ArmVerdicts {
		av := armVerdict{ArmVerdict: v, Sentence: recorder.ArmVerdictText(r, v)}
		if v.ControlArm != "" {
			sep := v.SeparatesFromNoise
			av.SeparatesFromNoise = &sep
		}
		out = append(out, av)
	}
	return out
}

func texts(rec *schema.Record, rs []schema.Reason) []string {
	var out []string
	for _, r := range rs {
		out = append(out, recorder.ReasonText(rec, r))
	}
	return out
}
