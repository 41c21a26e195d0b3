// Command decodebench benchmarks LLM inference engines through their real
// production decode path: interleaved arms, an arm-distinguishing counter
// gate, and a reviewable Markdown record.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/engine"
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func main() {
	// No engine outlives decodebench, even after a panic.
	defer func() {
		if r := recover(); r != nil {
			engine.StopAll()
			panic(r)
		}
	}()
	app := newApp()
	err := app.Run(os.Args)
	engine.StopAll()
	os.Exit(exitCode(err))
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "decodebench:", ee.msg)
		}
		return ee.code
	}
	var ce cli.ExitCoder
	if errors.As(err, &ce) {
		fmt.Fprintln(os.Stderr, "decodebench:", err)
		return ce.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "decodebench:", err)
	return 1
}

func newApp() *cli.App {
	version, commit, _ := buildInfo()
	return &cli.App{
		Name:    "decodebench",
		Usage:   "benchmark LLM inference engines through their real decode path, with proof that each arm ran what it claims",
		Version: fmt.Sprintf("%s (commit %s)", version, commit),
		Description: `decodebench runs a YAML scenario: it starts the engine once per measured run with each
arm's arguments, in interleaved order with cooldowns, checks an arm-distinguishing counter
in every run, and writes a Markdown record to docs/benchmark_results/<feature>-<hw>-<date>.md.

Exit codes of run: 0 VALID, 1 error or FAILED, 2 INCONCLUSIVE or UNVERIFIED, 3 REJECTED,
130/143 interrupted (INCOMPLETE).`,
		HideHelpCommand: true,
		Commands:        []*cli.Command{runCommand(), validateCommand(), exportCommand(), identityCommand(), machineCommand()},
		ExitErrHandler:  func(*cli.Context, error) {}, // main prints and exits
	}
}
