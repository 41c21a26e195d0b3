package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/scenarios"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check scenario files and report every problem with file:line:column",
		ArgsUsage: "SCENARIO...",
		Description: `Each SCENARIO is a file path or the name of a shipped scenario (` + fmt.Sprint(scenarios.Shipped()) + `).
All problems of a file are reported at once, each once. For a valid file it
prints the number of runs and a rough estimate of the campaign's duration
(rounds × arms × (cooldown + engine start + warmups and request); see
scenarios.Scenario.Estimate for the assumptions). Exit 1 when any file has an error; warnings alone exit 0.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("validate: name at least one scenario file")
			}
			bad := 0
			for _, arg := range c.Args().Slice() {
				s, warns, err := scenarios.Load(arg, scenarios.Options{})
				for _, w := range warns {
					fmt.Fprintln(c.App.ErrWriter, w)
				}
				if err != nil {
					fmt.Fprintln(c.App.ErrWriter, err)
					bad++
					continue
				}
				fmt.Fprintf(c.App.Writer, "%s: ok (%s: %d arms, %d counters, %s runs, estimated %s)\n", s.Path, s.Feature, len(s.Arms), len(s.Counters), runs(s), scenarios.Round(s.Estimate()))
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
	if r.Adaptive() {
		return fmt.Sprintf("%d to %d", n*r.Min, n*r.Max)
	}
	return fmt.Sprint(n * r.Min)
}
