package main

import (
	"encoding/json"
	"io"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
)

// summary is what `run --json` prints: enough for a CI job to act on
// without parsing the record.
type summary struct {
	Verdict     recorder.Verdict         `json:"verdict"`
	ExitCode    int                      `json:"exit_code"`
	Record      string                   `json:"record"`
	DataDir     string                   `json:"data_dir"`
	Reasons     []string                 `json:"reasons,omitempty"`
	Warnings    []string                 `json:"warnings,omitempty"`
	Primary     string                   `json:"primary"`
	Baseline    string                   `json:"baseline"`
	ArmVerdicts []recorder.ArmVerdict    `json:"arm_verdicts,omitempty"`
	Results     []recorder.MetricResult  `json:"results,omitempty"`
	Identity    *recorder.IdentityResult `json:"identity,omitempty"`
}

func printSummary(w io.Writer, out *harness.Outcome, code int) error {
	r := out.Record
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	a := r.Analysis
	return enc.Encode(summary{
		Verdict: r.Verdict, ExitCode: code, Record: out.RecordPath, DataDir: out.DataDir,
		Reasons: texts(append(append([]recorder.Reason{}, a.Reasons...), a.Flags...)), Warnings: texts(a.Warnings),
		Primary: r.Scenario.Primary, Baseline: r.Scenario.Baseline,
		ArmVerdicts: a.ArmVerdicts, Results: a.Results, Identity: a.Identity,
	})
}

func texts(rs []recorder.Reason) []string {
	var out []string
	for _, r := range rs {
		out = append(out, recorder.ReasonText(r))
	}
	return out
}
