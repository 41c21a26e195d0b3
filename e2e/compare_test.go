package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// decodebench compare runs two llama-server command lines without a
// scenario file (issue 34 item 14): -t 2 against -t 1 on the real engine,
// each run proving its thread count from the start-up log, the record in
// --out with its verdict and both arms, and the scenario it ran stored in
// the data folder, its path printed to run it again (into the same
// folder: a quick look's rerun is a quick look too).
func TestCompareTwoSettings(t *testing.T) {
	needEngine(t)
	p := &proc{dir: t.TempDir(), tag: tag(t), lines: make(chan string, 1000), done: make(chan struct{})}
	p.out = filepath.Join(p.dir, "records")
	side := func(threads string) []string {
		return []string{llamaServer, "-m", filepath.Join(modelDir, "target.gguf"), "-np", "1", "-c", "512", "--alias", p.tag, "-t", threads}
	}
	args := []string{"compare", "--out", p.out, "--date", "2026-01-02", "--rounds", "3",
		"--set", "engine.request.max_tokens=16", "--set", "schedule.cooldown=0s", "--set", "gates.quiet.max_wait=2s",
		"--set", "gates.quiet.window=500ms", "--set", "gates.quiet.interval=500ms", "--"} // half a second of quiet a run, not the starter's five
	args = append(append(append(args, side("2")...), "--"), side("1")...)
	res := p.launch(t, "", args...).wait(t)
	rec := res.record
	if rec == nil {
		t.Fatalf("no record in %s (exit %d)", p.out, res.code)
	}
	if !strings.Contains(res.md, "**Verdict: "+string(rec.Verdict)+"**") || !strings.HasPrefix(res.stdout, string(rec.Verdict)+": "+res.path) {
		t.Errorf("no verdict line for %s", rec.Verdict)
	}
	if rec.Verdict == schema.Rejected || rec.Verdict == schema.Failed || rec.Verdict == schema.Unverified {
		t.Errorf("verdict %s: the thread counter should prove both arms", rec.Verdict)
	}
	var arms []string
	for _, a := range rec.Scenario.Arms {
		arms = append(arms, a.Name)
	}
	if got := strings.Join(arms, " "); got != "base head" || rec.Scenario.Baseline != "base" {
		t.Errorf("arms %q, baseline %q", got, rec.Scenario.Baseline)
	}
	for _, r := range rec.Runs {
		want := map[string]float64{"base": 2, "head": 1}[r.Arm]
		if c := r.Counters["threads"]; !r.OK() || c.Value != want {
			t.Errorf("run %d (%s): %s, threads %+v, want %v", r.Seq, r.Arm, r.Error, c, want)
		}
	}
	scenario := filepath.Join(p.out, rec.DataDir, recorder.ScenarioFile)
	src, err := os.ReadFile(scenario)
	if err != nil || !strings.Contains(string(src), "preset: llama.cpp") || !strings.Contains(string(src), "name: threads") {
		t.Fatalf("the scenario beside the record: %v\n%s", err, src)
	}
	// Run again, it goes where it went, not into the records folder.
	if !strings.Contains(res.stdout, "scenario: "+scenario+"\n") || !strings.Contains(res.stdout, "decodebench run "+scenario+" --out "+p.out+" ") {
		t.Errorf("compare does not say where its scenario is and how to run it again:\n%s", res.stdout)
	}
}
