package scenarios

import (
	"errors"
	"fmt"
)

// Origin is where a scenario's text comes from, for the problems and the
// hints that send the user to it. The zero Origin is a file the user
// edits, whose variables are set in the environment (run, validate).
type Origin struct {
	// File is the file the user can open for the scenario where it is
	// not the path the scenario is known by: a record's stored scenario
	// keeps the path it ran from (embedded:llamacpp-cli.yaml) and is read
	// from its data folder's scenario.yaml. Problems show it, at the same
	// line and column; the record keeps the path (Error.Stored).
	File string
	// VarFlag says the command sets the scenario's variables with --var
	// NAME=VALUE (reproduce), not in the environment.
	VarFlag bool
	// Generated, when set, says a command built the scenario from its
	// flags (compare, from --base and --head): no file the user wrote
	// holds it. It names what on the command line a key's value came
	// from ("compare --base"), or the command's own default where
	// nothing did; problems show that instead of a line.
	Generated func(key string) string
}

// place is where the command the user ran shows a problem of the
// scenario: "" where it is the scenario's own file, line and column.
func (o Origin) place(e *Error) string {
	switch {
	case o.Generated != nil:
		return o.Generated(e.Key)
	case o.File != "":
		return (&Error{File: o.File, Pos: e.Pos}).position()
	}
	return ""
}

// show sets where each problem is shown (Error.Shown).
func (o Origin) show(es Errors) {
	for _, e := range es {
		e.Shown = o.place(e)
	}
}

// Parse decodes, validates and resolves scenario source. path names the
// source in messages (and in the record); dir resolves relative prompt
// files; opt.Origin says where the user finds what a message names.
func Parse(path, dir string, src []byte, opt Options) (*Scenario, Errors, error) {
	s, warns, err := parse(path, dir, src, opt)
	opt.Origin.show(warns)
	var es Errors
	if errors.As(err, &es) {
		opt.Origin.show(es)
	}
	return s, warns, err
}

// EngineHint is how to make the engine binary of arm resolve where it
// does not, placed where the scenario names it ("FILE:LINE:COL: KEY:
// set LLAMA_SERVER to its path…"), as the command the user ran sets it.
func (s *Scenario) EngineHint(arm string) string {
	key := "engine.command[0]"
	for i, a := range s.Arms {
		if a.Name == arm && a.Engine != nil && len(a.Engine.Command) > 0 {
			key = fmt.Sprintf("arms[%d].engine.command[0]", i)
		}
	}
	raw, _ := s.rawCommand0(key)
	e := &Error{File: s.Path, Pos: s.pos.of(key), Key: key, Msg: s.origin.binaryHint(key, raw, s.Launch(arm).Binary())}
	e.Shown = s.origin.place(e)
	return e.Error()
}

// setVar says how the command sets variable v to what (a description).
func (o Origin) setVar(v, what string) string {
	if o.VarFlag {
		return fmt.Sprintf("give --var %s=<%s>", v, what)
	}
	return fmt.Sprintf("set %s to %s", v, what)
}

// assign is an example of setting variable v to val, as the command does.
func (o Origin) assign(v, val string) string {
	if o.VarFlag {
		return fmt.Sprintf("--var %s=%s", v, val)
	}
	return v + "=" + val
}

// orSetBuiltFrom says how to set the variable a path is built from; a
// generated scenario has none.
func (o Origin) orSetBuiltFrom() string {
	switch {
	case o.Generated != nil:
		return ""
	case o.VarFlag:
		return ", or give --var for the variable it is built from"
	}
	return ", or set the variable it is built from"
}

// setModelDir says how to point MODEL_DIR at the demo models.
func (o Origin) setModelDir() string {
	if o.VarFlag {
		return "give --var MODEL_DIR=<that folder>"
	}
	return "set MODEL_DIR"
}

// undefinedHint is how to define variable v, as the command sets it.
func (o Origin) undefinedHint(v string) string {
	if o.VarFlag {
		return fmt.Sprintf("give --var %s=<its value on this machine>", v)
	}
	return "add it under vars or set it in the environment"
}
