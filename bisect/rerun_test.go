package bisect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
)

// A step run again at more rounds is held to the scenario the bisect
// started with, as a step at the base rounds is: its hash with the
// rounds overridden is another, so it was not compared, and a scenario
// file rewritten after the consent ran its commands (a review's probe:
// an engine command writing a marker file ran on the re-run). The file is
// read once for both its loads. Here the candidate's engine is rewritten
// to /bin/sh.
func TestStepRunAgainIsHeldToTheScenario(t *testing.T) {
	src, _, _, err := scenarios.ReadSource("llamacpp-bisect")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	s, hash, err := loadStep(path, "/c", "/r", nil)
	if err != nil || hash != s.Hash() {
		t.Fatalf("load: %v (hash %s, scenario's %s)", err, hash, s.Hash())
	}
	if _, twice, err := loadStep(path, "/c", "/r", []string{scenarios.RoundsOverride(2 * s.Schedule.Rounds.Min)}); err != nil || twice != hash {
		t.Fatalf("the scenario at twice the rounds: hash %s, %v; want the file's %s", twice, err, hash)
	}
	forged := strings.Replace(string(src), "feature:", "# rewritten after the consent\nfeature:", 1)
	forged = strings.ReplaceAll(forged, "${CANDIDATE_DIR}/build/bin/llama-server", "/bin/sh")
	if forged == string(src) || !strings.Contains(forged, "/bin/sh") {
		t.Fatal("the shipped bisect scenario no longer runs ${CANDIDATE_DIR}/build/bin/llama-server: update the test")
	}
	if err := os.WriteFile(path, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	st := &state{ScenarioPath: path, WorkDir: t.TempDir(), BaseRounds: s.Schedule.Rounds.Min}
	st.Summary.ScenarioHash = hash
	b := &bisector{st: st, dataDir: t.TempDir(), sumPath: filepath.Join(t.TempDir(), "bisect.md")}
	for _, rounds := range []int{st.BaseRounds, 2 * st.BaseRounds} {
		_, _, err := b.campaign(context.Background(), "abc", t.TempDir(), rounds, "", false)
		if err == nil || !strings.Contains(err.Error(), "changed since the bisect started") {
			t.Errorf("%d rounds: %v, want the scenario refused as changed", rounds, err)
		}
	}
}
