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

// exitWith ends a command with code, saying nothing more: nil for 0.
func exitWith(code int) error {
	if code == 0 {
		return nil
	}
	return &exitError{code: code}
}

func main() {
	// The engine's watchdog, where there is no parent-death signal.
	if len(os.Args) > 1 && os.Args[1] == engine.WatchdogArg {
		os.Exit(engine.RunWatchdog(os.Args[2:]))
	}
	engine.EnableWatchdog()
	// No engine outlives decodebench, even after a panic.
	defer func() {
		if r := recover(); r != nil {
			engine.StopAll()
			panic(r)
		}
	}()
	os.Exit(runMain(os.Args))
}

// runMain runs decodebench on a command line and returns its exit code.
func runMain(args []string) int {
	if err := denyAttach(); err != nil {
		fmt.Fprintln(stderr, "decodebench: warning: cannot make this process undumpable (an engine could attach to it):", err)
	}
	app := newApp()
	args, notes, err := reorderArgs(app, args)
	for _, n := range notes {
		fmt.Fprintln(stderr, "decodebench: note:", n)
	}
	if err == nil {
		err = app.Run(args)
	}
	engine.StopAll()
	return exitCode(err)
}

// onUsageError makes every command line urfave/cli cannot parse exit
// exitUsage.
func onUsageError(_ *cli.Context, err error, _ bool) error {
	return usageError("%v", err)
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "decodebench:", ee.msg)
		}
		return ee.code
	}
	var ce cli.ExitCoder
	if errors.As(err, &ce) {
		fmt.Fprintln(stderr, "decodebench:", err)
		return ce.ExitCode()
	}
	fmt.Fprintln(stderr, "decodebench:", err)
	return 1
}

func newApp() *cli.App {
	version, commit, _ := buildInfo()
	app := &cli.App{
		Name:    "decodebench",
		Usage:   "benchmark LLM inference engines through their real decode path, with proof that each arm ran what it claims",
		Version: fmt.Sprintf("%s (commit %s)", version, commit),
		Description: `decodebench runs a YAML scenario: it starts the engine once per measured run with each
arm's arguments, in interleaved order with cooldowns, checks an arm-distinguishing counter
in every run, and writes a Markdown record to docs/benchmark_results/<feature>-<hw>-<date>.md.

Exit codes of run: 0 VALID, 1 error or FAILED, 2 INCONCLUSIVE or UNVERIFIED, 3 REJECTED,
130/143/129 interrupted (INCOMPLETE), 131 SIGQUIT (engines killed, no record: run
--resume goes on). Every command exits 64 on a command line it does not
understand (an unknown command or flag, a flag without its value, a wrong number of
arguments). Flags may come before or after the arguments; after "--" everything is an
argument.`,
		HideHelpCommand: true,
		Writer:          stdout,
		ErrWriter:       stderr,
		Commands:        []*cli.Command{runCommand(), validateCommand(), checkCommand(), diffCommand(), compareCommand(), reproduceCommand(), indexCommand(), historyCommand(), regimeCommand(), gatherCommand(), exportCommand(), identityCommand(), machineCommand(), planCommand(), initCommand(), presetsCommand(), scenariosCommand(), bisectCommand(), siteCommand()},
		ExitErrHandler:  func(*cli.Context, error) {}, // main prints and exits
		OnUsageError:    onUsageError,
	}
	for _, c := range app.Commands {
		// Without this urfave/cli reads a first argument "h" or "help" as
		// a help topic, even after "--": `check help` printed the help and
		// exited 0, checking nothing (`CMD --help` still helps).
		c.HideHelpCommand = true
	}
	return app
}
