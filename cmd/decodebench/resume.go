package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/reproduce"
	"github.com/decodebench/decodebench/scenarios"
)

// A resume reads a data folder whose campaign.json names what it runs:
// the scenario, its overrides, the variables' values and the folder the
// engines run in. A folder this user's decodebench did not write as it is
// (harness.Owned: copied, received, changed) may name anything of this
// machine, so nothing it names is read, and nothing is run, before it
// was shown and allowed: askFolder names the scenario, the folder and
// the variables before the resume changes into that folder or reads a
// scenario outside the data folder; askRun shows what the campaign runs
// and reads (reproduce's plan) before it runs, and a prompt_file outside
// the data folder is read only then, with --allow-local-files. A file
// the folder named outside itself never has its text quoted: its
// messages are withheld (scenarios.Errors.Withheld), and a refusal names
// the keys that changed, not their values.

// resumeRun is a resume between reading its data folder and running.
type resumeRun struct {
	dir string
	rs  harness.ResumeState
	// owned: this user's decodebench wrote the folder as it is; ask:
	// the resume shows its plan and asks (a folder not owned, or a
	// scenario gone and read from its stored copy), unless --yes.
	owned, ask bool
	// scenario is the file the resume loads; fromState: the campaign's
	// own (its path, or its stored copy); gone: the campaign's path when
	// the file is no longer there and the stored copy is read; outside:
	// a file the folder names outside itself.
	scenario, gone     string
	fromState, outside bool
	// local are the files of this machine outside the data folder the
	// loaded scenario reads (a deferred prompt_file), read only once
	// allowed.
	local []reproduce.LocalFile
}

// prepareResume reads the data folder dir of `run --resume` (making the
// paths given on the command line absolute), says where this shell's
// variables differ from the campaign's, asks about a folder not this
// user's (askFolder), and changes into the folder the campaign ran in,
// where its engine command's relative paths name files.
func prepareResume(c *cli.Context, dir, arg, out *string) (*resumeRun, error) {
	rs, err := resumeState(dir, arg, out)
	if err != nil {
		return nil, &exitError{code: 1, msg: err.Error()}
	}
	r := &resumeRun{dir: *dir, rs: rs, owned: harness.Owned(*dir), scenario: *arg, fromState: *arg == ""}
	if r.fromState {
		r.scenario = rs.ScenarioPath
		if !strings.HasPrefix(r.scenario, "embedded:") {
			// A state decodebench wrote names it absolute; a
			// relative one is read from the folder the resume runs in.
			if !filepath.IsAbs(r.scenario) && rs.WorkDir != "" {
				r.scenario = filepath.Join(rs.WorkDir, r.scenario)
			}
			if r.scenario, err = filepath.Abs(r.scenario); err != nil {
				return nil, &exitError{code: 1, msg: err.Error()}
			}
			if _, err := os.Stat(r.scenario); err != nil {
				// A scenario no longer there: the copy the
				// campaign stored, which runs only once its
				// commands were shown and allowed.
				r.gone, r.scenario = r.scenario, filepath.Join(*dir, recorder.ScenarioFile)
			}
			r.outside = !inFolder(*dir, r.scenario)
		}
	}
	for _, n := range rs.Notes {
		fmt.Fprintln(stderr, "decodebench: resume:", n)
	}
	r.ask = !c.Bool("yes") && (r.gone != "" || !r.owned)
	if r.ask && !r.owned {
		if err := r.askFolder(c); err != nil {
			return nil, err
		}
	}
	if wd, _ := os.Getwd(); rs.WorkDir != "" && !harness.SameFolder(rs.WorkDir, wd) {
		if err := os.Chdir(rs.WorkDir); err != nil {
			return nil, &exitError{code: 1, msg: fmt.Sprintf("resume %s: the campaign ran in %s, and the resume runs there too: %v", *dir, rs.WorkDir, err)}
		}
		fmt.Fprintf(stderr, "decodebench: resume: running in %s, where the campaign ran\n", rs.WorkDir)
	}
	return r, nil
}

