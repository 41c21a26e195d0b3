package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"

	"github.com/decodebench/decodebench/schema"
)

// checkEngines checks a record whose arms ran several engines: it is v4
// or v5, every arm is listed under exactly one engine, the engines differ,
// and Engine is the baseline's. A v3 or v2 record has no Engines, a v4
// record has them.
func checkEngines(rec *schema.Record) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Engine", fmt.Sprintf(format, args...)})
	}
	switch {
	case len(rec.Engines) == 0 && rec.Schema == schema.SchemaV4:
		add("a %s record lists the engines its arms ran, this one none", rec.Schema)
		return probs
	case len(rec.Engines) == 0:
		return nil
	case rec.Schema != schema.SchemaV4 && rec.Schema != schema.SchemaV5:
		add("a %s record cannot list engines per arm (that is %s or %s)", rec.Schema, schema.SchemaV4, schema.SchemaV5)
	case len(rec.Engines) < 2:
		add("one engine listed per arm: a record whose arms ran one engine names it once")
	}
	seen := map[string]int{}
	for _, e := range rec.Engines {
		for _, a := range e.Arms {
			seen[a]++
		}
	}
	for _, a := range rec.Scenario.Arms {
		if seen[a.Name] != 1 {
			add("arm %s is listed under %d engines, want 1", a.Name, seen[a.Name])
		}
		delete(seen, a.Name)
	}
	for a := range seen {
		add("engine listed for %s, which is not an arm", a)
	}
	// The harness states the baseline's engine whole as the record's
	// (history reads its models and libraries): a field edited there alone
	// (a model's sha256) is another engine than the one listed.
	if b := rec.EngineOf(rec.Scenario.Baseline); !encodesAlike(b, rec.Engine) {
		add("the record's engine is not the baseline %s's as the engines list it", rec.Scenario.Baseline)
	}
	return probs
}

// ranAs reports whether arm's engine was identified as id when the
// campaign started or at one of its resumes.
func ranAs(id schema.EngineIdentity, arm string, start map[string]schema.EngineIdentity, resumed []map[string]schema.EngineIdentity) bool {
	if start[arm] == id {
		return true
	}
	for _, r := range resumed {
		if r[arm] == id {
			return true
		}
	}
	return false
}

// identityText is an engine identity in a problem's words.
func identityText(id schema.EngineIdentity) string {
	b, _ := json.Marshal(id)
	return string(b)
}

// encodesAlike reports whether two values encode to the same JSON.
func encodesAlike(a, b any) bool {
	if sameJSON(a, b) {
		return true
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// campaignStateFile is the campaign's resume state in its data folder
// (harness's stateFile), and maxCampaignState bounds what is read of it
// (harness's maxStateBytes).
const (
	campaignStateFile = "campaign.json"
	maxCampaignState  = 1 << 20
)

// checkArmEngines checks the engines a record states against its stored
// scenario and its campaign state. Where the stored scenario gives arms
// engines of their own (scenarios.Scenario.Engines: more than one), the
// harness lists each with its arms (Engines), grouped as the scenario
// groups them; this is required unless an engine's command or loader
// environment names a variable of the machine that ran it, which offline
// stays unresolved, so the grouping there is the machine's. And each
// arm's engine, as the record states it (schema.Record.EngineOf), hashes
// to what the campaign state (campaign.json, written when the campaign
// started; a resume refuses an engine that hashes otherwise) kept for
// that arm (arm_engines; absent in states from before, then not
// compared).
func checkArmEngines(s *scenarios.Scenario, rec *schema.Record, d *safefs.Dir, st *runState) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Engine", fmt.Sprintf(format, args...)})
	}
	uses := s.Engines()
	resolved := !slices.ContainsFunc(uses, func(u scenarios.EngineUse) bool { return strings.Contains(u.Launch.EngineKey(), "${") }) &&
		!machineVarUsed(rec, d)
	if len(uses) > 1 && resolved {
		var want, got [][]string
		for _, u := range uses {
			want = append(want, u.Arms)
		}
		for _, e := range rec.Engines {
			got = append(got, e.Arms)
		}
		if !slices.EqualFunc(want, got, slices.Equal[[]string]) {
			add("the stored scenario runs %d engines (arms %v), the record lists %d (arms %v)", len(uses), want, len(got), got)
		}
	}
	if st == nil {
		return probs // no state: readRunState says whether that is a problem
	}
	for _, a := range rec.Scenario.Arms {
		if h, ok := st.ArmEngines[a.Name]; ok && h != rec.EngineOf(a.Name).HashKey() {
			add("arm %s ran an engine of sha256 %.12s by %s, the record states %.12s", a.Name, h, campaignStateFile, rec.EngineOf(a.Name).HashKey())
		}
		if id, ok := st.ArmIdentity[a.Name]; ok && !ranAs(rec.EngineOf(a.Name).Identity(), a.Name, st.ArmIdentity, st.ResumedIdentity) {
			add("arm %s ran the engine %s by %s, the record states %s", a.Name, identityText(id), campaignStateFile, identityText(rec.EngineOf(a.Name).Identity()))
		}
		if m, ok := st.ArmModels[a.Name]; ok && m != rec.EngineOf(a.Name).ModelKey() {
			add("arm %s ran the models %q by %s, the record states %q", a.Name, m, campaignStateFile, rec.EngineOf(a.Name).ModelKey())
		}
	}
	return probs
}

// machineVarUsed reports whether the stored scenario names a variable the
// environment gave the campaign (its value not recorded): offline the
// scenario's own default stands in for it, so an engine command built of
// it may have been another on the day (two arms' engines one).
func machineVarUsed(rec *schema.Record, d *safefs.Dir) bool {
	var names []string
	for _, v := range rec.Scenario.Vars {
		if v.FromEnv {
			names = append(names, v.Name)
		}
	}
	if len(names) == 0 {
		return false
	}
	src, err := d.ReadFile(recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		return true
	}
	return slices.ContainsFunc(names, func(n string) bool { return bytes.Contains(src, []byte("${"+n+"}")) })
}
