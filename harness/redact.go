package harness

import (
	"encoding/json"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Redacted replaces values that must not reach a record.
const Redacted = redact.Mask

// FromEnvironment stands for the value of a variable that came from the
// environment: only the scenario's own variables are listed with values.
const FromEnvironment = "(from the environment)"

// IsSecretName reports whether a variable or flag name looks like it holds a
// credential.
func IsSecretName(name string) bool { return redact.IsSecretName(name) }

// NewRedactor returns the redactor of a scenario's campaign: it knows the
// secrets of every arm's resolved command line and environment, of the
// variables substituted into them, and the scenario's own secret-named
// variables.
func NewRedactor(s *scenarios.Scenario) *redact.Redactor {
	src := redact.Source{Vars: map[string]string{}}
	envs := []map[string]string{s.Engine.Env}
	src.Commands = append(src.Commands, s.Engine.Command)
	for _, l := range s.Launches() {
		src.Commands = append(src.Commands, l.Command)
		envs = append(envs, l.Env, l.EngineEnv)
	}
	src.Envs = envs
	for _, kv := range s.VarsUsed() {
		src.Vars[kv.Key] = kv.Value
	}
	// The scenario's own secret-named variables, used or not: their values
	// may appear anywhere in the file (a title, a comment).
	for k, v := range s.Vars {
		if redact.IsSecretName(k) {
			src.Secrets = append(src.Secrets, v)
		}
	}
	return redact.New(src)
}

// listedVars is the record's list of substituted variables: the scenario's
// own, secret-named ones redacted; those that came from the environment by
// name only.
func listedVars(s *scenarios.Scenario, r *redact.Redactor) []schema.VarInfo {
	used := s.VarsUsed()
	out := make([]schema.VarInfo, len(used))
	for i, kv := range used {
		v := schema.VarInfo{Name: kv.Key, Value: kv.Value, FromEnv: kv.FromEnv}
		own, ok := s.Vars[kv.Key]
		switch {
		case kv.FromEnv || !ok || own != kv.Value:
			v.Value, v.FromEnv = FromEnvironment, true
		case IsSecretName(kv.Key):
			v.Value = Redacted
		default:
			v.Value = r.Text(kv.Value)
		}
		out[i] = v
	}
	return out
}

// redactedRun returns a redacted deep copy of a run, for the journal: the
// run the campaign keeps in memory is not changed.
func redactedRun(r *redact.Redactor, run schema.Run) (schema.Run, error) {
	if r == nil {
		return run, nil
	}
	b, err := json.Marshal(run)
	if err != nil {
		return run, err
	}
	var cp schema.Run
	if err := json.Unmarshal(b, &cp); err != nil {
		return run, err
	}
	r.Walk(&cp)
	return cp, nil
}
