package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/console"
	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/scenarios"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check scenario files and report every problem with file:line:column",
		ArgsUsage: "SCENARIO...",
		Description: `Each SCENARIO is a file path or the name of a shipped scenario (` + fmt.Sprint(scenarios.Shipped()) + `).
All problems of a file are reported at once, each once, at file:line:column;
a YAML syntax error at the line and column where it is (not where yaml.v3's
message places it), file:line: alone where its column cannot be found, and at
the quote or bracket that does not close on its line when that is the cause.
For a valid file it
prints the number of runs and a rough estimate of the campaign's duration at
its most rounds: rounds × arms × (a start's fixed cost + its measured requests),
where a start's fixed cost is its cooldown, the engine's start and stop and its
warmup requests. With schedule.rounds.max_time the most rounds are the last look's
that fits in the budget at those costs, and never fewer than the first look's (a
budget stops a campaign only at a look): a first look estimated past the budget is
warned of, by how much, with the rounds that fit. The costs come from the newest record of the scenario's feature
and hardware in --records (the folder run writes records to) with a noise
anatomy (its start and request costs) or runs with wall times; it says which
("from RECORD: start X s, request Y s"), a request scaled to the scenario's
max_tokens and the start to its cooldown and warmups where they differ. The
hardware is the one the scenario names; for "auto" it is this machine's, and
only when no record of it can be used does the estimate take the newest record
of other hardware, and says so. Without one it is a guess, and says so: an engine start of ` + estimate.GuessEngineStart.String() + `, ` + fmt.Sprint(estimate.GuessTokensPerSecond) + ` tok/s
and ` + estimate.GuessRequestOverhead.String() + ` a request besides its tokens (a small model on a CPU).
Exit 1 when any file has an error; warnings alone exit 0.
--json prints one JSON object per file instead (file, ok, problems with line, col (absent where unknown), key,
message and severity, runs, estimate in seconds, estimate_basis: guess, anatomy or
runs, estimate_from: the record it went by, estimate_hardware: that record's
hardware, and estimate_other_hardware: true when it is not this campaign's).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "machine-readable output, one JSON object per file"},
			&cli.StringFlag{Name: "records", Value: defaultOut, Usage: "folder of records whose newest of the feature the estimate goes by (`DIR`, as run --out)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("validate: name at least one scenario file")
			}
			if err := recordsFolderNamed(c, "validate"); err != nil {
				return err
			}
			if c.Bool("json") {
				return validateJSON(c)
			}
			bad, est := 0, newEstimator(c.Context, c.String("records"))
			plans := newPlanRecords(c.Context, c.String("records"))
			for _, arg := range c.Args().Slice() {
				s, warns, err := scenarios.Load(arg, scenarios.Options{})
				if s != nil {
					learnSecrets(harness.NewRedactor(s))
				}
				for _, w := range warns {
					fmt.Fprintln(c.App.ErrWriter, w.Refusal())
				}
				if err != nil {
					fmt.Fprintln(c.App.ErrWriter, err)
					bad++
					continue
				}
				if futile(warns) {
					fmt.Fprintf(c.App.ErrWriter, "%s: refused: every outcome of this campaign would be INCONCLUSIVE (decodebench run still runs it, as a quick look)\n", s.Path)
					bad++
					continue
				}
				costs := est.Costs(s.EstimateShape())
				if w := s.FirstLookOverBudget(costs); w != nil {
					fmt.Fprintln(c.App.ErrWriter, w.Refusal())
				}
				fmt.Fprintf(c.App.Writer, "%s: ok (%s: %d arms, %d counters, %s runs, estimated %s, %s)\n", s.Path, s.Feature, len(s.Arms), len(s.Counters), runs(s), scenarios.Round(estimate.Duration(s.EstimateShape(), costs)), console.EstimateBasis(s.EstimateShape(), costs, c.String("records")))
				p := planner.New(s, plans.Host(s), planner.Options{})
				fmt.Fprintf(c.App.Writer, "%s: plan: %s\n", s.Path, console.PlanLine(p, s, plans.Dir))
			}
			if bad > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("validate: %d of %d scenario(s) have errors", bad, c.NArg())}
			}
			return nil
		},
	}
}

// runs is the number of measured runs, or its range for adaptive rounds.
func runs(s *scenarios.Scenario) string {
	r, n := s.Schedule.Rounds, len(s.Arms)
	if r.MaxTime.Duration > 0 {
		r = r.OnGrid() // a budget's looks stop on the grid
	}
	if r.Adaptive() {
		return fmt.Sprintf("%d to %d", n*r.Min, n*r.Max)
	}
	return fmt.Sprint(n * r.Min)
}

// validation is one file's result, for --json.
type validation struct {
	File     string    `json:"file"`
	OK       bool      `json:"ok"`
	Problems []problem `json:"problems"`
	Runs     string    `json:"runs,omitempty"`
	Estimate float64   `json:"estimate_s,omitempty"`
	// EstimateBasis and EstimateFrom say what the estimate went by: a
	// guess, or a record's noise anatomy or runs, and that record.
	EstimateBasis estimate.Basis `json:"estimate_basis,omitempty"`
	EstimateFrom  string         `json:"estimate_from,omitempty"`
	// EstimateHardware is that record's hardware; EstimateOther is set
	// when it is not the hardware this campaign would record.
	EstimateHardware string `json:"estimate_hardware,omitempty"`
	EstimateOther    bool   `json:"estimate_other_hardware,omitempty"`
	// MDEUp and MDEDown are what the schedule detects here (decodebench
	// plan); PlanBasis, PlanRecords, PlanHardware and PlanOther what its
	// host model went by: the records' basis (scenario, feature or
	// guess), how many, their hardware and whether it is other hardware.
	MDEUp        float64       `json:"mde_up,omitempty"`
	MDEDown      float64       `json:"mde_down,omitempty"`
	PlanBasis    planner.Basis `json:"plan_basis,omitempty"`
	PlanRecords  int           `json:"plan_records,omitempty"`
	PlanHardware string        `json:"plan_hardware,omitempty"`
	PlanOther    bool          `json:"plan_other_hardware,omitempty"`
	// PlanStalls is what the schedule detects at either end of the
	// stalls' share's interval, where the records saw stalls.
	PlanStalls *planner.StallRange `json:"plan_stall_range,omitempty"`
}

type problem struct {
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Key      string `json:"key,omitempty"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

