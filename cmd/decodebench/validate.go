package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/scenarios"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check scenario files and report every problem with file:line:column",
		ArgsUsage: "SCENARIO...",
		Description: `Each SCENARIO is a file path or the name of a shipped scenario (` + fmt.Sprint(scenarios.Shipped()) + `).
All problems of a file are reported at once. Exit 1 when any file has an error; warnings alone exit 0.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("validate: name at least one scenario file")
			}
			bad := 0
			for _, arg := range c.Args().Slice() {
				s, warns, err := scenarios.Load(arg, scenarios.Options{})
				for _, w := range warns {
					fmt.Fprintln(os.Stderr, w)
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					bad++
					continue
				}
				fmt.Printf("%s: ok (%s: %d arms, %d counters, %d runs)\n", s.Path, s.Feature, len(s.Arms), len(s.Counters), len(s.Arms)*s.Schedule.Rounds.Min)
			}
			if bad > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("validate: %d of %d scenario(s) have errors", bad, c.NArg())}
			}
			return nil
		},
	}
}
