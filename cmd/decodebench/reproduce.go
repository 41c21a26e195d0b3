package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func reproduceCommand() *cli.Command {
	return &cli.Command{
		Name:      "reproduce",
		Usage:     "rerun a record's campaign on this machine and diff the result against it",
		ArgsUsage: "RECORD.md",
		Description: `reproduce reads the scenario stored in the record's data folder, resolves it on this
machine (--var NAME=VALUE first, then the environment, then the scenario's own vars; the
prompt is the record's), prints every engine command line and environment it is about to
run, every file it will read (a file outside the record's data folder, such as a
prompt_file the record does not carry, is refused unless --allow-local-files), with every
control character shown escaped, and asks for confirmation: a record from a pull request can
name any command. --yes
skips the question (for CI, on records you trust). It then runs the campaign into a new
record under --out and prints the diff against the original, conditions first.

Exit: the new record's verdict code (0 VALID, 2 INCONCLUSIVE, …), 1 when refused or failed.`,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "var", Usage: "NAME=VALUE for a variable of the scenario (this machine's binaries and models); repeatable"},
			&cli.BoolFlag{Name: "yes", Usage: "run without asking"},
			&cli.StringFlag{Name: "out", Value: "reproductions", Usage: "folder for the new record"},
			&cli.StringFlag{Name: "hw", Usage: "hardware slug for the new record (default: detected)"},
			&cli.BoolFlag{Name: "markdown", Usage: "print the diff as Markdown"},
			&cli.BoolFlag{Name: "allow-local-files", Usage: "let the stored scenario read files from this machine outside the record's data folder (a prompt_file); the plan names them"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("reproduce: name one record")
			}
			path := c.Args().First()
			orig, err := recorder.Load(path)
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			src, err := readStoredScenario(path, orig)
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			vars := map[string]string{}
			for _, kv := range c.StringSlice("var") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return usageError("reproduce: --var %q: want NAME=VALUE", kv)
				}
				vars[k] = v
			}
			lookup := func(name string) (string, bool) {
				if v, ok := vars[name]; ok {
					return v, true
				}
				return os.LookupEnv(name)
			}
			// The stored prompt stands in for any prompt_file, so that
			// nothing outside the record is read before it is confirmed: a
			// placeholder when the record carries none.
			prompt := orig.Scenario.Request.Prompt
			parsePrompt := prompt
			if parsePrompt == "" {
				parsePrompt = "\x00"
			}
			s, warns, err := scenarios.Parse(orig.Scenario.Path, ".", src, scenarios.Options{LookupEnv: lookup, PromptText: parsePrompt, Set: orig.Scenario.Overrides})
			if err != nil {
				return &exitError{code: 1, msg: "reproduce: the stored scenario does not resolve here:\n" + err.Error() + "\n(point its variables at this machine with --var NAME=VALUE)"}
			}
			learnSecrets(harness.NewRedactor(s))
			var warnings []string
			for _, w := range warns {
				fmt.Fprintln(c.App.ErrWriter, w)
				warnings = append(warnings, w.Error())
			}
			local := localFiles(s, prompt)
			printPlan(c.App.Writer, path, s, local)
			if len(local) > 0 && !c.Bool("allow-local-files") {
				return &exitError{code: 1, msg: fmt.Sprintf("reproduce: the stored scenario reads %s (%s) from this machine, outside the record's data folder; nothing was run (--allow-local-files reads it)", termsafe.String(local[0].Path), local[0].Key)}
			}
			if !c.Bool("yes") {
				ok, err := confirm(c.App.Reader, c.App.Writer)
				if err != nil {
					return &exitError{code: 1, msg: "reproduce: " + err.Error()}
				}
				if !ok {
					return &exitError{code: 1, msg: "reproduce: not confirmed; nothing was run"}
				}
			}
			if len(local) > 0 {
				// Allowed and confirmed: now read the local files.
				if s, _, err = scenarios.Parse(orig.Scenario.Path, ".", src, scenarios.Options{LookupEnv: lookup, Set: orig.Scenario.Overrides}); err != nil {
					return &exitError{code: 1, msg: "reproduce: " + err.Error()}
				}
			}
			ctx, sig, stop := interruptible(c.Context)
			defer stop()
			lock, err := machine.AcquireHostLock(ctx, 0, machine.HolderInfo{PID: os.Getpid(), Start: time.Now(), Scenario: s.Path})
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			defer lock.Release()
			ver, rev, dirty := buildInfo()
			out, err := harness.Run(ctx, s, harness.Options{
				OutDir: c.String("out"), Hardware: c.String("hw"), Progress: c.App.ErrWriter, LearnSecrets: learnSecrets,
				Live: term.IsTerminal(int(os.Stderr.Fd())), Version: ver, Commit: rev, Dirty: dirty, ScenarioWarnings: warnings,
			})
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			fmt.Fprintf(c.App.Writer, "%s: %s\n\n", out.Record.Verdict, out.RecordPath)
			nu, err := recorder.Load(out.RecordPath)
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			d := review.Compare(path, orig, out.RecordPath, nu, review.DiffOptions{Force: true})
			if err := writeDiff(c.App.Writer, d, c.Bool("markdown"), false); err != nil {
				return err
			}
			code := out.Record.Verdict.ExitCode()
			if out.Record.Verdict == schema.Incomplete && sig.get() == syscall.SIGTERM {
				code = 143
			}
			if code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

// readStoredScenario reads the scenario from a record's data folder,
// through the guarded reader, refusing it when its sha256 is not the one
// the record names.
func readStoredScenario(path string, rec *schema.Record) ([]byte, error) {
	b, err := recorder.ReadDataFile(path, rec, recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		return nil, fmt.Errorf("reproduce: stored scenario: %w", err)
	}
	return b, nil
}

// maxAnswerBytes bounds the answer read from standard input: a yes is
// three letters, and an input without a newline (/dev/zero) must not
// grow without end.
const maxAnswerBytes = 4 << 10

// confirm asks for a yes on standard input; anything else, or no input at
// all (a CI job without --yes), is a no.
func confirm(in io.Reader, out io.Writer) (bool, error) {
	fmt.Fprint(out, "Run these commands? [y/N] ")
	line, err := bufio.NewReader(io.LimitReader(in, maxAnswerBytes)).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", nil
}
