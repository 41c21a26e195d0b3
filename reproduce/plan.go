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
// every environment entry, and every file it will read: the record's own
// data, the files the engine's arguments name (hashed, not read into the
// record), the source folders whose git state is read, and any file from
// outside the record's data folder. Every string is escaped by termsafe,
// so a stored command holding \r or escape sequences shows them rather
// than acting on the screen.
func (p *Plan) WritePlan(w io.Writer) {
	t, s := termsafe.String, p.Scenario
	WriteEngines(w, s)
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
	fmt.Fprintf(w, "  %s and its data folder (runs.jsonl, scenario.yaml): the record being reproduced\n", t(p.Path))
	for _, b := range engineBinaries(s) {
		fmt.Fprintf(w, "  %s: the engine binary (its sha256)\n", t(b))
	}
	for _, f := range hashed {
		fmt.Fprintf(w, "  %s: named by the engine's arguments (its sha256)\n", t(f))
	}
	for _, src := range slices.Sorted(maps.Keys(sources)) {
		fmt.Fprintf(w, "  %s: the git state of the engine's source folder\n", t(src))
	}
	for _, f := range p.Local {
		fmt.Fprintf(w, "  %s (%s): OUTSIDE the record's data folder; its content would be sent to the engine and written into the new record\n", t(f.Path), f.Key)
	}
	for _, name := range p.FromEnvironment {
		what := "its value goes where the commands above put ${" + t(name) + "}"
		if redact.IsSecretName(name) {
			what = "a SECRET by its name: its value (shown masked) goes where the commands above put ${" + t(name) + "}; --var " + t(name) + "=VALUE gives another"
		}
		fmt.Fprintf(w, "  $%s from YOUR environment: %s\n", t(name), what)
	}
}

// WriteEngines lists the command lines a campaign of s runs: each arm's
// engine with its environment, and every distinct version command, each
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
