package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a campaign and write its record",
		ArgsUsage: "SCENARIO",
		Description: `SCENARIO is a file path or the name of a shipped scenario (` + fmt.Sprint(scenarios.Shipped()) + `).

Exit codes: 0 VALID, 1 error or FAILED, 2 INCONCLUSIVE or UNVERIFIED, 3 REJECTED,
130 (SIGINT) or 143 (SIGTERM) when interrupted; the record is then marked INCOMPLETE.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "docs/benchmark_results", Usage: "folder for the record and its data folder"},
			&cli.StringFlag{Name: "hw", Usage: "hardware slug for the record name (default: the scenario's, else detected)"},
			&cli.StringFlag{Name: "date", Usage: "record date, YYYY-MM-DD (default: today)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return &exitError{code: 1, msg: "run: name exactly one scenario"}
			}
			s, warns, err := scenarios.Load(c.Args().First(), scenarios.Options{})
			for _, w := range warns {
				fmt.Fprintln(os.Stderr, w)
			}
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			ctx, sig, stop := interruptible(context.Background())
			defer stop()
			ver, rev, dirty := buildInfo()
			out, err := harness.Run(ctx, s, harness.Options{
				OutDir:   c.String("out"),
				Hardware: c.String("hw"),
				Date:     c.String("date"),
				Progress: os.Stderr,
				Live:     term.IsTerminal(int(os.Stderr.Fd())),
				Version:  ver,
				Commit:   rev,
				Dirty:    dirty,
			})
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			v := out.Record.Verdict
			fmt.Printf("%s: %s\n", v, out.RecordPath)
			for _, r := range out.Record.Reasons {
				fmt.Println("  " + r)
			}
			code := v.ExitCode()
			if v == recorder.Incomplete && *sig == syscall.SIGTERM {
				code = 143
			}
			if code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

// interruptible returns a context cancelled by the first SIGINT or SIGTERM,
// which lets the campaign stop its engine and write an INCOMPLETE record.
// A second signal kills every engine at once and exits.
func interruptible(parent context.Context) (context.Context, *os.Signal, func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	var got os.Signal
	go func() {
		s, ok := <-ch
		if !ok {
			return
		}
		got = s
		fmt.Fprintf(os.Stderr, "\ndecodebench: %s: stopping the engine and writing the record (again to stop at once)\n", s)
		cancel()
		s, ok = <-ch
		if !ok {
			return
		}
		engine.KillAll()
		fmt.Fprintf(os.Stderr, "decodebench: %s again: engines killed; exiting\n", s)
		if s == syscall.SIGTERM {
			os.Exit(143)
		}
		os.Exit(130)
	}()
	return ctx, &got, func() { signal.Stop(ch); cancel() }
}