// inFolder reports whether path lies inside the folder dir (both
// absolute; the data folder holds no link, ReadResumeState refused one).
func inFolder(dir, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// received reports whether the scenario is a file a folder not this
// user's named outside itself: its text is never quoted.
func (r *resumeRun) received() bool { return r.fromState && r.outside && !r.owned }

// options are the load options of the resumed scenario: the campaign's
// overrides (--set, --rounds) and variables; a folder not this user's
// leaves its scenario's prompt_file unread until it was allowed.
func (r *resumeRun) options() scenarios.Options {
	return scenarios.Options{Set: r.rs.Overrides, LookupEnv: r.rs.LookupEnv, DeferPromptFile: r.fromState && !r.owned}
}

// loaded takes the loader's outcome: a received scenario's messages
// withheld (warns too), the variables checked against the campaign's,
// and a deferred prompt_file read now when it is the data folder's own
// file, or else kept for allow.
func (r *resumeRun) loaded(s *scenarios.Scenario, warns scenarios.Errors, err error) (scenarios.Errors, error) {
	if r.received() {
		warns = warns.Withheld()
		var errs scenarios.Errors
		if errors.As(err, &errs) {
			err = fmt.Errorf("%w\n(%s is a file that the data folder %s, which this user's decodebench did not write, names: its messages are withheld, as they may quote it; decodebench validate %s shows them)",
				errs.Withheld(), r.scenario, r.dir, r.scenario)
		}
	}
	if err != nil {
		return warns, err
	}
	if err := r.rs.Check(r.dir, s); err != nil {
		return warns, err
	}
	if r.gone != "" || !r.outside && r.fromState {
		if m := maskedLaunches(s); len(m) > 0 {
			hint := ""
			if r.gone != "" {
				hint = fmt.Sprintf(" (%s is gone; name it, or its copy with the values, after the folder: decodebench run --resume %s FILE)", r.gone, r.dir)
			}
			return warns, fmt.Errorf("%w%s; nothing was run", maskedError("resume "+r.dir, m), hint)
		}
	}
	if s.PromptDeferred() {
		if p := s.PromptPath(); !inFolder(r.dir, p) {
			r.local = append(r.local, reproduce.LocalFile{Key: "engine.request.prompt_file", Path: p})
		} else if err := s.ReadPromptFile(); err != nil {
			return warns, err
		}
	}
	return warns, nil
}

// allow shows the plan and asks (unless --yes, or the folder is this
// user's and its scenario there), refuses a file outside the data folder
// without --allow-local-files, --yes or not, and then reads it.
func (r *resumeRun) allow(c *cli.Context, s *scenarios.Scenario) error {
	if r.ask {
		if r.owned {
			r.writeNames(c.App.Writer)
		}
		reproduce.WriteEngines(c.App.Writer, s)
		reproduce.WriteReads(c.App.Writer, s, reproduce.Reads{
			Own:     termsafe.String(r.dir) + ": the campaign's data folder (campaign.json, runs.jsonl, scenario.yaml)",
			Outside: "the campaign's data folder", Local: r.local, FromEnvironment: r.rs.FromThisEnvironment(s),
		})
	}
	if len(r.local) > 0 && !c.Bool("allow-local-files") {
		f := r.local[0]
		msg := fmt.Sprintf("run --resume: the campaign's scenario reads %s (%s) from this machine, outside the data folder %s; ", termsafe.String(f.Path), f.Key, r.dir)
		return &exitError{code: 1, msg: msg + "nothing was run (--allow-local-files reads it)"}
	}
	if r.ask {
		ok, err := reproduce.Confirm(c.App.Reader, c.App.Writer)
		if err != nil || !ok {
			return &exitError{code: 1, msg: "run --resume: not confirmed; nothing was run (--yes runs it without asking)"}
		}
	}
	if err := s.ReadPromptFile(); err != nil {
		return &exitError{code: 1, msg: "run --resume: " + err.Error()}
	}
	return nil
}

// askFolder names, for a data folder this user's decodebench did not
// write as it is, what the folder says the resume runs, and asks before
// the resume changes into the folder it names or reads a scenario it
// names outside itself: it asks nothing when it does neither.
func (r *resumeRun) askFolder(c *cli.Context) error {
	w := c.App.Writer
	fmt.Fprintf(w, "The data folder %s was not written by this user's decodebench as it is now (a copied or received folder, or its campaign.json changed since): what it names may come from someone else.\n", termsafe.String(r.dir))
	r.writeNames(w)
	wd, _ := os.Getwd()
	move := r.rs.WorkDir != "" && !harness.SameFolder(r.rs.WorkDir, wd)
	if !move && !r.received() {
		return nil
	}
	var what []string
	if move {
		what = append(what, "change into "+termsafe.String(r.rs.WorkDir))
	}
	if r.received() {
		what = append(what, "read "+termsafe.String(r.scenario))
	}
	ok, err := reproduce.Ask(c.App.Reader, w, strings.Join(what, " and ")+", to show what the resume would run and read (it runs nothing yet)?")
	if err != nil || !ok {
		return &exitError{code: 1, msg: "run --resume: not confirmed; nothing was read or run (--yes runs it without asking)"}
	}
	return nil
}

// writeNames says what the resume runs by the folder's say: the scenario
// (with its overrides), the folder it runs in and the variables' values,
// a secret's never (the state keeps none).
func (r *resumeRun) writeNames(w io.Writer) {
	t := termsafe.String
	switch {
	case r.gone != "":
		fmt.Fprintf(w, "The campaign's scenario %s is no longer there; the resume would run the copy its data folder stores, %s, which may come from someone else.\n", t(r.gone), t(r.scenario))
	default:
		fmt.Fprintf(w, "The resume would run the scenario %s", t(r.scenario))
		if r.received() {
			fmt.Fprint(w, ", a file OUTSIDE the data folder that the folder names")
		}
		if len(r.rs.Overrides) > 0 {
			fmt.Fprintf(w, " with %s", t(termsafe.ShellJoin(r.rs.Overrides)))
		}
		fmt.Fprintln(w)
	}
	if r.rs.WorkDir != "" {
		fmt.Fprintf(w, "in the folder %s,\n", t(r.rs.WorkDir))
	}
	for _, v := range r.rs.StateVars() {
		fmt.Fprintf(w, "with %s\n", t(v))
	}
}

// resumeState reads the data folder of the campaign --resume continues,
// making the paths given on the command line (the data folder, a
// scenario, --out) absolute first. It prints nothing, and reads nothing
// the folder names.
func resumeState(dir, scenario, out *string) (harness.ResumeState, error) {
	for _, p := range []*string{dir, scenario, out} {
		if *p == "" || p == scenario && strings.HasPrefix(*p, "embedded:") {
			continue
		}
		if _, err := os.Stat(*p); p == scenario && err != nil {
			continue // the name of a shipped scenario
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return harness.ResumeState{}, err
		}
		*p = abs
	}
	return harness.ReadResumeState(*dir)
}
