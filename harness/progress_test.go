package harness

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
)

// The ETA counts the runs left at the mean run time so far, plus their
// cooldowns, less the time the current run has already taken.
func TestProgressETA(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&buf, false, 4, 2*time.Second)
	p.now = func() time.Time { return now }
	p.Phase(1, "a", "starting engine")
	if !strings.Contains(buf.String(), "ETA unknown") {
		t.Errorf("before any run finished: %q", buf.String())
	}
	now = now.Add(10 * time.Second)
	p.RunDone(1, "a", 10*time.Second, "ok")
	// 3 runs left × (10s + 2s cooldown) = 36s.
	if !strings.Contains(buf.String(), "run 1/4 a: ok (ETA 36s)") {
		t.Errorf("after run 1: %q", buf.String())
	}
	p.Phase(2, "b", "measuring")
	now = now.Add(4 * time.Second)
	p.Phase(2, "b", "measuring")
	if !strings.Contains(buf.String(), "run 2/4 b: measuring (ETA 32s)") {
		t.Errorf("4s into run 2: %q", buf.String())
	}
	p.Close()
}

// A schedule that grows keeps counting the runs this process finished:
// the ETA after growing to 6 runs with 2 done is 4 runs' time (it was 0 s
// when the growth passed the runs done as runs done before the process).
func TestProgressETAAfterGrowing(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&buf, false, 2, 0)
	p.now = func() time.Time { return now }
	for i := 1; i <= 2; i++ {
		p.Phase(i, "a", "measuring")
		now = now.Add(10 * time.Second)
		p.RunDone(i, "a", 10*time.Second, "ok")
	}
	p.Grow(6)
	p.Phase(3, "a", "starting engine")
	if !strings.Contains(buf.String(), "run 3/6 a: starting engine (ETA 40s)") {
		t.Errorf("after growing: %q", buf.String())
	}
	p.Close()
}

// A wait for a quiet host longer than the cooldown is counted: runs of
// 2 s each 5 s apart (a 3 s quiet wait, no cooldown) leave an ETA of
// their cycle, not of their own time (a review saw 13 s where 28 s were
// left).
func TestProgressETACountsTheWaits(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&buf, false, 9, 0)
	p.now = func() time.Time { return now }
	for i := 1; i <= 3; i++ {
		p.Phase(i, "a", "waiting for a quiet host")
		now = now.Add(3 * time.Second)
		now = now.Add(2 * time.Second)
		p.RunDone(i, "a", 2*time.Second, "ok")
	}
	// 6 runs left × 5 s a cycle.
	if !strings.Contains(buf.String(), "run 3/9 a: ok (ETA 30s)") {
		t.Errorf("after three runs with waits: %q", buf.String())
	}
	// The fourth waits 40 s for a quiet host: six runs are still ahead,
	// five of them whole and this one's measuring.
	p.Phase(4, "a", "waiting for a quiet host")
	now = now.Add(40 * time.Second)
	if got := p.eta(); got != "28s" {
		t.Errorf("ETA while the fourth run waits 40s: %s, want 28s (6 × 5 s less one run's 2 s)", got)
	}
	p.Close()
}

// Under a quiet gate each run after the first waits at least the gate's
// window, which the ETA after the first run counts where it is longer
// than the cooldown (it came in ten times low with a 5 s window).
func TestProgressGapIsTheQuietWindow(t *testing.T) {
	for _, c := range []struct {
		gates string
		want  time.Duration
	}{{"gates: {quiet: {window: 5s, interval: 1s}}", 5 * time.Second}, {"gates: {}", time.Second}} {
		src := []byte(`feature: gap
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: "hi", max_tokens: 4}
arms:
  - name: a
  - name: b
    args: [-t, "1"]
baseline: a
allow_unverified: test
schedule: {rounds: 3, cooldown: 1s}
unmeasured: [x]
` + c.gates + "\n")
		s, _, err := scenarios.Parse("t.yaml", ".", src, scenarios.Options{Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		cp, err := newCampaign(s, Options{Progress: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		if cp.progress.gap != c.want {
			t.Errorf("%s: gap %v, want %v", c.gates, cp.progress.gap, c.want)
		}
	}
}
