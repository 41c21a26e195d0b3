package scenarios

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ArmEngine overrides, for one arm, keys of the scenario's engine: the
// binary and its fixed arguments (command), its environment (env, which
// replaces engine.env; the arm's own env still goes on top), its source
// checkout (source) and version command. The request, the ready path and
// everything else stay shared by every arm, so that the arms differ only
// in the engine they run.
//
//	arms:
//	  - {name: base}
//	  - name: head
//	    engine: {command: ["${HEAD_BIN}", "-m", "${MODEL}", "--port", "${PORT}"], source: "${HEAD_SRC}"}
type ArmEngine struct {
	Command        []string          `yaml:"command" json:"command,omitempty"`
	Env            map[string]string `yaml:"env" json:"env,omitempty"`
	Source         string            `yaml:"source" json:"source,omitempty"`
	VersionCommand []string          `yaml:"version_command" json:"version_command,omitempty"`
	// AllowDirty is the reason to run this arm's engine although its
	// source is dirty or newer than its binary.
	AllowDirty string `yaml:"allow_dirty" json:"allow_dirty,omitempty"`
	// SHA256 pins this arm's engine binary, as engine.sha256 does.
	SHA256 string `yaml:"sha256" json:"sha256,omitempty"`
}

// Launch is what one arm runs: the scenario's engine with the arm's
// overrides applied and its args and env added, ${VAR}s resolved (${PORT}
// stays for the engine start).
type Launch struct {
	Arm string
	// Command is the engine command with the arm's args appended.
	Command []string
	// EngineCommand is the engine command alone, Args the arm's args.
	EngineCommand, Args []string
	// Env is the engine's environment with the arm's env over it.
	Env map[string]string
	// EngineEnv is the engine's environment alone (version commands run
	// with it).
	EngineEnv      map[string]string
	Source         string
	VersionCommand []string
	AllowDirty     string
	// SHA256 is the hash the engine binary must have; empty: any.
	SHA256 string
	// Own is set when the arm overrides its engine (arms[].engine).
	Own bool
}

// Binary is the engine binary the launch starts.
func (l Launch) Binary() string {
	if len(l.Command) == 0 {
		return ""
	}
	return l.Command[0]
}

// EngineKey tells engines apart: arms with the same key run the same
// engine, which is identified once. Two arms of one command whose
// environments differ in what it executes or loads (LoaderEnv) run
// different engines.
func (l Launch) EngineKey() string {
	return strings.Join([]string{l.Binary(), l.Source, strings.Join(l.VersionCommand, "\x01"), strings.Join(l.LoaderEnv(), "\x01")}, "\x00")
}

// LoaderEnv is what of the launch's environment (engine and arm env)
// changes the files its command executes or loads, as sorted NAME=value:
// the dynamic loaders' variables (LD_*: LD_LIBRARY_PATH, LD_PRELOAD, …;
// DYLD_*), ggml's GGML_BACKEND_PATH (a backend it loads), and PATH when
// the command is a bare name looked up on it.
func (l Launch) LoaderEnv() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(l.Env)) {
		if loaderVar(k) || (k == "PATH" && !strings.Contains(l.Binary(), "/")) {
			out = append(out, k+"="+l.Env[k])
		}
	}
	return out
}

// loaderVar reports whether an environment variable chooses the code an
// engine loads, whatever its command: LD_*, DYLD_*, GGML_BACKEND_PATH.
func loaderVar(name string) bool {
	return strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_") || name == "GGML_BACKEND_PATH"
}

// Launch returns what the arm runs. An arm not in the scenario gets the
// scenario's engine alone.
func (s *Scenario) Launch(arm string) Launch {
	a, _ := s.Arm(arm)
	e := s.Engine
	l := Launch{
		Arm:            arm,
		Command:        slices.Clone(e.Command),
		EngineEnv:      maps.Clone(e.Env),
		Source:         e.Source,
		VersionCommand: s.VersionCommand(),
		AllowDirty:     e.AllowDirty,
		SHA256:         e.SHA256,
	}
	if o := a.Engine; o != nil {
		l.Own = true
		if len(o.Command) > 0 {
			l.Command = slices.Clone(o.Command)
			// Another binary's source and hash are not the scenario
			// engine's.
			l.Source, l.AllowDirty, l.SHA256 = "", "", ""
		}
		if o.Env != nil {
			l.EngineEnv = maps.Clone(o.Env)
		}
		if o.Source != "" {
			l.Source = o.Source
		}
		if len(o.VersionCommand) > 0 {
			l.VersionCommand = slices.Clone(o.VersionCommand)
		}
		if o.AllowDirty != "" {
			l.AllowDirty = o.AllowDirty
		}
		if o.SHA256 != "" {
			l.SHA256 = o.SHA256
		}
	}
	l.EngineCommand = slices.Clone(l.Command)
	l.Args = slices.Clone(a.Args)
	l.Command = append(l.Command, a.Args...)
	l.Env = map[string]string{}
	maps.Copy(l.Env, l.EngineEnv)
	maps.Copy(l.Env, a.Env)
	return l
}

