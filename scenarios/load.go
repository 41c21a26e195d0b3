package scenarios

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"gopkg.in/yaml.v3"
)

// Options adjusts loading.
type Options struct {
	// LookupEnv resolves ${NAME} from the environment before the scenario's
	// vars; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Offline parses without this machine: the environment is not
	// consulted (LookupEnv is ignored, and a ${NAME} not in the scenario's
	// vars stays "${NAME}" without error), prompt_file is not read (Prompt
	// stays empty), and the checks of PATH and of files are skipped. It is
	// for re-reading a scenario stored beside a record made elsewhere.
	Offline bool
	// PromptText, when set, is the prompt of a scenario that names a
	// prompt_file, instead of the file's content: a record carries the
	// prompt it ran, and its scenario is re-read without the file.
	PromptText string
	// DeferPromptFile leaves the prompt_file unread (Prompt stays empty,
	// unless PromptText is set): nothing outside the scenario is read
	// until ReadPromptFile, which a reproduction calls once the user has
	// seen the file named and agreed.
	DeferPromptFile bool
	// Set lists command-line overrides, key=value each (see override.go);
	// they are applied before the scenario is decoded and are listed in
	// Scenario.Overrides. A record made with overrides is re-read with the
	// same list.
	Set []string
	// Origin says where the scenario comes from for the user: the file
	// problems show, how the command sets variables, or the flags a
	// generated scenario was built from.
	Origin Origin
}

// Load reads a scenario by file path or, when no such file exists, by the
// name of a scenario shipped in this package ("llamacpp-speculative" or
// "llamacpp-speculative.yaml"). It returns Errors holding every problem of
// the file; warnings alone do not fail the load and are returned with the
// scenario.
func Load(nameOrPath string, opt Options) (*Scenario, Errors, error) {
	src, path, dir, err := read(nameOrPath)
	if err != nil {
		return nil, nil, err
	}
	return Parse(path, dir, src, opt)
}

// parse is Parse, its problems shown in the scenario's own file.
func parse(path, dir string, src []byte, opt Options) (*Scenario, Errors, error) {
	switch {
	case opt.Offline:
		opt.LookupEnv = nil
	case opt.LookupEnv == nil:
		opt.LookupEnv = os.LookupEnv
	}
	s := &Scenario{}
	var overridden map[string]string
	pos, p := decode(path, src, s, func(p *problems, root *yaml.Node) {
		expandMatrix(p, root)
		s.Overrides, overridden = applyOverrides(p, root, opt.Set)
	})
	if pos == nil {
		return nil, nil, p.errs // not YAML, or not a mapping
	}
	p.offline = opt.Offline
	s.Path, s.Dir, s.Source, s.pos, s.origin = path, dir, src, pos, opt.Origin
	s.applyDefaults()
	s.expandGlobs(p)
	// The checks below run even when decoding found problems (unknown
	// keys, wrong types), so that every problem is reported in one pass.
	decoded := len(p.errs)
	s.validate(p)
	raw, err := s.unresolvedJSON()
	if err != nil && len(p.errs) == 0 {
		// The hash of a scenario that cannot be stored would be the hash
		// of nothing, shared by every such scenario (parseFraction refuses
		// and validate the non-finite values that could cause it, and
		// their own errors say where).
		p.at("", "cannot be stored in a record: %v", err)
	}
	s.rawBins = map[string]string{}
	if len(s.Engine.Command) > 0 {
		s.rawBins["engine.command[0]"] = s.Engine.Command[0]
	}
	for i, a := range s.Arms {
		if a.Engine != nil && len(a.Engine.Command) > 0 {
			s.rawBins[fmt.Sprintf("arms[%d].engine.command[0]", i)] = a.Engine.Command[0]
		}
	}
	s.resolve(p, NewVars(s.Vars, opt.LookupEnv), opt.Offline, opt.Offline || opt.PromptText != "" || opt.DeferPromptFile)
	if s.Engine.Request.PromptFile != "" && s.Engine.Request.Prompt == "" {
		s.Engine.Request.Prompt = opt.PromptText
		s.promptDeferred = opt.DeferPromptFile && opt.PromptText == "" && !opt.Offline
	}
	s.unresolved = raw
	s.meaning = semanticHash(raw, s)
	if !opt.Offline {
		// On the expanded values; a stored scenario is re-read as it ran.
		s.validateDistinctArms(p)
		s.validateControls(p)
		// A new campaign is analysed by the current rule; a stored
		// scenario keeps the rule of its record.
		s.validateForCurrentRule(p)
		s.validateRetries(p)
	}
	s.validateSlots(p)   // on the expanded values
	s.warnNonLoopback(p) // on the expanded values
	s.warnRounds(p)
	if !opt.Offline && !p.has("engine") && !p.has("arms") {
		s.warnLocal(p)
	}
	// A value of the wrong type was left out of the decoding; what the
	// checks then say about that key is noise beside the real problem.
	p.errs = append(p.errs[:decoded:decoded], p.errs[decoded:].notUnder(p.dropped)...)
	markOverridden(p.errs, overridden)
	p.errs.sort()
	if len(p.errs.Fatal()) > 0 {
		// Every problem once: the error holds the warnings too, and no
		// warnings are returned beside it.
		return nil, nil, p.errs
	}
	if !opt.Offline {
		// An offline source is a stored one already: its meaning is
		// what it reads.
		m, errs := s.storedMeaning()
		if len(errs) > 0 {
			for _, e := range errs {
				p.at(e.Key, "%s, once masked as a secret where a record stores the scenario: %s", e.Msg, storedFormRemedy)
			}
			p.errs.sort()
			return nil, nil, p.errs
		}
		s.meaning = m
	}
	s.Policy = s.compilePolicy()
	return s, p.errs, nil
}

