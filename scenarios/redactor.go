package scenarios

import "github.com/decodebench/decodebench/redact"

// Redactor returns the redactor of the scenario's campaign: it knows the
// secrets of every arm's resolved command line, version command and
// environment, of the variables substituted into them, and the scenario's
// own secret-named variables.
func (s *Scenario) Redactor() *redact.Redactor {
	src := redact.Source{Vars: map[string]string{}}
	src.Commands = append(src.Commands, s.Engine.Command, s.VersionCommand())
	src.Envs = append(src.Envs, s.Engine.Env)
	for _, l := range s.Launches() {
		src.Commands = append(src.Commands, l.Command, l.VersionCommand)
		src.Envs = append(src.Envs, l.Env, l.EngineEnv)
	}
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
