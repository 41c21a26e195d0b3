// Package reproduce reruns a record's campaign on this machine: Prepare
// reads the record and resolves its stored scenario here, without reading
// anything outside the record's data folder; the Plan says every command
// it would run and every file it would read, for a person to confirm
// (Confirm); ReadLocalFiles then reads what the plan named outside the
// data folder; Run runs the campaign and compares its record with the
// original. Holding the host lock and handling signals are left to the
// caller, between the confirmation and the run.
package reproduce

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A Plan is a reproduction before it runs.
type Plan struct {
	// Path is the record's file, Record the record with its runs'
	// figures only (recorder.LoadFigures: what the comparison with the
	// reproduction reads), never their texts: the record is someone
	// else's, its runs.jsonl up to 1 GiB.
	Path   string
	Record *schema.Record
	// Scenario is the stored scenario resolved on this machine, with the
	// record's prompt; Warnings are its loader's.
	Scenario *scenarios.Scenario
	Warnings scenarios.Errors
	// Local lists the files the campaign would read from this machine,
	// outside the record's data folder; none is read before
	// ReadLocalFiles.
	Local []LocalFile
	// FromEnvironment names the variables the stored scenario took from
	// this machine's environment (not from --var); the plan lists them.
	FromEnvironment []string
	// Problems are what check finds in the record: a record that fails
	// check is not reproduced (Refused), its numbers, which the
	// reproduction would be compared with, maybe no measurement's.
	Problems []review.Problem
}

// Refused says why the plan must not run: the record fails check.
func (p *Plan) Refused() error {
	if len(p.Problems) == 0 {
		return nil
	}
	return fmt.Errorf("reproduce: %w; nothing was run", &review.FailsCheckError{Path: p.Path, Problems: p.Problems})
}

// UnresolvedError is a stored scenario that does not resolve on this
// machine (a variable undefined, a binary not found): its variables must
// be pointed at this machine's files.
type UnresolvedError struct{ Err error }

func (e *UnresolvedError) Error() string {
	return "the stored scenario does not resolve here:\n" + e.Err.Error()
}
func (e *UnresolvedError) Unwrap() error { return e.Err }

// RuleError is a stored scenario that the rule new records are judged by
// refuses, where the rule of its record ran it (a confidence other than
// 1 − alpha, pairing switched off): a reproduction would be judged at
// other levels than the record, and nothing on this machine mends that.
type RuleError struct {
	// Rule is the record's rule; Overrides its --set overrides.
	Rule      schema.Rule
	Overrides []string
	// Err are the current rule's refusals; Other the scenario's other
	// errors (an unresolved variable), which --var may mend.
	Err, Other scenarios.Errors
}

func (e *RuleError) Error() string {
	was := "the record was judged by rule " + string(e.Rule) + ", so a reproduction could not be judged as it was"
	switch e.Rule {
	case schema.RuleMedianU:
		was = "the record was judged by the first rule (it names none), so a reproduction could not be judged as it was"
	case schema.RuleCurrent:
		was = "yet the record claims that rule: it was not written by this decodebench as it stands"
	}
	again := ""
	if len(e.Overrides) > 0 {
		again = ", the record's overrides given again (--set " + strings.Join(e.Overrides, " --set ") + ")"
	}
	msg := fmt.Sprintf("the stored scenario asks for what rule %s, by which a new record is judged, refuses; %s:\n%s\n"+
		"To rerun the campaign under rule %s, run a copy of the stored scenario (scenario.yaml in the record's data folder) "+
		"with those keys changed%s, and compare the two records with diff",
		schema.RuleCurrent, was, e.Err.Error(), schema.RuleCurrent, again)
	if len(e.Other) > 0 {
		msg += "\nIt does not resolve here either:\n" + e.Other.Error()
	}
	return msg
}
func (e *RuleError) Unwrap() error { return e.Err }

// refusedByRule is the RuleError of err when the current rule refuses
// any of the stored scenario's keys: first, since no variable mends it.
func refusedByRule(rec *schema.Record, err error) (*RuleError, bool) {
	var errs scenarios.Errors
	if !errors.As(err, &errs) {
		return nil, false
	}
	re := &RuleError{Rule: rec.Method.Rule, Overrides: rec.Scenario.Overrides}
	re.Err, re.Other = errs.ByRule()
	return re, len(re.Err) > 0
}

// Prepare reads the record at path, with what check finds in it (Plan's
// Problems: the plan of a record that fails check can be shown, not run),
// and the scenario stored in its data folder (refused unless its sha256
// is the one the record names), and
// parses it once, resolving ${NAME} through lookup then the scenario's own
// vars. The record's prompt stands in for a prompt_file; a prompt_file the
// record does not carry is left unread and listed in Local.
func Prepare(path string, lookup func(string) (string, bool)) (*Plan, error) {
	rec, err := recorder.LoadFigures(path)
	if err != nil {
		return nil, err
	}
	src, err := recorder.ReadDataFile(path, rec, recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		return nil, fmt.Errorf("reproduce: stored scenario: %w", err)
	}
	// Known by the path it ran from, as the record names it; its
	// problems shown in the copy the user can open, with --var the way
	// to set its variables.
	stored, err := recorder.DataPath(path, rec, recorder.ScenarioFile)
	if err != nil {
		return nil, err
	}
	s, warns, err := scenarios.Parse(rec.Scenario.Path, ".", src, scenarios.Options{
		LookupEnv: lookup, PromptText: rec.Scenario.Request.Prompt, DeferPromptFile: true, Set: rec.Scenario.Overrides,
		Origin: scenarios.Origin{File: stored, VarFlag: true},
	})
	if re, ok := refusedByRule(rec, err); ok {
		return nil, re
	}
	if err != nil {
		return nil, &UnresolvedError{Err: err}
	}
	return &Plan{Path: path, Record: rec, Scenario: s, Warnings: warns, Local: localFiles(s), Problems: review.Check(path)}, nil
}

// ReadLocalFiles reads the files of Local into the scenario; call it
// only once they were allowed and the plan confirmed.
func (p *Plan) ReadLocalFiles() error {
	if err := p.Scenario.ReadPromptFile(); err != nil {
		return fmt.Errorf("reproduce: %w", err)
	}
	return nil
}

// Result is a reproduction's campaign and its comparison with the
// original record.
type Result struct {
	Outcome *harness.Outcome
	Diff    review.Diff
}

// Run runs the campaign into a new record (opt.OutDir) and compares it
// with the original, conditions first, whatever the verdicts.
func (p *Plan) Run(ctx context.Context, opt harness.Options) (*Result, error) {
	if err := p.Refused(); err != nil {
		return nil, err
	}
	if p.Scenario.PromptDeferred() {
		return nil, errors.New("reproduce: the prompt file was not read (ReadLocalFiles)")
	}
	for _, w := range p.Warnings {
		// The record names the scenario by its path, as before.
		opt.ScenarioWarnings = append(opt.ScenarioWarnings, w.Stored())
	}
	out, err := harness.Run(ctx, p.Scenario, opt)
	if err != nil {
		return nil, err
	}
	nu, err := recorder.LoadFigures(out.RecordPath)
	if err != nil {
		return nil, err
	}
	d := review.Compare(p.Path, p.Record, out.RecordPath, nu, review.DiffOptions{Threshold: review.DefaultThreshold, Force: true})
	return &Result{Outcome: out, Diff: d}, nil
}
