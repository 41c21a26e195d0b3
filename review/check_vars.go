package review

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// runState is what check reads of the campaign state (harness's
// stateFile) to hold the data block's machine-given text to it: where the
// scenario was read from, the folder the campaign ran in and the values
// the environment gave its variables.
type runState struct {
	ScenarioPath string `json:"scenario_path"`
	WorkDir      string `json:"work_dir"`
	// Vars is nil in a state from before it listed them.
	Vars *[]stateVarJSON `json:"vars"`
}

type stateVarJSON struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Withheld bool   `json:"withheld"`
}

// checkMachineText compares what the data block states that the machine,
// not the stored scenario alone, decided (the variables' values, each
// arm's environment, the scenario's path) with the stored scenario and
// the campaign state. The frame check leaves these out, and the record
// shows them: without this a record re-rendered with an arm's environment
// set to LD_LIBRARY_PATH=/opt/fast, or a variable's value naming another
// build, passed check.
//
//   - The variables are the ones the stored scenario uses; one the
//     environment gave says so (schema.VarFromEnvironment) and is one the
//     state lists, the others hold the scenario's own value (a mask where
//     the record's redactor masked a secret).
//   - Each arm's environment has the names the stored scenario gives it
//     and, where the campaign state is there, the values the stored
//     scenario resolves to under the state's variables (a secret the state
//     withheld, or the record masked, stands for any text).
//   - The scenario's path is the one the state names (a relative path from
//     the state's folder).
//
// A record without a campaign state (gather leaves the runner's behind),
// or whose state predates its list of variables, is held to the stored
// scenario alone: the variables and the environment's names.
func checkMachineText(dataDir string, src []byte, s *scenarios.Scenario, rec *schema.Record, d *safefs.Dir) []Problem {
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{"Method", termsafe.String(fmt.Sprintf(format, args...))})
	}
	var st *runState
	if b, err := d.ReadFile(campaignStateFile, maxCampaignState); err == nil {
		var rs runState
		if json.Unmarshal(b, &rs) == nil {
			st = &rs
		}
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
			add("variable %s: the environment gave it, and the data block states its value %q", v.Name, v.Value)
		case v.FromEnv && known && !fromState[v.Name]:
			add("variable %s: the data block says the environment gave it, %s does not list it", v.Name, campaignStateFile)
		case !v.FromEnv && known && fromState[v.Name]:
			add("variable %s: %s says the environment gave it, the data block states the scenario's value", v.Name, campaignStateFile)
		case !v.FromEnv && (!declared || !maskedFrom(v.Value, own)):
			add("variable %s: the data block states the value %q, not the stored scenario's own", v.Name, v.Value)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		add("the data block lists the variables %v, the stored scenario uses %v", got, want)
	}
	if st != nil {
		out = append(out, checkScenarioPath(rec, st)...)
	}
	// The environment's names, and under the state's variables its values.
	resolved := s
	if known {
		set := slices.Clone(rec.Scenario.Overrides)
		for _, v := range vars {
			val := v.Value
			if v.Withheld || redact.IsSecretName(v.Name) {
				val = redact.Mask
			}
			set = append(set, "vars."+v.Name+"="+val)
		}
		if r, err := storedScenario(dataDir, src, rec.Scenario.Request.Prompt, set); err == nil {
			resolved = r
		} else {
			known = false
		}
	}
	for _, a := range rec.Scenario.Arms {
		if _, ok := s.Arm(a.Name); !ok {
			continue // the frame check names an arm the scenario does not have
		}
		wantEnv := resolved.Launch(a.Name).Env
		if k1, k2 := slices.Sorted(maps.Keys(a.Env)), slices.Sorted(maps.Keys(wantEnv)); !slices.Equal(k1, k2) {
			add("arm %s: the data block states the environment names %v, the stored scenario gives %v", a.Name, k1, k2)
			continue
		}
		if !known {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(a.Env)) {
			if g, w := a.Env[k], wantEnv[k]; !maskedFrom(g, w) && !matchMasked(g, w) {
				add("arm %s: the data block states %s=%q, the stored scenario resolves it to %q under %s's variables", a.Name, k, g, w, campaignStateFile)
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

// maskedFrom reports whether got is want, or want with parts masked (each
// redact.Mask in got standing for any text of want): what the record's
// redactor makes of a value.
func maskedFrom(got, want string) bool {
	return got == want || strings.Contains(got, redact.Mask) && matchMasked(want, got)
}
