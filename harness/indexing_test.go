package harness

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
)

// host.pause_indexing off macOS pauses nothing and the record says so.
func TestPauseIndexingOffMacOS(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("pauses the real Spotlight on macOS")
	}
	src := strings.Replace(testScenario, "rounds: 6", "rounds: 2, cooldown: 0s", 1) + "host: {pause_indexing: true}\n"
	c := testCampaign(t, src)
	if !c.policy.PauseIndexing {
		t.Fatal("host.pause_indexing not in the policy")
	}
	c.exec = &fakeEngine{}
	out := executeTest(t, context.Background(), c)
	if got := out.Record.Method.Indexing; got != "not paused: this is not macOS" {
		t.Errorf("method.indexing %q", got)
	}
	md, err := os.ReadFile(out.RecordPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "not paused: this is not macOS") {
		t.Error("the record's Method does not say what host.pause_indexing did")
	}
}