func validateJSON(c *cli.Context) error {
	enc := json.NewEncoder(c.App.Writer)
	bad, est := 0, newEstimator(c.Context, c.String("records"))
	plans := newPlanRecords(c.Context, c.String("records"))
	for _, arg := range c.Args().Slice() {
		s, warns, err := scenarios.Load(arg, scenarios.Options{})
		v := validation{File: arg, OK: err == nil, Problems: []problem{}}
		var all scenarios.Errors
		var es scenarios.Errors
		switch {
		case errors.As(err, &es):
			all = es
		case err != nil:
			v.Problems = append(v.Problems, problem{Message: err.Error(), Severity: "error"})
		}
		all = append(all, warns...)
		if s != nil && err == nil {
			if w := s.FirstLookOverBudget(est.Costs(s.EstimateShape())); w != nil {
				all = append(all, w)
			}
		}
		if futile(warns) {
			v.OK = false
		}
		for _, e := range all {
			sev := "error"
			if e.Warning && !e.Futile {
				sev = "warning"
			}
			v.Problems = append(v.Problems, problem{Line: e.Pos.Line, Col: e.Pos.Col, Key: e.Key, Message: e.Msg, Severity: sev})
		}
		if s != nil {
			costs := est.Costs(s.EstimateShape())
			v.File, v.Runs, v.Estimate = s.Path, runs(s), estimate.Duration(s.EstimateShape(), costs).Seconds()
			v.EstimateBasis, v.EstimateFrom = costs.Basis, costs.Record
			v.EstimateHardware, v.EstimateOther = costs.Hardware, costs.OtherHardware
			if err == nil {
				p := planner.New(s, plans.Host(s), planner.Options{})
				v.MDEUp, v.MDEDown, v.PlanBasis = p.Schedule.Up, p.Schedule.Down, p.Host.Basis
				v.PlanRecords, v.PlanHardware, v.PlanOther = len(p.Host.Records), p.Host.Hardware, p.Host.OtherHardware
				v.PlanStalls = p.Stalls
			}
		}
		if !v.OK {
			bad++
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	if bad > 0 {
		return &exitError{code: 1}
	}
	return nil
}

// futile reports whether a warning makes every outcome of the campaign
// INCONCLUSIVE: validate refuses such a scenario.
func futile(warns scenarios.Errors) bool {
	for _, w := range warns {
		if w.Futile {
			return true
		}
	}
	return false
}
