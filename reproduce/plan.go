package reproduce

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
)

// LocalFile is a file outside the record's own data folder whose content a
// reproduction would read into the campaign (and so send to the engine and
// write into the new record).
type LocalFile struct {
	// Key is the scenario's key that names the file, Path the file.
	Key, Path string
}

// localFiles lists the files a stored scenario reads from this machine
// beyond the record's data folder: the prompt_file when the record does
// not carry the prompt itself (and so it was left unread).
func localFiles(s *scenarios.Scenario) []LocalFile {
	var out []LocalFile
	if s.PromptDeferred() {
		out = append(out, LocalFile{Key: "engine.request.prompt_file", Path: s.Engine.Request.PromptFile})
	}
	return out
}

// WritePlan lists, before anything runs, every command line a campaign
// will run (each arm's engine, every version command: WriteEngines),
// every environment entry, and every file it will read (WriteReads): the
// record's own data, the files the engine's arguments name (hashed, not
// read into the record), the source folders whose git state is read, and
// any file from outside the record's data folder. Every string is escaped
// by termsafe, so that a stored command holding \r or escape sequences
// shows them rather than acting on the screen.
func (p *Plan) WritePlan(w io.Writer) {
	WriteEngines(w, p.Scenario)
	WriteReads(w, p.Scenario, Reads{
		Own:     termsafe.String(p.Path) + " and its data folder (runs.jsonl, scenario.yaml): the record being reproduced",
		Outside: "the record's data folder", Local: p.Local, FromEnvironment: p.FromEnvironment, VarFlag: true,
	})
}

// Reads is what a plan says a campaign reads besides the engines' command
// lines: reproduce's, a resume's and a bisect's plan list the same
// (WriteReads), each with its own folder.
type Reads struct {
	// Own says what the command reads of its own folder: the first line.
	Own string
	// Outside names that folder where a file of Local lies outside it.
	Outside string
	// Local are the files read from this machine outside that folder,
	// into the campaign (and so to the engine and into the record).
	Local []LocalFile
	// Prompt is a prompt file the command read from this machine, one
	// not in Local (a bisect reads its scenario's as it checks it).
	Prompt string
	// FromEnvironment names the variables taken from this environment;
	// VarFlag says --var gives another value.
	FromEnvironment []string
	VarFlag         bool
}

// WriteReads lists under "It will read:" every file a campaign of s reads:
// r.Own, the engine binaries (hashed), the files the engine's arguments
// name (hashed, not read into the record), the source folders whose git
// state is read (git runs in each), the prompt file and any other file
// from outside the command's folder, and the variables from this
// environment, each escaped by termsafe.
func WriteReads(w io.Writer, s *scenarios.Scenario, r Reads) {
	t := termsafe.String
	sources := map[string]bool{}
	var hashed []string
	for _, a := range s.Arms {
		l := s.Launch(a.Name)
		if l.Source != "" {
			sources[l.Source] = true
		}
		for _, f := range argFiles(l.Command) {
			if !slices.Contains(hashed, f) {
				hashed = append(hashed, f)
			}
		}
	}
	fmt.Fprintln(w, "It will read:")
	fmt.Fprintf(w, "  %s\n", r.Own)
	for _, b := range engineBinaries(s) {
		fmt.Fprintf(w, "  %s: the engine binary (its sha256; where it is a wrapper script, the binary it runs and the shared libraries that binary loads, theirs too)\n", t(b))
	}
	for _, f := range hashed {
		fmt.Fprintf(w, "  %s: named by the engine's arguments (its sha256)\n", t(f))
	}
	for _, src := range slices.Sorted(maps.Keys(sources)) {
		fmt.Fprintf(w, "  %s: the git state of the engine's source folder (git runs there)\n", t(src))
	}
	if r.Prompt != "" {
		fmt.Fprintf(w, "  %s (engine.request.prompt_file): from this machine; its content is sent to the engine and written into the record\n", t(r.Prompt))
	}
	for _, f := range r.Local {
		fmt.Fprintf(w, "  %s (%s): OUTSIDE %s; its content would be sent to the engine and written into the new record\n", t(f.Path), f.Key, r.Outside)
	}
	for _, name := range r.FromEnvironment {
		what := "its value goes where the commands above put ${" + t(name) + "}"
		if redact.IsSecretName(name) {
			what = "a SECRET by its name: its value (shown masked) goes where the commands above put ${" + t(name) + "}"
			if r.VarFlag {
				what += "; --var " + t(name) + "=VALUE gives another"
			}
		}
		fmt.Fprintf(w, "  $%s from YOUR environment: %s\n", t(name), what)
	}
}

// WriteEngines lists the command lines a campaign of s runs: each arm's
// engine with its environment, every distinct version command, and each
// engine binary's --version (engine.Identify runs it), each
// escaped by termsafe (a stored command's \r or escape sequences are
// shown, never acted on).
func WriteEngines(w io.Writer, s *scenarios.Scenario) {
	t := termsafe.String
	fmt.Fprintf(w, "The campaign %s will start these engines, once per measured run (%d arms × %d+ rounds):\n", t(s.Feature), len(s.Arms), s.Schedule.Rounds.Min)
	var versions [][]string
	for _, a := range s.Arms {
		l := s.Launch(a.Name)
		fmt.Fprintf(w, "  arm %s runs:\n    %s\n", t(a.Name), termsafe.ShellJoin(l.Command))
		for _, k := range slices.Sorted(maps.Keys(l.Env)) {
			fmt.Fprintf(w, "    env %s=%s\n", t(k), termsafe.ShellJoin([]string{l.Env[k]}))
		}
		if len(l.VersionCommand) > 0 && !slices.ContainsFunc(versions, func(v []string) bool { return slices.Equal(v, l.VersionCommand) }) {
			versions = append(versions, l.VersionCommand)
		}
	}
	for _, v := range versions {
		fmt.Fprintf(w, "  and, for the engine's version, once:\n    %s\n", termsafe.ShellJoin(v))
	}
	// engine.Identify asks every engine binary its version, a version
	// command or not.
	for _, b := range engineBinaries(s) {
		fmt.Fprintf(w, "  and, to identify the engine, once:\n    %s\n", termsafe.ShellJoin([]string{b, "--version"}))
	}
}

// engineBinaries are the arms' distinct engine binaries.
func engineBinaries(s *scenarios.Scenario) []string {
	var out []string
	for _, a := range s.Arms {
		if b := s.Launch(a.Name).Binary(); b != "" && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// argFiles are the existing regular files a command's arguments name (a
// bare path or --flag=path), as engine.ModelFiles hashes them.
func argFiles(cmd []string) []string {
	var out []string
	for i, a := range cmd {
		if i == 0 {
			continue
		}
		if strings.HasPrefix(a, "-") {
			_, v, ok := strings.Cut(a, "=")
			if !ok {
				continue
			}
			a = v
		}
		if a == "" || strings.Contains(a, "${") {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			if abs, err := filepath.Abs(a); err == nil {
				a = abs
			}
			out = append(out, a)
		}
	}
	return out
}
