package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Before its first run a campaign says what it found of the host and what
// it will do (a demo that started on a busy host without a word took 37
// minutes): beside a busy loop, the host check names it among the busiest
// processes and says the quiet gate's rule finds the host busy and what
// happens next; the first run waits its max_wait, and the later ones look
// once while the host stays busy, each saying so in the record.
func TestHostCheckBeforeTheFirstRun(t *testing.T) {
	needEngine(t)
	spin := multiSpinner(t, "busyloop")
	time.Sleep(500 * time.Millisecond)
	yaml := strings.Replace(hostScenario("gates: {max_spread: 0, max_contended: 0, quiet: {window: 2s, interval: 500ms, max_wait: 4s, on_busy: wait}}"),
		"rounds: 4, warmup: 0, cooldown: 0s", "rounds: 2, warmup: 0, cooldown: 0s", 1)
	// 16 tokens a run, not 48: beside the busy loop the engine decodes at
	// about 16 a second, and nothing here is about the rate.
	yaml = strings.Replace(yaml, "max_tokens: 48,", "max_tokens: 16,", 1)
	p := startFile(t, yaml)
	res := p.wait(t)
	if res.code != 0 && res.code != 2 || res.record == nil {
		t.Fatalf("exit %d", res.code)
	}
	first := strings.Index(res.stderr, "run 1/4")
	found := strings.Index(res.stderr, fmt.Sprintf("busyloop (pid %d)", spin.Process.Pid))
	plan := strings.Index(res.stderr, "host check: not quiet by the quiet gate's rule (no other process above 15% of one core")
	if first < 0 || found < 0 || found > first || plan < 0 || plan > first ||
		!strings.Contains(res.stderr, "The first run waits up to 4s for 2s of quiet (progress below); if none comes, on_busy: wait") {
		t.Errorf("the host check did not say, before the first run, that the busy loop keeps the host busy and what the campaign does")
	}
	if !strings.Contains(res.stderr, "run 1: the host was not quiet after 4s (") {
		t.Error("the first run's wait did not say it ran out")
	}
	for i, r := range res.record.Runs {
		if q := r.Quiet; q == nil || q.EndedBy != schema.QuietMaxWait || q.Recheck != (i > 0) || (i > 0) != (q.WaitedS < 4) {
			t.Errorf("run %d's quiet wait %+v: want the first to wait 4s, the others one look", r.Seq, q)
		}
	}
	warned := false
	for _, w := range res.record.Analysis.Warnings {
		warned = warned || w.Code() == "quiet-timed-out"
	}
	if !warned || !strings.Contains(res.md, "still busy: one look") {
		t.Error("the record does not say the runs started on a busy host")
	}
}
