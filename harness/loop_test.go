package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// fakeEngine is an Executor scripted per slot and attempt: it unit-tests
// the run loop's failure paths. (The real engine proves the features, in
// e2e/.)
type fakeEngine struct {
	fail   map[[2]int]string // {seq, attempt} → error
	cancel int               // seq at which the campaign is interrupted
	stop   context.CancelFunc
	calls  []string
}

func (f *fakeEngine) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	attempt := max(run.Attempt, 1)
	f.calls = append(f.calls, fmt.Sprintf("%d/%d", slot.Seq, attempt))
	if slot.Seq == f.cancel {
		f.stop()
		return ctx.Err()
	}
	if msg, ok := f.fail[[2]int{slot.Seq, attempt}]; ok {
		return errors.New(msg)
	}
	v := 100.0 + float64(slot.Seq%3)
	if slot.Arm == "b" {
		v += 10
	}
	run.Metrics = map[string]float64{schema.DecodeTokS: v, schema.WallS: 1}
	cv := 0.0
	if slot.Arm == "b" {
		cv = 5
	}
	run.Counters = map[string]schema.CounterReading{"c": {Value: cv}}
	run.Output = "same text"
	return nil
}

// executeTest runs c's schedule into a record in a temporary folder.
func executeTest(t *testing.T, ctx context.Context, c *campaign) *Outcome {
	t.Helper()
	dir := t.TempDir()
	c.recPath, c.dataDir = filepath.Join(dir, "t.md"), filepath.Join(dir, "data", "t")
	if err := os.MkdirAll(c.dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.holdFolders(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.releaseFolders)
	if err := c.prepareDataDir(); err != nil {
		t.Fatal(err)
	}
	c.rec = c.newRecord("x", "2026-01-01", schema.MachineInfo{}, time.Now().Round(0))
	if c.host.check == nil {
		// A quiet host, found at once: the real check watches for 2 s.
		c.host.check = func(context.Context, machine.QuietConfig, time.Duration) machine.HostCheck {
			return machine.HostCheck{Cores: 2}
		}
	}
	out, err := c.execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// loop runs a campaign of 2 arms × 4 rounds through the fake engine.
func loop(t *testing.T, onFailure string, f *fakeEngine) (*schema.Record, []string) {
	t.Helper()
	src := strings.Replace(testScenario, "rounds: 6", "rounds: 4, cooldown: 0s", 1) + "on_failure: " + onFailure + "\n"
	c := testCampaign(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.stop = cancel
	c.exec = f
	out := executeTest(t, ctx, c)
	runs, err := recorder.ReadRuns(filepath.Join(c.dataDir, recorder.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(out.Record.Runs) {
		t.Errorf("journal holds %d runs, the record %d", len(runs), len(out.Record.Runs))
	}
	return out.Record, f.calls
}

func TestRunLoopFailurePolicies(t *testing.T) {
	tests := []struct {
		name, policy string
		fail         map[[2]int]string
		cancel       int
		verdict      schema.Verdict
		calls        string
		reason       string
	}{
		{"retry recovers", "retry:2", map[[2]int]string{{2, 1}: "boom", {2, 2}: "boom again"}, 0, schema.Valid,
			"1/1 2/1 2/2 2/3 3/1 4/1 5/1 6/1 7/1 8/1", "run(s) failed and are excluded"},
		{"retries exhausted", "retry:1", map[[2]int]string{{2, 1}: "boom", {2, 2}: "still boom"}, 0, schema.Failed,
			"1/1 2/1 2/2", "Run 2 (`b`, round 1, attempt 2) failed: still boom"},
		// 3 runs of b against 4 of a: the regression (schema.RuleCurrent)
		// decides with them; the U test could not (p ≥ 0.057).
		{"continue", "continue", map[[2]int]string{{3, 1}: "engine exited"}, 0, schema.Valid,
			"1/1 2/1 3/1 4/1 5/1 6/1 7/1 8/1", "1 run(s) failed and are excluded from the statistics (on_failure: continue)"},
		{"abort", "abort", map[[2]int]string{{1, 1}: "never ready"}, 0, schema.Failed,
			"1/1", "Run 1 (`a`, round 1) failed: never ready"},
		{"interrupted", "abort", nil, 3, schema.Incomplete,
			"1/1 2/1 3/1", "Interrupted after 2 of 8 planned runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, calls := loop(t, tt.policy, &fakeEngine{fail: tt.fail, cancel: tt.cancel})
			if got := strings.Join(calls, " "); got != tt.calls {
				t.Errorf("attempts %q, want %q", got, tt.calls)
			}
			if rec.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s; reasons %s", rec.Verdict, tt.verdict, reasons(rec))
			}
			if all := reasons(rec) + "\n" + warnings(rec); !strings.Contains(all, tt.reason) {
				t.Errorf("reasons and warnings lack %q:\n%s", tt.reason, all)
			}
		})
	}
}
