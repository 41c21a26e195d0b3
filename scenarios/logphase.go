package scenarios

import "github.com/decodebench/decodebench/schema"

// A log counter reads the engine's lines of the measured window by
// default. A setting that no request, reply or metric reports (the
// threads llama-server runs with, its context size, a cache type) is
// stated once, in the lines the engine writes while it starts: with
// phase: startup a log counter reads those, from the launch until the
// engine answered ready, so that a settings change (-t 1 against -t 2) is
// proven in every run like a speculative arm is.

// validatePhase checks a counter's phase: a log counter's only, and
// startup only for a server (a command engine's run is its whole life).
func (s *Scenario) validatePhase(p *problems, key string, c Counter) {
	switch {
	case c.Phase != "" && c.Log == "":
		p.at(key+".phase", "phase says which log lines a log counter reads; a counter without log: has none")
	case c.Phase == schema.PhaseStartup && s.Engine.IsCommand():
		p.at(key+".phase", "a command engine has no start-up apart from its run: its log counters read its whole output")
	}
}
