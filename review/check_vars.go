package review

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkMachineText compares what the data block states that the machine,
// not the stored scenario alone, decided (the variables' values, each
// arm's environment, the overrides, the scenario's path) with the stored
// scenario and the campaign state. The frame check leaves these out, and
// the record shows them: without this a record re-rendered with an arm's
// environment set to LD_LIBRARY_PATH=/opt/fast, or a variable's value
// naming another build, passed check.
//
//   - The variables are the ones the stored scenario uses; one the
//     environment gave says so (schema.VarFromEnvironment) and is one the
//     state lists, the others hold the scenario's own value (a
//     secret-named one masked).
//   - Each arm's environment has the names the stored scenario gives it
//     and the values it resolves to under the state's variables, as the
//     recorder's redactor masks them; a variable the state withheld (or,
//     without the state's list, one the environment gave) stands for any
//     text.
//   - The overrides are the state's, and the scenario's path the one it
//     names (a relative path from the state's folder).
//
// A record without a campaign state (gathered before gather copied it:
// one started since stateRequired is a problem), or whose state predates
// its list of variables, is held to the stored scenario alone.
func checkMachineText(dataDir string, src []byte, s *scenarios.Scenario, rec *schema.Record, st *runState) []Problem {
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{"Method", termsafe.String(fmt.Sprintf(format, args...))})
	}
	// vars: the state lists the variables the environment gave (states
	// written before it do not).
	var vars []stateVarJSON
	if st != nil && st.Vars != nil {
		vars = *st.Vars
	}
	known := st != nil && st.Vars != nil
	fromState := map[string]bool{}
	for _, v := range vars {
		fromState[v.Name] = true
	}
	// The variables the stored scenario uses: those its vars gave, and
	// those only the machine's environment could (left as written
	// offline).
	want := s.VarsLeft()
	for _, kv := range s.VarsUsed() {
		want = append(want, kv.Key)
	}
	var got []string
	for _, v := range rec.Scenario.Vars {
		got = append(got, v.Name)
		own, declared := s.Vars[v.Name]
		switch {
		case v.FromEnv && v.Value != schema.VarFromEnvironment:
			add("variable %s: the environment gave it, and the data block states its value %s", v.Name, shownValue(v.Name, v.Value))
		case v.FromEnv && known && !fromState[v.Name]:
			add("variable %s: the data block says the environment gave it, %s does not list it", v.Name, campaignStateFile)
		case !v.FromEnv && known && fromState[v.Name]:
			add("variable %s: %s says the environment gave it, the data block states the scenario's value", v.Name, campaignStateFile)
		case !v.FromEnv && (!declared || v.Value != own && !(redact.IsSecretName(v.Name) && v.Value == redact.Mask)):
			add("variable %s: the data block states the value %s, not the stored scenario's own", v.Name, shownValue(v.Name, v.Value))
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		add("the data block lists the variables %v, the stored scenario uses %v", got, want)
	}
	if st != nil {
		out = append(out, checkScenarioPath(rec, st)...)
		if !sameOverrides(rec.Scenario.Overrides, st.Overrides) {
			add("the data block states the overrides %q, %s %q", shownOverrides(rec.Scenario.Overrides), campaignStateFile, shownOverrides(st.Overrides))
		}
	}
	// The environment's names and values, the stored scenario resolved
	// under the state's variables; a variable whose value the check cannot
	// know (one the state withheld, or without the state's list one the
	// environment gave) stands for any text.
	set := slices.Clone(rec.Scenario.Overrides)
	if known {
		for _, v := range vars {
			val := v.Value
			if v.Withheld || redact.IsSecretName(v.Name) || strings.Contains(val, redact.Mask) {
				val = redact.Mask
			}
			set = append(set, "vars."+v.Name+"="+yamlQuoted(val))
		}
	} else {
		for _, v := range rec.Scenario.Vars {
			if v.FromEnv {
				set = append(set, "vars."+v.Name+"="+yamlQuoted(redact.Mask))
			}
		}
	}
	resolved, err := storedScenario(dataDir, src, rec.Scenario.Request.Prompt, set)
	values := err == nil
	if !values {
		resolved = s
	}
	// What the recorder's redactor makes of them: a secret-named key's
	// value masked, and a value of a credential's form.
	forms := redact.New(redact.Source{})
	for _, a := range rec.Scenario.Arms {
		if _, ok := s.Arm(a.Name); !ok {
			continue // the frame check names an arm the scenario does not have
		}
		rawEnv := resolved.Launch(a.Name).Env
		wantEnv := forms.Env(rawEnv)
		if k1, k2 := slices.Sorted(maps.Keys(a.Env)), slices.Sorted(maps.Keys(wantEnv)); !slices.Equal(k1, k2) {
			add("arm %s: the data block states the environment names %v, the stored scenario gives %v", a.Name, k1, k2)
			continue
		}
		if !values {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(a.Env)) {
			if g, w := a.Env[k], wantEnv[k]; !sameEnvValue(g, w, rawEnv[k], known) {
				add("arm %s: the data block states %s=%q, the stored scenario resolves it to %q", a.Name, k, g, w)
			}
		}
	}
	return out
}

