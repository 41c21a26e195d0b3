package scenarios

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// MaxPromptBytes bounds a prompt file.
const MaxPromptBytes = 1 << 20

// readPromptFile reads a prompt file that must be a regular file of at most
// MaxPromptBytes. Special files are refused before they are opened: a FIFO
// would block the loader, a device never ends, and /proc/self/environ
// would put the environment (and its secrets) into the record. Files under
// /proc and /sys claim to be regular but report a size of 0 and then yield
// bytes; reading more than the file's size refuses them too.
func readPromptFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s): prompt files are plain text files", path, fi.Mode().Type())
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		for _, dir := range []string{"/proc/", "/sys/", "/dev/"} {
			if strings.HasPrefix(real, dir) {
				return nil, fmt.Errorf("%s is a special file under %s: prompt files are plain text files", path, dir)
			}
		}
	}
	if fi.Size() > MaxPromptBytes {
		return nil, fmt.Errorf("%s is %d bytes; the limit for a prompt file is %d (1 MiB)", path, fi.Size(), MaxPromptBytes)
	}
	// Opened without blocking: a FIFO swapped in since the Stat fails
	// here instead of hanging.
	f, err := safefs.OpenNamed(path, MaxPromptBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been swapped since the Stat: check what was opened.
	if fi2, err := f.Stat(); err != nil || !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		return nil, fmt.Errorf("%s changed while it was opened", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxPromptBytes+1))
	switch {
	case err != nil:
		return nil, err
	case len(b) > MaxPromptBytes:
		return nil, fmt.Errorf("%s is more than %d bytes, the limit for a prompt file (1 MiB)", path, MaxPromptBytes)
	case int64(len(b)) > fi.Size():
		return nil, fmt.Errorf("%s yields more bytes than its size says: a special file, not a plain text file", path)
	}
	return b, nil
}

// NotExecutable reports whether bin is a path (not a name to find on PATH)
// to a file that exists but that this user may not execute: its fix is
// chmod, not setting the variable it comes from.
func NotExecutable(bin string) bool {
	if !strings.ContainsRune(bin, os.PathSeparator) {
		return false
	}
	_, err := exec.LookPath(bin)
	return errors.Is(err, fs.ErrPermission)
}

// warnLocal warns about what will make run fail on this machine: an engine
// binary that does not resolve, and a model or other file named in the
// engine command that does not exist from the current folder (run starts
// the engine there). Offline parsing skips it.
func (s *Scenario) warnLocal(p *problems) {
	if len(s.Engine.Command) == 0 {
		return
	}
	resolves := func(key, bin string) {
		if bin == "" || varRef.MatchString(bin) {
			return
		}
		if NotExecutable(bin) {
			p.warn(key, "engine binary %q exists but is not executable: chmod +x %s", bin, bin)
			return
		}
		if _, err := exec.LookPath(bin); err != nil {
			where := "on PATH"
			if strings.ContainsRune(bin, os.PathSeparator) {
				where = "from the current folder"
			}
			raw, _ := s.rawCommand0(key)
			p.warn(key, "engine binary %q does not resolve %s: %s", bin, where, s.origin.binaryHint(key, raw, bin))
		}
	}
	resolves("engine.command[0]", s.Engine.Command[0])
	for i, arm := range s.Arms {
		if arm.Engine != nil && len(arm.Engine.Command) > 0 {
			resolves(fmt.Sprintf("arms[%d].engine.command[0]", i), arm.Engine.Command[0])
		}
	}
	paths := func(key string, args []string) {
		for i, a := range args {
			val := a
			if f, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(f, "-") {
				val = v
			} else if i == 0 || !fileFlag(args[i-1]) {
				if !modelFile(a) {
					continue
				}
			}
			if val == "" || varRef.MatchString(val) || strings.HasPrefix(val, "-") || isURL(val) || (!modelFile(val) && !strings.ContainsRune(val, '/')) {
				continue
			}
			if _, err := os.Stat(val); err != nil && !hubModelID(val) {
				cwd, _ := os.Getwd()
				fix := "give an absolute path" + s.origin.orSetBuiltFrom()
				if filepath.IsAbs(val) {
					fix = "check the path" + s.origin.orSetBuiltFrom()
				}
				if strings.Contains(val, ".cache/models") {
					fix += "; `make demo` puts the demo models in .cache/models of the clone: run from there or " + s.origin.setModelDir()
				}
				p.warn(fmt.Sprintf("%s[%d]", key, i), "%q does not exist from the current folder (%s), where run starts the engine: %s", val, cwd, fix)
			}
		}
	}
	paths("engine.command", s.Engine.Command)
	for i, arm := range s.Arms {
		paths(fmt.Sprintf("arms[%d].args", i), arm.Args)
		if arm.Engine != nil {
			paths(fmt.Sprintf("arms[%d].engine.command", i), arm.Engine.Command)
		}
	}
}

