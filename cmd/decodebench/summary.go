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
	return enc.Encode(summary{
		Verdict: r.Verdict, ExitCode: code, Record: out.RecordPath, DataDir: out.DataDir,
		Reasons: r.Reasons, Warnings: r.Warnings, Primary: r.Scenario.Primary, Baseline: r.Scenario.Baseline,
		ArmVerdicts: r.ArmVerdicts, Results: r.Results, Identity: r.Identity,
	})
}
