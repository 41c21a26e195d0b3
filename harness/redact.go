package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Redacted replaces values that must not reach a record.
const Redacted = redact.Mask

// FromEnvironment stands for the value of a variable that came from the
// environment: only the scenario's own variables are listed with values.
const FromEnvironment = schema.VarFromEnvironment

// IsSecretName reports whether a variable or flag name looks like it holds a
// credential.
func IsSecretName(name string) bool { return redact.IsSecretName(name) }

// NewRedactor returns the redactor of a scenario's campaign, the one
// constructor of it: every file the campaign writes, and every file of
// what runs it (a bisect's build logs, state and summary), goes through
// it, so that none masks less than another. It is the scenario's own
// (Scenario.Redactor, the one its hash is taken through) taught the
// secrets of the environment every engine and build inherits
// (inheritedSecrets), which an engine's start-up dump of its settings or
// a build's `export -p` prints, and those of the shell commands run
// beside the campaign (shell: a bisect's build command, Options.Shell).
func NewRedactor(s *scenarios.Scenario, shell ...string) *redact.Redactor {
	r := s.Redactor()
	r.Learn(redact.Source{Shell: shell, Secrets: inheritedSecrets(engine.Inherited())})
	return r
}

// InheritedRedactor masks what decodebench prints before it has a
// scenario (a resume's notes and plan, from a data folder that may be
// anyone's): the credential forms and the secrets of the environment every
// engine inherits (inheritedSecrets), so that no line shows one of this
// shell's secrets, whatever a crafted folder makes it name.
func InheritedRedactor() *redact.Redactor {
	r := redact.New(redact.Source{})
	r.Add(inheritedSecrets(engine.Inherited())...)
	return r
}

// inheritedSecrets are the values of env's secret-named variables
// (HF_TOKEN, DB_PASSWORD) that look like credentials
// (redact.CredentialLike): a plain value (AUTH_MODE=disabled, a socket's
// path in SSH_AUTH_SOCK) would mask the same text wherever a log has it.
func inheritedSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); redact.IsSecretName(k) && redact.CredentialLike(v) {
			out = append(out, v)
		}
	}
	return out
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
	rehashStored(&cp)
	return cp, nil
}

// rehashStored makes a redacted run's output hashes those of the texts it
// stores: where the redactor masked a secret in a generated text (an
// engine may repeat one from its prompt or arguments), the hash names the
// masked text, the one check can verify, and a stream or request whose
// text is left out as the run's (the same hash) still is. A hash whose
// text is not stored stays; nothing changes where nothing was masked.
func rehashStored(run *schema.Run) {
	old := run.OutputSHA256
	if old != "" {
		run.OutputSHA256 = outputSum(run.Output)
	}
	rehash := func(text string, hash *string) {
		switch {
		case text == "" && *hash == old:
			*hash = run.OutputSHA256
		case text != "":
			*hash = outputSum(text)
		}
	}
	for i := range run.Streams {
		rehash(run.Streams[i].Output, &run.Streams[i].OutputSHA256)
	}
	for i := range run.Requests {
		rehash(run.Requests[i].Output, &run.Requests[i].OutputSHA256)
	}
}

func outputSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
