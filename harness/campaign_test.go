package harness

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// The record is named by --hardware, else the scenario's hardware (auto
// meaning the machine's), else the machine's slug; and by --date, else
// today.
func TestRecordName(t *testing.T) {
	id := schema.MachineInfo{Slug: "epyc"}
	today := time.Now().Format("2006-01-02")
	for _, tc := range []struct {
		opt              Options
		scenarioHW       string
		wantHW, wantDate string
	}{
		{Options{Hardware: "x", Date: "2026-01-02"}, "h200", "x", "2026-01-02"},
		{Options{}, "h200", "h200", today},
		{Options{}, "auto", "epyc", today},
		{Options{}, "", "epyc", today},
	} {
		hw, date := recordName(tc.opt, &scenarios.Scenario{Hardware: tc.scenarioHW}, id)
		if date != tc.wantDate && tc.wantDate == today {
			tc.wantDate = time.Now().Format("2006-01-02") // midnight passed
		}
		if hw != tc.wantHW || date != tc.wantDate {
			t.Errorf("%+v, hardware %q: %s %s, want %s %s", tc.opt, tc.scenarioHW, hw, date, tc.wantHW, tc.wantDate)
		}
	}
}

// The state a campaign starts with names its scenario by absolute path
// (an embedded one by its name), and its engines by hash.
func TestStartState(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	c := testCampaign(t, buildsScenario(base, head, ""))
	c.engines = identifyEngines(context.Background(), c.scenario)
	c.rec = c.newRecord("x", "2026-01-01", machineIdentity(), time.Unix(7, 0))
	c.engines.record(c.rec, c.scenario.Baseline)
	st := c.startState()
	abs, _ := filepath.Abs("t.yaml")
	if st.ScenarioPath != abs || st.ScenarioHash != c.scenario.Hash() || !st.Started.Equal(time.Unix(7, 0)) {
		t.Errorf("state %+v, want the scenario at %s", st, abs)
	}
	if st.EngineSHA256 == "" || st.EngineSHA256 != c.rec.Engine.SHA256 || len(st.ArmEngines) != 2 || st.ArmEngines["base"] == st.ArmEngines["head"] {
		t.Errorf("engines in the state: %s %v", st.EngineSHA256, st.ArmEngines)
	}
	c.scenario.Path = "embedded:demo"
	if st := c.startState(); st.ScenarioPath != "embedded:demo" {
		t.Errorf("embedded scenario named %q", st.ScenarioPath)
	}
}