// Launches returns every arm's launch, in arm order.
func (s *Scenario) Launches() []Launch {
	out := make([]Launch, len(s.Arms))
	for i, a := range s.Arms {
		out[i] = s.Launch(a.Name)
	}
	return out
}

// EngineUse is one distinct engine and the arms that run it.
type EngineUse struct {
	Launch Launch // the first arm's
	Arms   []string
}

// Engines groups the arms by the engine they run (EngineKey), in the order
// of each engine's first arm.
func (s *Scenario) Engines() []EngineUse {
	var out []EngineUse
	at := map[string]int{}
	for _, l := range s.Launches() {
		k := l.EngineKey()
		if i, ok := at[k]; ok {
			out[i].Arms = append(out[i].Arms, l.Arm)
			continue
		}
		at[k] = len(out)
		out = append(out, EngineUse{Launch: l, Arms: []string{l.Arm}})
	}
	return out
}

// PerArmEngines reports whether the arms run more than one engine.
func (s *Scenario) PerArmEngines() bool { return len(s.Engines()) > 1 }

// validateArmEngines checks arms[].engine.
func (s *Scenario) validateArmEngines(p *problems) {
	for i, a := range s.Arms {
		o := a.Engine
		if o == nil {
			continue
		}
		key := fmt.Sprintf("arms[%d].engine", i)
		if len(o.Command) > 0 && o.Command[0] == "" {
			p.at(key+".command", "the command's first word is empty")
		}
		if len(o.VersionCommand) > 0 && o.VersionCommand[0] == "" {
			p.at(key+".version_command", "the command's first word is empty")
		}
		if len(o.Command) == 0 && o.Env == nil && o.Source == "" && len(o.VersionCommand) == 0 && o.AllowDirty == "" && o.SHA256 == "" {
			p.at(key, "empty: give the keys this arm's engine overrides (command, env, source, version_command, allow_dirty, sha256)")
		}
		validSHA256(p, key+".sha256", o.SHA256)
	}
	ref := "${" + PortVar + "}"
	for i, a := range s.Arms {
		if a.Engine == nil || len(a.Engine.Command) == 0 || s.Engine.IsCommand() || !s.mentionsPort() {
			continue
		}
		if !slices.ContainsFunc(append(slices.Clone(a.Engine.Command), a.Args...), func(w string) bool { return strings.Contains(w, ref) }) {
			p.warn(fmt.Sprintf("arms[%d].engine.command", i), "no ${PORT} in this arm's engine command or args: its engine will not listen on the port decodebench polls")
		}
	}
	validSHA256(p, "engine.sha256", s.Engine.SHA256)
	if s.Engine.AllowDirty != "" && s.Engine.Source == "" {
		p.warn("engine.allow_dirty", "has no effect without engine.source")
	}
}

// validateDistinctArms refuses two arms that run exactly the same thing
// (command, arguments and environment) unless one is a negative control:
// such a pair is an accidental A/A comparison. Arms whose binaries are
// different files with the same content are refused when the campaign
// starts, where the binaries are hashed.
func (s *Scenario) validateDistinctArms(p *problems) {
	ls := s.Launches()
	for j := range ls {
		for i := 0; i < j; i++ {
			if s.Arms[i].Control || s.Arms[j].Control || ls[i].Arm == ls[j].Arm || !SameLaunch(ls[i], ls[j]) || s.Streams(ls[i].Arm) != s.Streams(ls[j].Arm) {
				continue
			}
			p.at(fmt.Sprintf("arms[%d]", j), "arm %q runs exactly what arm %q runs (same command, arguments and environment): "+
				"an accidental A/A comparison; change one, or mark it control: true to measure the method's noise floor",
				ls[j].Arm, ls[i].Arm)
			break
		}
	}
}

// SameLaunch reports whether two launches run the same command line with
// the same environment.
func SameLaunch(a, b Launch) bool {
	return slices.Equal(a.Command, b.Command) && maps.Equal(a.Env, b.Env)
}

// validSHA256 checks a pinned hash: 64 hexadecimal digits, unless it is
// left empty or names a variable (resolved later, or kept as written when
// a stored scenario is read back).
func validSHA256(p *problems, key, v string) {
	if v == "" || strings.Contains(v, "${") {
		return
	}
	if len(v) != 64 || strings.Trim(strings.ToLower(v), "0123456789abcdef") != "" {
		p.at(key, "%q is not a sha256: 64 hexadecimal digits, as sha256sum prints them", v)
	}
}
