package harness

import (
	"regexp"
	"strings"

	"github.com/decodebench/decodebench/scenarios"
)

// Redacted replaces values that must not reach a record.
const Redacted = "[redacted]"

// secretName matches names that look like they hold credentials.
var secretName = regexp.MustCompile(`(?i)(token|key|secret|password|passwd|credential)`)

// IsSecretName reports whether a variable or flag name looks like it holds a
// credential.
func IsSecretName(name string) bool { return secretName.MatchString(name) }

// redactEnv returns env with the values of secret-looking names replaced.
func redactEnv(env map[string]string) map[string]string {
	if len(env) == 0 {
		return nil
	}
	out := make(map[string]string, len(env))
	for k, v := range env {
		if IsSecretName(k) {
			v = Redacted
		}
		out[k] = v
	}
	return out
}

// redactArgs replaces the value of a secret-looking flag (`--api-key X` or
// `--api-key=X`) in a command line.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, inline := strings.Cut(a, "=")
		if !IsSecretName(strings.TrimLeft(name, "-")) {
			continue
		}
		if inline {
			out[i] = name + "=" + Redacted
		} else if i+1 < len(out) {
			out[i+1] = Redacted
		}
	}
	return out
}

// secretValues returns the values of the scenario's variables whose names
// look secret, so that they can be masked wherever they were substituted.
func secretValues(s *scenarios.Scenario) []string {
	var out []string
	for _, kv := range s.VarsUsed() {
		if IsSecretName(kv.Key) && len(kv.Value) >= 4 {
			out = append(out, kv.Value)
		}
	}
	for _, env := range append([]map[string]string{s.Engine.Env}, armEnvs(s)...) {
		for k, v := range env {
			if IsSecretName(k) && len(v) >= 4 {
				out = append(out, v)
			}
		}
	}
	return out
}

func armEnvs(s *scenarios.Scenario) []map[string]string {
	var out []map[string]string
	for _, a := range s.Arms {
		out = append(out, a.Env)
	}
	return out
}

// redactValues masks every occurrence of a secret value in args.
func redactValues(args []string, secrets []string) []string {
	for i, a := range args {
		for _, sv := range secrets {
			a = strings.ReplaceAll(a, sv, Redacted)
		}
		args[i] = a
	}
	return args
}

// redactVars masks the values of secret-looking variables.
func redactVars(vars []scenarios.KV) []scenarios.KV {
	out := make([]scenarios.KV, len(vars))
	for i, kv := range vars {
		if IsSecretName(kv.Key) {
			kv.Value = Redacted
		}
		out[i] = kv
	}
	return out
}
