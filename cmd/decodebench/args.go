package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// exitUsage is the exit code of a command line decodebench did not
// understand (sysexits' EX_USAGE), distinct from every verdict's code.
const exitUsage = 64

// usageError is a command line that could not be understood.
func usageError(format string, args ...any) *exitError {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// reorderArgs lets flags follow arguments, as in most CLIs: urfave/cli stops
// parsing flags at the first argument, so that `run s.yaml --out DIR` would
// take --out for a second scenario. It moves every flag of the command
// (with its value, for flags that take one) before the arguments, and puts
// `--` before the arguments so that none is read as a flag. Everything after
// a `--` of the user's stays an argument; notes says when one of those looks
// like a flag of the command. An unknown command or flag, or a flag without
// its value, is a usage error that names it.
func reorderArgs(app *cli.App, args []string) (out []string, notes []string, err error) {
	if len(args) == 0 {
		return args, nil, nil
	}
	out = []string{args[0]}
	i := 1
	// Options of the application itself, before the command.
	appFlags := flagIndex(app.Flags, true, app.HideVersion)
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || !isFlag(a) {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if _, ok := appFlags[name]; !ok {
			return nil, nil, usageError("flag %s is not understood here: flags of a command go after the command (%s)", a, commandList(app))
		}
		out = append(out, a)
	}
	if i < len(args) && args[i] == "--" {
		i++
	}
	if i >= len(args) {
		return out, nil, nil
	}
	name := args[i]
	cmd := findCommand(app, name)
	if cmd == nil {
		if name == "help" || name == "h" {
			// `help CMD` is `CMD --help`.
			switch {
			case i+1 >= len(args):
				return append(out, "--help"), nil, nil
			case findCommand(app, args[i+1]) != nil:
				return append(out, args[i+1], "--help"), nil, nil
			}
			return nil, nil, usageError("no help for %q: commands: %s", args[i+1], commandList(app))
		}
		return nil, nil, usageError("unknown command %q; commands: %s (decodebench --help describes them)", name, commandList(app))
	}
	out = append(out, name)
	known := flagIndex(cmd.Flags, !cmd.HideHelp, true)
	optional := optionalFlags(cmd.Flags)
	var flags, positional []string
	// valueOf are the arguments that directly follow a flag whose value is
	// optional (run --github-summary [FILE]): by index in positional, the
	// index of that flag in flags.
	valueOf := map[int]int{}
	for i++; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, p := range args[i+1:] {
				if isFlag(p) {
					if _, ok := known[flagName(p)]; ok {
						notes = append(notes, fmt.Sprintf("%s follows `--` and is taken as an argument, not as a flag of %s", p, cmd.Name))
					}
				}
			}
			positional = append(positional, args[i+1:]...)
			break
		}
		if !isFlag(a) {
			if i > 1 && isFlag(args[i-1]) && optional[flagName(args[i-1])] && !strings.Contains(args[i-1], "=") {
				valueOf[len(positional)] = len(flags) - 1
			}
			positional = append(positional, a)
			continue
		}
		fname, _, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takesValue, ok := known[fname]
		if !ok {
			return nil, nil, usageError("%s: flag %s is not understood; flags of %s: %s", cmd.Name, a, cmd.Name, flagList(cmd))
		}
		if fname == "help" || fname == "h" {
			// Help ignores the rest (urfave/cli would read an argument as
			// a help topic).
			return append(out, "--help"), nil, nil
		}
		flags = append(flags, a)
		if takesValue && !inline {
			if i+1 >= len(args) {
				return nil, nil, usageError("%s: flag %s needs a value", cmd.Name, a)
			}
			i++
			flags = append(flags, args[i])
		}
	}
	// An argument after a flag with an optional value is the flag's value
	// when the command keeps an argument without it: `run --github-summary
	// FILE s.yaml` writes to FILE, `run --github-summary s.yaml` to the
	// default.
	var kept []string
	left := len(positional)
	for j, p := range positional {
		if fi, ok := valueOf[j]; ok && left > 1 {
			flags[fi] += "=" + p
			left--
			continue
		}
		kept = append(kept, p)
	}
	positional = kept
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out, notes, nil
}

// isFlag reports whether a looks like a flag ("-" alone is an argument:
// standard input, by convention).
func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

func flagName(a string) string {
	n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	return n
}

// flagIndex maps every name and alias of flags to whether the flag takes a
// value; help and version are added when the application has them.
func flagIndex(flags []cli.Flag, help, hideVersion bool) map[string]bool {
	idx := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		if g, ok := f.(*cli.GenericFlag); ok {
			if b, ok := g.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				isBool = true
			}
		}
		for _, n := range f.Names() {
			idx[n] = !isBool
		}
	}
	if help {
		idx["help"], idx["h"] = false, false
	}
	if !hideVersion {
		idx["version"], idx["v"] = false, false
	}
	return idx
}

// optionalFlags are the flags whose value may be left out (a Generic
// value that is also a bool flag, such as --github-summary [FILE]).
func optionalFlags(flags []cli.Flag) map[string]bool {
	idx := map[string]bool{}
	for _, f := range flags {
		if g, ok := f.(*cli.GenericFlag); ok {
			if b, ok := g.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				for _, n := range f.Names() {
					idx[n] = true
				}
			}
		}
	}
	return idx
}

func findCommand(app *cli.App, name string) *cli.Command {
	for _, c := range app.Commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func commandList(app *cli.App) string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

func flagList(cmd *cli.Command) string {
	var names []string
	for _, f := range cmd.Flags {
		names = append(names, "--"+f.Names()[0])
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