// isURL reports whether a value is a URL (scheme://…, as for --hf-repo or
// --model-url): it names no local file, so it is not checked as a path.
func isURL(v string) bool {
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok || scheme == "" || rest == "" {
		return false
	}
	for i, r := range scheme {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// fileFlag reports whether an engine flag takes a file path: -m, --model,
// --spec-draft-model, --lora, --mmproj, --grammar-file, -f…
func fileFlag(flag string) bool {
	if !strings.HasPrefix(flag, "-") {
		return false
	}
	name := strings.ToLower(strings.TrimLeft(flag, "-"))
	switch name {
	case "m", "md", "f", "mm":
		return true
	}
	for _, w := range []string{"model", "file", "lora", "mmproj", "path", "dir", "vocab"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// hubIDRE matches a model hub id such as mlx-community/Qwen2.5-7B-Instruct-4bit.
var hubIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)

// hubModelID reports whether a missing argument is a model hub id that
// the engine fetches itself (org/name, no file extension of a model),
// not a path: unless its first part is a folder here, which makes it a
// path that is missing.
func hubModelID(a string) bool {
	if !hubIDRE.MatchString(a) || modelFile(a) {
		return false
	}
	org, _, _ := strings.Cut(a, "/")
	if fi, err := os.Stat(org); err == nil && fi.IsDir() {
		return false
	}
	return true
}

// modelFile reports whether an argument looks like a model file by its
// extension.
func modelFile(a string) bool {
	switch strings.ToLower(filepath.Ext(a)) {
	case ".gguf", ".ggml", ".safetensors", ".bin", ".onnx", ".pt", ".pth":
		return true
	}
	return false
}

// warnRounds warns when no outcome of the campaign could be significant
// under the rule new records are written under (schema.RuleCurrent): it
// needs schema.RobustMinRuns finished runs of the baseline and of each arm
// (analysis' too-few-runs gate), so a schedule whose largest number of
// rounds is below that is futile. Its t-test has no floor on p: unlike the
// first rule's U test (2/C(2n, n)), three rounds can find a change, and
// several test arms (Holm) need no more rounds. A sequential look before
// that minimum can never decide, and is spent for nothing (alpha over
// the looks): a warning.
func (s *Scenario) warnRounds(p *problems) {
	r := s.Schedule.Rounds
	n := max(r.Min, r.Max)
	if n < 1 || n > MaxRounds {
		return // refused elsewhere
	}
	if n < schema.RobustMinRuns {
		p.futile("schedule.rounds", "with %d rounds no arm reaches the %d finished runs that rule %s needs to compare it with the baseline "+
			"(with two, a stalled run cannot be told from a change): "+
			"every outcome would be INCONCLUSIVE; use at least %d rounds",
			n, schema.RobustMinRuns, schema.RuleCurrent, schema.RobustMinRuns)
		return
	}
	var early []int
	for _, l := range r.Looks() {
		if l < schema.RobustMinRuns {
			early = append(early, l)
		}
	}
	if len(early) > 0 {
		p.warn("schedule.rounds", "the sequential look(s) after %v round(s) come before the %d finished runs per arm that rule %s needs, "+
			"so they can never decide, yet each spends its share of alpha; "+
			"start the looks at %d rounds or more",
			early, schema.RobustMinRuns, schema.RuleCurrent, schema.RobustMinRuns)
	}
	s.warnBudgetGrid(p)
}

// warnBudgetGrid warns of a budgeted schedule whose max is off its looks'
// grid (min + a multiple of every): a budget's look goes on only when
// every more rounds fit, so the look at max, fewer rounds after the one
// before it, is never taken. A max the budget gives by default is on the
// grid (Rounds.budgetMax).
func (s *Scenario) warnBudgetGrid(p *problems) {
	r := s.Schedule.Rounds
	looks := r.Looks()
	if r.MaxTime.Duration <= 0 || len(looks) < 2 {
		return
	}
	last, before := looks[len(looks)-1], looks[len(looks)-2]
	if last-before >= r.Every {
		return
	}
	give := fmt.Sprintf("max: %d or %d", before, before+r.Every)
	if before+r.Every > MaxRounds {
		give = fmt.Sprintf("max: %d", before)
	}
	p.warn("schedule.rounds.max", "under a budget a look goes on only when every (%d) more rounds fit, so the look at max (%d), %d round(s) after the one at %d, is never taken: "+
		"give %s (min + a multiple of every)", r.Every, last, last-before, before, give)
}

// validateForCurrentRule refuses what the rule new records are written
// under (schema.RuleCurrent) cannot honour: a confidence other than
// 1 − alpha (the rule judges a test and its interval at one level, so the
// two never disagree), pairing switched off (the rule always compares an
// arm with its reference round by round), and pooled controls (the rule
// compares a test arm with the baseline alone).
func (s *Scenario) validateForCurrentRule(p *problems) {
	if _, set := s.pos["stats.confidence"]; set && !p.has("stats.confidence") && !p.has("stats.alpha") && math.Abs(float64(s.Stats.Confidence)-(1-float64(s.Stats.Alpha))) > 1e-9 {
		p.refusedByRule("stats.confidence", "rule %s judges each test and its interval at one level, 1 − alpha (%s here): "+
			"remove confidence, or set alpha to %s",
			schema.RuleCurrent, Fraction(1-float64(s.Stats.Alpha)), Fraction(1-float64(s.Stats.Confidence)))
	}
	_, confidenceSet := s.pos["stats.confidence"]
	if _, set := s.pos["stats.alpha"]; set && !confidenceSet && !p.has("stats") && math.Abs(float64(s.Stats.Confidence)-(1-float64(s.Stats.Alpha))) > 1e-9 {
		// The default confidence would stand beside intervals at 1 − alpha
		// in the record. Derived here instead, the default would change
		// the hash and the analysis of every stored scenario that gave
		// alpha alone.
		p.refusedByRule("stats.alpha", "rule %s judges each test and its interval at one level, 1 − alpha: with alpha %s give confidence: %s too (its default is %s)",
			schema.RuleCurrent, s.Stats.Alpha, Fraction(1-float64(s.Stats.Alpha)), Fraction(DefaultConfidence))
	}
	if s.Stats.PoolControl && !p.has("stats.pool_control") {
		p.refusedByRule("stats.pool_control", "rule %s compares each test arm with the baseline alone: "+
			"a negative control pooled into the reference moves it by half of any artefact the control's equivalence test lets through (up to its margin), "+
			"which a review measured as 44%% of A/A campaigns claiming a change: "+
			"remove pool_control (the control still vetoes, and says whether each arm separates from it)",
			schema.RuleCurrent)
	}
	if _, set := s.pos["stats.pairing"]; set && s.Stats.Pairing == schema.PairOff {
		p.refusedByRule("stats.pairing", "rule %s always compares an arm with its reference round by round; pairing: off applies to records of the first rule only: remove it",
			schema.RuleCurrent)
	}
}

// rawCommand0 is an engine binary as the scenario wrote it.
func (s *Scenario) rawCommand0(key string) (string, bool) {
	v, ok := s.rawBins[key]
	return v, ok
}

// demoServer is where `make demo` installs llama-server, in the clone.
const demoServer = ".cache/llama.cpp/bin/llama-server"

// binaryHint is how to make an engine binary resolve, by what the
// scenario wrote (raw, before ${VAR} expansion) at key, as the command
// sets it (Origin): a variable that is the binary is set to its path; one
// that is a folder the rest of the path continues
// (${REFERENCE_DIR}/build/bin/llama-server) is set to that folder, never
// to a binary; a path written out is edited or put on PATH; a generated
// scenario's is given where its flag names it.
func (o Origin) binaryHint(key, raw, bin string) string {
	refs := varRef.FindAllStringSubmatchIndex(raw, -1)
	server := strings.Contains(filepath.Base(bin), "llama-server")
	switch {
	case o.Generated != nil:
		return fmt.Sprintf("name it by a path that exists (%s), or put it on PATH", o.Generated(key))
	case len(refs) == 0:
		hint := fmt.Sprintf("write its path in %s, or put it on PATH", key)
		if o.File != "" {
			hint = "the scenario names it so: put it on PATH"
		}
		if server {
			hint += fmt.Sprintf(" (`make demo` installs it as %s in the clone)", demoServer)
		}
		return hint
	case len(refs) > 1 || refs[0][0] != 0:
		var names []string
		for _, r := range refs {
			names = append(names, raw[r[2]:r[3]])
		}
		if o.VarFlag {
			return fmt.Sprintf("give --var for %s so that %s names the binary, or put it on PATH", strings.Join(names, " and "), raw)
		}
		return fmt.Sprintf("set %s so that %s names the binary, or put it on PATH", strings.Join(names, " and "), raw)
	}
	v, rest := raw[refs[0][2]:refs[0][3]], raw[refs[0][1]:]
	switch {
	case rest == "" && server && strings.HasPrefix(key, "arms["):
		// An arm's own engine is the build compared with the baseline's:
		// the demo's install is the baseline's, and both set to it is an
		// A/A comparison that run refuses.
		return fmt.Sprintf("%s: the build to compare, not the baseline engine's (`make demo` installs one llama-server), or put it on PATH", o.setVar(v, "its path"))
	case rest == "" && server:
		return fmt.Sprintf("%s (`make demo` installs it: %s), or put it on PATH", o.setVar(v, "its path"), o.assign(v, "$PWD/"+demoServer))
	case rest == "":
		return fmt.Sprintf("%s, or put it on PATH", o.setVar(v, "its path"))
	case rest == "/llama-server":
		return fmt.Sprintf("%s (`make demo` installs it: %s)", o.setVar(v, "the folder that holds llama-server"), o.assign(v, "$PWD/"+filepath.Dir(demoServer)))
	}
	hint := fmt.Sprintf("%s (a folder, not the binary)", o.setVar(v, "the folder that holds "+strings.TrimPrefix(rest, "/")))
	if server {
		hint += ": a llama.cpp checkout built there"
	}
	return hint
}