// checkScenarioPath holds the scenario's path to the one the campaign
// state names.
func checkScenarioPath(rec *schema.Record, st *runState) []Problem {
	p := rec.Scenario.Path
	if st.ScenarioPath == "" || p == st.ScenarioPath {
		return nil
	}
	if !strings.HasPrefix(p, "embedded:") && !filepath.IsAbs(p) {
		// A state from before it named its folder: the path's tail.
		if st.WorkDir != "" && filepath.Join(st.WorkDir, p) == st.ScenarioPath ||
			st.WorkDir == "" && strings.HasSuffix(st.ScenarioPath, "/"+filepath.Clean(p)) {
			return nil
		}
	}
	return []Problem{{"Method", termsafe.String(fmt.Sprintf("the data block states the scenario's path %q, %s %q", p, campaignStateFile, st.ScenarioPath))}}
}

// yamlQuoted is v as a single-quoted YAML scalar: an override's value is
// read as YAML, where "a #b" would lose its comment and "null" its text.
func yamlQuoted(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }

// sameEnvValue reports whether an arm's environment value the record
// states (got) is the one the stored scenario resolves to (want, masked as
// the recorder masks; raw before that):
//
//   - a value built of a variable the check cannot know (raw holds its
//     mask: one the state withheld or masked, or without the state's
//     list one the environment gave) matches where that mask stands for
//     any text, or, where the recorder masked the value itself, up to
//     its first mask (a credential's form swallows what follows it);
//   - any other under the state's variables is the recorder's text, but
//     where the recorder masked a secret it learned from the shell (a
//     mask in got standing for text without '@' or ':', so that no host
//     or user of a URL is hidden);
//   - without the state's variables, want's masks stand for any text.
func sameEnvValue(got, want, raw string, underState bool) bool {
	if got == want {
		return true
	}
	if i := strings.Index(raw, redact.Mask); i >= 0 {
		return matchMasked(got, raw) || matchMasked(got, want) ||
			strings.Contains(got, redact.Mask) && strings.HasPrefix(got, raw[:i])
	}
	if !underState {
		return matchMasked(got, want)
	}
	// A value the recorder wrote holds a few masks: one of more is a
	// crafted record's, whose pattern would take seconds to compile.
	if n := strings.Count(got, redact.Mask); n == 0 || n > maxMasks {
		return false
	}
	parts := strings.Split(got, redact.Mask)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	re, err := regexp.Compile("^" + strings.Join(parts, "[^@:]*") + "$")
	return err == nil && re.MatchString(want)
}

// maxMasks is the most masks an environment value may hold where a mask
// stands for a secret the recorder learned.
const maxMasks = 32

// sameOverrides reports whether the record states the overrides the
// campaign started with (where the recorder masked a secret, the mask
// stands for it).
func sameOverrides(rec, st []string) bool {
	if len(rec) != len(st) {
		return false
	}
	for i := range rec {
		if rec[i] != st[i] && !(strings.Contains(rec[i], redact.Mask) && matchMasked(st[i], rec[i])) {
			return false
		}
	}
	return true
}

// shownValue is a variable's value as a problem quotes it: not at all where
// its name says it holds a secret (the problem may reach a CI log).
func shownValue(name, value string) string {
	if redact.IsSecretName(name) || len(redact.Leaks(&value)) > 0 {
		return "(not shown: a secret's)"
	}
	return fmt.Sprintf("%q", value)
}

// shownOverrides are --set overrides as a problem quotes them: a secret
// named or shaped value masked.
func shownOverrides(set []string) []string {
	out := make([]string, len(set))
	for i, o := range set {
		out[i] = o
		if path, val, ok := strings.Cut(o, "="); ok && (redact.IsSecretName(path[strings.LastIndexAny(path, ".]")+1:]) || len(redact.Leaks(&val)) > 0) {
			out[i] = path + "=" + redact.Mask
		}
	}
	return out
}
