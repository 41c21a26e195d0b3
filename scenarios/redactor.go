package scenarios

import (
	"bytes"
	"slices"

	"github.com/decodebench/decodebench/redact"
)

// Redactor returns the redactor of the scenario's campaign: it knows the
// secrets of every arm's resolved command line, version command and
// environment, of the variables substituted into them, and the scenario's
// own secret-named variables. It is what masks the scenario as a record
// stores it, and so what the scenario's hash is taken through.
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

// asStored is the scenario as a record stores it, and as check reads it
// back: its source with every secret r knows masked (redact.YAML), its
// overrides and its prompt masked as the record's data block has them.
type asStored struct {
	src       []byte
	overrides []string
	prompt    string
}

func (s *Scenario) asStored(r *redact.Redactor) asStored {
	st := asStored{src: r.YAML(s.Source), prompt: r.Text(s.Engine.Request.Prompt)}
	for _, o := range s.Overrides {
		st.overrides = append(st.overrides, r.Text(o))
	}
	return st
}

// same reports whether storing the scenario masks nothing of what its
// meaning reads.
func (st asStored) same(s *Scenario) bool {
	return bytes.Equal(st.src, s.Source) && slices.Equal(st.overrides, s.Overrides) && st.prompt == s.Engine.Request.Prompt
}

// storedMeaning is the meaning of the scenario as a record stores it: the
// stored form read back offline, exactly as check reads it. A secret
// written into the scenario therefore never changes its hash, and the
// record's hash is one that check can derive from what the record holds,
// with no exception for a masked value. It returns the problems of a
// stored form that does not load.
func (s *Scenario) storedMeaning() (string, Errors) {
	st := s.asStored(s.Redactor())
	if st.same(s) {
		return s.meaning, nil
	}
	back, _, err := Parse(s.Path, s.Dir, st.src, Options{Offline: true, PromptText: st.prompt, Set: st.overrides})
	if err != nil {
		if es, ok := err.(Errors); ok {
			return "", es.Fatal()
		}
		return "", Errors{{File: s.Path, Msg: err.Error()}}
	}
	return back.meaning, nil
}
