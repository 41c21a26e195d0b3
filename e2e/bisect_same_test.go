package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// bisectSameScenario is bisectScenario without the build counter: a build
// that does not stamp its commit makes the same binary for a commit that
// changed only the docs, so no counter can tell those builds apart.
const bisectSameScenario = `feature: bisect-same
title: bisect test engine, docs-only commits
engine:
  preset: llama.cpp
  command: ["${REFERENCE_DIR}/engine", "--port", "${PORT}"]
  source: "${REFERENCE_DIR}"
  ready: {timeout: 30s}
  request: {prompt: "hi", max_tokens: 24, temperature: 0, seed: 0, ignore_eos: true}
arms:
  - name: reference
  - name: candidate
    engine: {command: ["${CANDIDATE_DIR}/engine", "--port", "${PORT}"], source: "${CANDIDATE_DIR}"}
baseline: reference
schedule: {rounds: 5, warmup: 1, order: rotate, seed: 1, cooldown: 0s}
allow_unverified: the arms differ by build, and bisect checks each arm's binary and commit
gates: {max_spread: 0, max_contended: 0}
metrics: {primary: decode_tok_s}
unmeasured:
  - Anything but the test engine's paced tokens.
`

// bisectSameBuild builds the engine reproducibly, without the commit: a
// commit that changed only NOTES builds the byte-identical binary.
const bisectSameBuild = `go build -trimpath -buildvcs=false -o engine .`

// TestBisectDocsOnlyCommits (issue 34 item 5): in the bisect test's
// repository, where every commit but the slow one changes only a notes
// file, a reproducible build makes the good commit's binary again at each
// of those before the slow one. Each such step is good without a campaign
// (it was refused as an accidental A/A comparison, stopping the bisect),
// the search still names the slow commit, and the summary passes check.
func TestBisectDocsOnlyCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test engine at every step")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "engine")
	shas := bisectRepo(t, repo)
	scen := filepath.Join(dir, "bisect.yaml")
	if err := os.WriteFile(scen, []byte(bisectSameScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	cmd := exec.Command(binary, "bisect", "--wait-lock", "10m", "--source", repo, "--good", shas[0], "--bad", "HEAD",
		"--build", bisectSameBuild, "--threshold", "10%", "--out", out, "--hw", "test", "--date", "2026-01-02", scen)
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("bisect: %v", err)
	}
	if strings.Contains(string(b), "A/A") {
		t.Error("a docs-only commit was taken for an accidental A/A comparison")
	}
	sumPath := filepath.Join(out, "bisect-bisect-same-test-2026-01-02.md")
	src, err := os.ReadFile(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := recorder.ParseBisect(src)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Outcome.Result != schema.FoundFirstBad || sum.Outcome.FirstBad != shas[slowCommit-1] {
		t.Fatalf("outcome %s %.12s, want found %.12s", sum.Outcome.Result, sum.Outcome.FirstBad, shas[slowCommit-1])
	}
	same, measured := 0, 0
	for _, s := range sum.Steps {
		i := indexOf(shas, s.Commit) + 1 // the commit's number
		switch {
		case s.SameBuild != nil:
			same++
			if i >= slowCommit || s.Class != schema.ClassGood || len(s.Campaigns) != 0 {
				t.Errorf("step %d: commit %d (%s) called the good commit's build, with %d campaign(s)", s.N, i, s.Class, len(s.Campaigns))
			}
		case i < slowCommit:
			t.Errorf("step %d: commit %d changed only the notes, but its build was not found the good commit's: %+v", s.N, i, s)
		default:
			measured++
			if s.Class != schema.ClassBad {
				t.Errorf("step %d: commit %d, after the slow one, is %s", s.N, i, s.Class)
			}
		}
	}
	if same == 0 || measured == 0 {
		t.Errorf("%d step(s) found the same build, %d measured: the test shows nothing", same, measured)
	}
	if b, err := exec.Command(binary, "check", sumPath).CombinedOutput(); err != nil {
		t.Fatalf("check %s: %v\n%s", sumPath, err, b)
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