// storedFormRemedy says why a stored form may not load, and what to do.
const storedFormRemedy = "a key or value that reads as a credential (by its name or its form) is masked there; " +
	"give a secret as ${NAME} from the environment, and name nothing else like one"

// resolve expands ${VAR} references and reads the prompt file.
func (s *Scenario) resolve(p *problems, v *Vars, offline, skipPromptFile bool) {
	expand := func(key string, val *string) {
		out, missing := v.Expand(*val)
		if offline {
			for _, m := range missing {
				if !slices.Contains(s.left, m) {
					s.left = append(s.left, m)
				}
			}
			missing = nil // left as written
		}
		for _, m := range missing {
			p.at(key, "${%s} is not defined: %s", m, s.origin.undefinedHint(m))
		}
		*val = out
	}
	for i := range s.Engine.Command {
		expand(fmt.Sprintf("engine.command[%d]", i), &s.Engine.Command[i])
	}
	for i := range s.Engine.VersionCommand {
		expand(fmt.Sprintf("engine.version_command[%d]", i), &s.Engine.VersionCommand[i])
	}
	expandMap(s.Engine.Env, "engine.env", expand)
	expand("engine.source", &s.Engine.Source)
	expand("engine.sha256", &s.Engine.SHA256)
	expand("engine.request.prompt_file", &s.Engine.Request.PromptFile)
	expand("engine.request.model", &s.Engine.Request.Model)
	for i := range s.Arms {
		for j := range s.Arms[i].Args {
			expand(fmt.Sprintf("arms[%d].args[%d]", i, j), &s.Arms[i].Args[j])
		}
		expandMap(s.Arms[i].Env, fmt.Sprintf("arms[%d].env", i), expand)
		if o := s.Arms[i].Engine; o != nil {
			key := fmt.Sprintf("arms[%d].engine", i)
			for j := range o.Command {
				expand(fmt.Sprintf("%s.command[%d]", key, j), &o.Command[j])
			}
			for j := range o.VersionCommand {
				expand(fmt.Sprintf("%s.version_command[%d]", key, j), &o.VersionCommand[j])
			}
			expandMap(o.Env, key+".env", expand)
			expand(key+".source", &o.Source)
			expand(key+".sha256", &o.SHA256)
		}
	}
	s.used = v.Used()
	if s.Engine.Request.PromptFile != "" && s.Engine.Request.Prompt == "" && !skipPromptFile {
		s.readPrompt(p)
	}
}

// PromptPath is the file the prompt is read from: prompt_file, a relative
// one from the scenario's folder; "" when the scenario names none.
func (s *Scenario) PromptPath() string {
	f := s.Engine.Request.PromptFile
	if f != "" && !filepath.IsAbs(f) {
		f = filepath.Join(s.Dir, f)
	}
	return f
}

// readPrompt reads the prompt file into the prompt.
func (s *Scenario) readPrompt(p *problems) {
	f := s.PromptPath()
	b, err := readPromptFile(f)
	switch {
	case err != nil:
		p.at("engine.request.prompt_file", "cannot read prompt file: %v", err)
	case len(b) == 0:
		p.at("engine.request.prompt_file", "prompt file %s is empty", f)
	default:
		s.Engine.Request.Prompt = string(b)
	}
}

