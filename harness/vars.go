package harness

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/scenarios"
)

// A resumed campaign must run what the campaign ran: the scenario's
// ${NAME}s resolved to the same values. The environment that gave some of
// them is the shell the campaign started in; a resume is often typed in
// another (`make demo` sets LLAMA_SERVER and MODEL_DIR for its own
// command only), where an unset LLAMA_SERVER fell back to the scenario's
// "llama-server", which did not resolve. So the campaign's state keeps
// the values the environment gave, and a resume runs with them.
//
// They are written into the data folder, beside a record that already
// shows them in its arms' command lines, redacted the same way: a
// variable whose name says it holds a secret is kept by name only, its
// value withheld, and a resume takes it from its own environment, or is
// refused naming it.

// stateVar is one variable the environment gave the campaign.
type stateVar struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	// Withheld: its value is a secret and was not written; the resume's
	// environment must give it.
	Withheld bool `json:"withheld,omitempty"`
}

// environmentVars are the variables the environment gave the scenario,
// never nil (a state that keeps none says so with an empty list).
func environmentVars(s *scenarios.Scenario) []stateVar {
	out := []stateVar{}
	for _, kv := range s.VarsUsed() {
		if !kv.FromEnv {
			continue
		}
		v := stateVar{Name: kv.Key, Value: kv.Value}
		if IsSecretName(kv.Key) {
			v = stateVar{Name: kv.Key, Withheld: true}
		}
		out = append(out, v)
	}
	return out
}

// withheld marks the variables whose value the redactor masked when the
// state was written (such a value is no longer the variable's) and, as
// readState reads it, every secret-named one whatever the file says: the
// state decodebench writes keeps none's value (environmentVars), so a
// value there is a crafted one, which would stand in for this shell's
// secret, or make a note compare this shell's secret with it.
func (st *state) withheld() {
	for i, v := range st.Vars {
		if IsSecretName(v.Name) || strings.Contains(v.Value, Redacted) {
			st.Vars[i] = stateVar{Name: v.Name, Withheld: true}
		}
	}
}

// ResumeState is what a campaign's data folder says a resume needs.
type ResumeState struct {
	// ScenarioPath and Overrides are the scenario the campaign started
	// from and its --rounds and --set overrides.
	ScenarioPath string
	Overrides    []string
	// WorkDir is the folder the campaign ran in; "" for a state written
	// before it was kept.
	WorkDir string
	// LookupEnv resolves the scenario's ${NAME}s as the campaign did
	// (scenarios.Options.LookupEnv): the values its environment gave, a
	// withheld one from this environment, and none for what the
	// campaign took from the scenario's own vars.
	LookupEnv func(string) (string, bool)
	// Notes say where this shell's variables differ from the campaign's,
	// and what the resume does about it, never with this shell's value
	// (the folder may be anyone's, and name the variable to show it).
	Notes []string
	st    state
}

// StateVars are the variables the campaign's environment gave it, as
// NAME=value (a withheld secret as NAME, from this environment), which a
// resume runs with.
func (rs ResumeState) StateVars() []string {
	var out []string
	for _, v := range rs.st.Vars {
		if v.Withheld {
			out = append(out, v.Name+" (a secret, from this environment)")
			continue
		}
		out = append(out, v.Name+"="+v.Value)
	}
	return out
}

// FromThisEnvironment names the variables the resumed scenario s takes
// from this shell rather than from the state: the withheld secrets, and
// every one the environment gives where the state kept none (one written
// before they were kept). A resume's plan names them.
func (rs ResumeState) FromThisEnvironment(s *scenarios.Scenario) []string {
	withheld := map[string]bool{}
	for _, v := range rs.st.Vars {
		withheld[v.Name] = v.Withheld
	}
	var out []string
	for _, kv := range s.VarsUsed() {
		if kv.FromEnv && (rs.st.Vars == nil || withheld[kv.Key]) && !slices.Contains(out, kv.Key) {
			out = append(out, kv.Key)
		}
	}
	return out
}

// Check refuses the scenario of a resume (loaded with LookupEnv) whose
// variables did not resolve as the campaign's did (checkVars): a withheld
// secret this environment does not set is named. bisect, which resolves
// its own variables for each step, does not ask.
func (rs ResumeState) Check(dataDir string, s *scenarios.Scenario) error {
	return rs.st.checkVars(dataDir, s)
}

// ReadResumeState reads a campaign's data folder for `run --resume DIR`.
// A folder holding a link is refused before anything in it is read (as
// Resume refuses it): its stored scenario, which a resume may read, is
// then the folder's own file, never one of this machine's that a link
// leads to.
func ReadResumeState(dataDir string) (ResumeState, error) {
	if err := checkDataDir(dataDir); err != nil {
		return ResumeState{}, fmt.Errorf("resume %s: %w", dataDir, err)
	}
	st, err := readState(dataDir)
	if err != nil {
		return ResumeState{}, err
	}
	rs := ResumeState{ScenarioPath: st.ScenarioPath, Overrides: st.Overrides, WorkDir: st.WorkDir, LookupEnv: os.LookupEnv, st: st}
	if st.Vars == nil {
		return rs, nil
	}
	given := map[string]stateVar{}
	for _, v := range st.Vars {
		given[v.Name] = v
		now, set := os.LookupEnv(v.Name)
		if set && !v.Withheld && now != v.Value {
			rs.Notes = append(rs.Notes, fmt.Sprintf("%s differs in this shell; the campaign ran with %q, and so does the resume", v.Name, v.Value))
		}
	}
	rs.LookupEnv = func(name string) (string, bool) {
		v, ok := given[name]
		switch {
		case !ok:
			return "", false // the campaign took the scenario's own value
		case v.Withheld:
			return os.LookupEnv(name)
		}
		return v.Value, true
	}
	return rs, nil
}

// checkVars refuses a resume whose scenario did not resolve its variables
// as the campaign did: a variable the environment gave then that it does
// not give now (a withheld one named, to be set), another value, or one
// the environment gives now that the scenario gave then.
func (st state) checkVars(dataDir string, s *scenarios.Scenario) error {
	if st.Vars == nil {
		return nil
	}
	used := map[string]scenarios.KV{}
	for _, kv := range s.VarsUsed() {
		used[kv.Key] = kv
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("resume %s: %s; nothing was run", dataDir, fmt.Sprintf(format, args...))
	}
	given := map[string]bool{}
	for _, v := range st.Vars {
		given[v.Name] = true
		u, ok := used[v.Name]
		switch {
		case v.Withheld && !(ok && u.FromEnv):
			return fail("the campaign took %s from its environment, and it is not set here (its name says it holds a secret, so its value was not written down): set %s as it was, and resume again", v.Name, v.Name)
		case v.Withheld:
		case !ok || !u.FromEnv || u.Value != v.Value:
			return fail("the campaign ran with %s=%q from its environment, and this resume resolved it to %q: resume with the campaign's values (decodebench run --resume DIR uses them)", v.Name, v.Value, u.Value)
		}
	}
	for _, u := range s.VarsUsed() {
		if u.FromEnv && !given[u.Key] {
			return fail("the campaign took %s from the scenario's vars, and this resume from its environment (%q): resume with the campaign's values (decodebench run --resume DIR uses them)", u.Key, u.Value)
		}
	}
	return nil
}
