package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
)

func presetsCommand() *cli.Command {
	return &cli.Command{
		Name:  "presets",
		Usage: "list the engine presets and the defaults each fills in",
		Description: `A scenario's engine.preset fills in ready.path, metrics_path and request.endpoint
where the scenario leaves them out; any of them can be written to override it. The
counters, engine metrics and version command listed are suggestions that
decodebench init writes into a starter scenario.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the presets as JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("presets: takes no arguments")
			}
			ps := scenarios.Presets()
			w := c.App.Writer
			if c.Bool("json") {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(ps)
			}
			for _, p := range ps {
				fmt.Fprintf(w, "%s: %s\n", p.Name, p.About)
				fmt.Fprintf(w, "  ready.path %s, metrics_path %s, request.endpoint %s\n", p.ReadyPath, p.MetricsPath, p.Endpoint)
				fmt.Fprintf(w, "  command (example): %s\n", termsafe.ShellJoin(p.Command))
				if len(p.VersionCommand) > 0 {
					fmt.Fprintf(w, "  version_command: %s\n", termsafe.ShellJoin(p.VersionCommand))
				}
				for _, k := range p.Counters {
					kind, expr := k.Source()
					fmt.Fprintf(w, "  counter %s: %s %s\n", k.Name, kind, expr)
				}
				if len(p.EngineMetrics) > 0 {
					fmt.Fprintf(w, "  engine metrics: %s\n", strings.Join(p.EngineMetrics, ", "))
				}
			}
			return nil
		},
	}
}

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter scenario",
		ArgsUsage: "[FILE]",
		Description: `Writes a starter scenario for an engine preset to FILE (default: stdout): a classic and
a speculative arm, the preset's usual distinguishing counters and every required key. It
validates as written; edit it, then check it with decodebench validate FILE. An existing
FILE is not overwritten unless --force is given. Presets: ` + strings.Join(scenarios.PresetNames(), ", ") + `.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "preset", Value: scenarios.DefaultStarterPreset, Usage: "engine preset `P` (see decodebench presets)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing FILE"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageError("init: at most one file")
			}
			src, err := scenarios.Starter(c.String("preset"))
			if err != nil {
				return usageError("init: %v", err)
			}
			path := c.Args().First()
			if path == "" || path == "-" {
				_, err := c.App.Writer.Write(src)
				return err
			}
			if err := writeStarter(path, src, c.Bool("force")); err != nil {
				if errors.Is(err, fs.ErrExist) {
					return &exitError{code: 1, msg: fmt.Sprintf("init: %s exists; give another file or --force", path)}
				}
				return &exitError{code: 1, msg: "init: " + err.Error()}
			}
			fmt.Fprintf(c.App.ErrWriter, "wrote %s (preset %s): edit it, then decodebench validate %s\n", path, c.String("preset"), path)
			return nil
		},
	}
}

func scenariosCommand() *cli.Command {
	return &cli.Command{
		Name:      "scenarios",
		Usage:     "list the shipped scenarios, or print one (scenarios show NAME)",
		ArgsUsage: "[show NAME]",
		Description: `Without arguments, lists the scenarios shipped inside decodebench with the first line of
each one's header comment. "scenarios show NAME" prints one, to copy and edit:
decodebench scenarios show llamacpp-ngram > mine.yaml. Any of them runs by name:
decodebench run NAME.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "list as JSON"}},
		Action: func(c *cli.Context) error {
			w := c.App.Writer
			switch {
			case c.NArg() == 0:
				list := scenarios.ShippedList()
				if c.Bool("json") {
					enc := json.NewEncoder(w)
					enc.SetIndent("", "  ")
					return enc.Encode(list)
				}
				width := 0
				for _, s := range list {
					width = max(width, len(s.Name))
				}
				for _, s := range list {
					fmt.Fprintf(w, "%-*s  %s\n", width, s.Name, s.Summary)
				}
				return nil
			case c.Args().First() == "show" && c.NArg() == 2:
				src, err := scenarios.ShippedSource(c.Args().Get(1))
				if err != nil {
					return &exitError{code: 1, msg: fmt.Sprintf("scenarios show: no shipped scenario %q (shipped: %s)", c.Args().Get(1), strings.Join(scenarios.Shipped(), ", "))}
				}
				_, err = w.Write(src)
				return err
			}
			return usageError("scenarios: give no argument (list them) or show NAME")
		},
	}
}

// writeStarter writes the starter scenario to path, create-exclusive into
// a temporary file in path's folder, then moved into place: hard-linked
// when nothing may be there yet (a file, a link or a FIFO at path is an
// fs.ErrExist), renamed over path with force (a link or FIFO there is
// replaced, never written through or hung on). The folder is the one the
// user named, links in it resolved once, then held open.
func writeStarter(path string, src []byte, force bool) error {
	target, err := userTarget(path)
	if err != nil {
		return err
	}
	if force {
		return safefs.WriteFile(target, src, 0o644)
	}
	return safefs.CreateFile(target, src, 0o644)
}

// userTarget is a file path the user named on the command line, with the
// links in its folder resolved once (the user chose them); its last
// component is left as it is, for safefs, which never follows a link
// there.
func userTarget(path string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(path)), nil
}
