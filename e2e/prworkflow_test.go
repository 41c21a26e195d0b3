package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// prScenario is a base/head scenario as the pull-request workflow runs it:
// pr-builds.sh sets BASE_BIN, HEAD_BIN, BASE_SRC and HEAD_SRC.
const prScenario = `feature: pr-e2e
title: pull request head build against its base build
engine:
  preset: llama.cpp
  command: ["${BASE_BIN}", "--port", "${PORT}"]
  source: "${BASE_SRC}"
  ready: {timeout: 30s}
  request: {prompt: "hi", max_tokens: 24, temperature: 0, seed: 0, ignore_eos: true}
arms:
  - name: base
  - name: head
    engine: {command: ["${HEAD_BIN}", "--port", "${PORT}"], source: "${HEAD_SRC}"}
baseline: base
schedule: {rounds: 5, warmup: 1, order: rotate, seed: 1, cooldown: 0s}
counters:
  - name: build
    json: timings.build
    expect: {base: "== 1", head: "> 1"}
gates: {max_spread: 0, max_contended: 0}
unmeasured:
  - Anything but the test engine's paced tokens.
`

// TestPRWorkflowScripts runs the pull-request workflow's shell steps as
// the workflow does, against a real repository and the real decodebench:
// pr-builds.sh builds the test engine at base and head in their own
// worktrees, pr-bench.sh runs the base/head campaign, whose headline
// (head slower) reaches the job summary and the step's outputs, and whose
// record passes check.
func TestPRWorkflowScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test engine twice and runs a campaign")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "engine")
	shas := bisectRepo(t, repo)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=", "BUILD="+bisectBuild, "BIN=engine")
	script := func(name string) string { p, _ := filepath.Abs(filepath.Join("..", "scripts", "ci", name)); return p }

	builds := exec.Command("bash", script("pr-builds.sh"), repo, shas[0], shas[len(shas)-1], filepath.Join(dir, "builds"))
	builds.Env = env
	vars, err := builds.Output()
	if err != nil {
		t.Fatalf("pr-builds.sh: %v\n%s", err, stderrOf(err))
	}
	sc := bufio.NewScanner(strings.NewReader(string(vars)))
	for sc.Scan() {
		env = append(env, sc.Text())
	}
	scen := filepath.Join(dir, "pr.yaml")
	if err := os.WriteFile(scen, []byte(prScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	summary, output := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
	out := filepath.Join(dir, "results")
	bench := exec.Command("bash", script("pr-bench.sh"), out, scen, "--hw", "test", "--wait-lock", "10m")
	bench.Env = append(env, "DECODEBENCH="+binary, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output)
	if b, err := bench.CombinedOutput(); err != nil {
		t.Fatalf("pr-bench.sh: %v\n%s", err, b)
	}
	o, _ := os.ReadFile(output)
	s, _ := os.ReadFile(summary)
	t.Logf("job summary:\n%s", s)
	if !strings.HasPrefix(string(o), "exit_code=0\nheadline<<") || !strings.Contains(string(s), "slower") || !strings.Contains(string(o), string(s)) {
		t.Errorf("outputs:\n%s\nsummary:\n%s\nwant exit 0 and the head found slower in both", o, s)
	}
	recs, _ := filepath.Glob(filepath.Join(out, "pr-e2e-test-*.md"))
	if len(recs) != 1 {
		t.Fatalf("records %v, want one", recs)
	}
	if b, err := exec.Command(binary, "check", recs[0]).CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, b)
	}
	// The summary counts the campaign's runs (from the record's page alone
	// it said "0 measured, 0 failed").
	if want := "| Runs | 10 measured, 0 failed, of 10 planned |"; !strings.Contains(string(s), want) {
		t.Errorf("the job summary lacks %q:\n%s", want, s)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