// PromptDeferred reports whether the prompt file is still to be read: the
// scenario was parsed with Options.DeferPromptFile, and ReadPromptFile has
// not read it yet.
func (s *Scenario) PromptDeferred() bool { return s.promptDeferred }

// ReadPromptFile reads a deferred prompt file (see Options.DeferPromptFile)
// as Parse would have read it, and gives the scenario the hash it would
// have had. It does nothing when no prompt file is deferred.
func (s *Scenario) ReadPromptFile() error {
	if !s.promptDeferred {
		return nil
	}
	p := &problems{file: s.Path, pos: s.pos}
	if s.readPrompt(p); len(p.errs) > 0 {
		s.origin.show(p.errs)
		return p.errs
	}
	s.promptDeferred = false
	s.meaning = semanticHash(s.unresolved, s)
	m, errs := s.storedMeaning()
	if len(errs) > 0 {
		return errs
	}
	s.meaning = m
	return nil
}

func expandMap(m map[string]string, key string, expand func(string, *string)) {
	for k, val := range m {
		expand(key+"."+k, &val)
		m[k] = val
	}
}

// VarsUsed returns the variables substituted while loading, with their
// values.
func (s *Scenario) VarsUsed() []KV { return s.used }

// VarsLeft are the variables a scenario loaded offline names but neither
// its vars nor anything else gave (left as written): on the machine that
// ran it the environment gave them.
func (s *Scenario) VarsLeft() []string { return slices.Sorted(slices.Values(s.left)) }

// Hash is the sha256 of the scenario's meaning: the scenario as decoded,
// with its defaults applied but before ${VAR} references are resolved, as
// JSON. Reformatting or comments do not change it, nor does anything that
// comes from the machine it runs on (environment overrides of variables,
// the file's location, the prompt file's path): the same shipped scenario
// hashes the same on every machine. Any value written in the scenario,
// the defaults of its vars included, does change it, but a secret: the
// meaning is the scenario's as a record stores it, every secret its
// Redactor knows masked (storedMeaning), so that check derives the
// record's hash from the stored scenario with no exception. The values
// the variables resolved to are recorded beside it (VarsUsed).
func (s *Scenario) Hash() string { return s.meaning }

// unresolvedJSON is the scenario as decoded, before ${VAR} expansion, less
// the prompt file's path (its content counts instead, see semanticHash).
func (s *Scenario) unresolvedJSON() ([]byte, error) {
	cp := *s
	cp.Engine.Request.PromptFile = ""
	return json.Marshal(&cp)
}

// semanticHash hashes the unresolved scenario and, when the prompt came
// from a file, the prompt's text.
func semanticHash(unresolved []byte, s *Scenario) string {
	h := sha256.New()
	h.Write(unresolved)
	if s.Engine.Request.PromptFile != "" {
		h.Write([]byte("\x00prompt_file content\x00"))
		h.Write([]byte(s.Engine.Request.Prompt))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// read finds the scenario: a file first, then a shipped scenario by name.
// ReadSource reads a scenario's source as Load does (a shipped name, or
// a regular file of at most MaxScenarioBytes), for a caller that parses
// the same bytes more than once (Parse): a file read twice may have
// changed in between.
func ReadSource(nameOrPath string) (src []byte, path, dir string, err error) {
	return read(nameOrPath)
}

func read(nameOrPath string) (src []byte, path, dir string, err error) {
	// A record or a campaign state names a shipped scenario this way.
	if name, ok := strings.CutPrefix(nameOrPath, "embedded:"); ok {
		if b, err := shipped.ReadFile(name); err == nil {
			return b, nameOrPath, ".", nil
		}
	}
	// A scenario the user names may be a link, but must lead to a regular
	// file of at most MaxScenarioBytes: a FIFO or /dev/zero fails at once.
	b, err := safefs.ReadNamed(nameOrPath, MaxScenarioBytes)
	if err == nil {
		return b, nameOrPath, filepath.Dir(nameOrPath), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", "", fmt.Errorf("read scenario: %w", err)
	}
	name := strings.TrimSuffix(filepath.Base(nameOrPath), ".yaml") + ".yaml"
	if !strings.ContainsRune(nameOrPath, os.PathSeparator) {
		if b, err := shipped.ReadFile(name); err == nil {
			return b, "embedded:" + name, ".", nil
		}
	}
	return nil, "", "", fmt.Errorf("scenario %s: no such file, and no shipped scenario of that name (shipped: %s)", nameOrPath, strings.Join(Shipped(), ", "))
}
