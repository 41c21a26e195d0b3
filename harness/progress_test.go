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
	p := NewProgress(&buf, false, 4, 2*time.Second, 0)
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
	p := NewProgress(&buf, false, 2, 0, 0)
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
	p := NewProgress(&buf, false, 9, 0, 0)
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

// Under a quiet gate a run waits for the gate's window less the quiet
// time of the run before it (which counts towards it): after the first
// run, the ETA counts what is left of the window, or the cooldown where
// that is longer. Short runs wait most of a 5 s window (the ETA came in
// ten times low); 10 s runs none of it (counting the whole window made it
// a third high).
func TestProgressETACountsTheQuietWindow(t *testing.T) {
	for _, c := range []struct {
		run, cooldown, quiet time.Duration
		want                 string
	}{
		{500 * time.Millisecond, time.Second, 5 * time.Second, "ETA 45s"}, // 9 × (0.5 + 4.5)
		{10 * time.Second, time.Second, 5 * time.Second, "ETA 1m39s"},     // 9 × (10 + 1)
		{500 * time.Millisecond, time.Second, 0, "ETA 14s"},               // 9 × (0.5 + 1), rounded
	} {
		var buf bytes.Buffer
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		p := NewProgress(&buf, false, 10, c.cooldown, c.quiet)
		p.now = func() time.Time { return now }
		p.Phase(1, "a", "measuring")
		now = now.Add(c.run)
		p.RunDone(1, "a", c.run, "ok")
		if !strings.Contains(buf.String(), c.want) {
			t.Errorf("runs of %v, cooldown %v, window %v: %q, want %s", c.run, c.cooldown, c.quiet, buf.String(), c.want)
		}
		p.Close()
	}
}

// A campaign under a quiet gate hands its window to the progress.
func TestProgressKnowsTheQuietWindow(t *testing.T) {
	for _, c := range []struct {
		gates string
		want  time.Duration
	}{{"gates: {quiet: {window: 5s, interval: 1s}}", 5 * time.Second}, {"gates: {}", 0}} {
		s := gapCampaign(t, "schedule: {rounds: 3, cooldown: 1s}\n"+c.gates)
		cp, err := newCampaign(s, Options{Progress: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		if cp.progress.quiet != c.want || cp.progress.cooldown != time.Second || cp.progress.uncredited {
			t.Errorf("%s: window %v, cooldown %v, uncredited %v", c.gates, cp.progress.quiet, cp.progress.cooldown, cp.progress.uncredited)
		}
	}
}

// An adaptive cooldown (until_quiet) waits at least its min and then the
// quiet gate's window in full, no run's quiet time counting: after one
// 10 s run of ten, 9 × (10 s + 10 s + 5 s) are left (the ETA said 1m30s,
// counting no wait at all).
func TestProgressETAOfAnAdaptiveCooldown(t *testing.T) {
	s := gapCampaign(t, "schedule: {rounds: 5, cooldown: {until_quiet: {min: 10s, max: 1m}}}\ngates: {quiet: {window: 5s, interval: 1s}}")
	var buf bytes.Buffer
	cp, err := newCampaign(s, Options{Progress: &buf})
	if err != nil {
		t.Fatal(err)
	}
	p := cp.progress
	p.total = 10
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return now }
	p.Phase(1, "a", "measuring")
	now = now.Add(10 * time.Second)
	p.RunDone(1, "a", 10*time.Second, "ok")
	if !strings.Contains(buf.String(), "ETA 3m45s") {
		t.Errorf("%q, want ETA 3m45s", buf.String())
	}
	p.Close()
}

// gapCampaign is a two-arm llama.cpp scenario with the schedule and gates
// given as YAML lines.
func gapCampaign(t *testing.T, scheduleAndGates string) *scenarios.Scenario {
	t.Helper()
	src := `feature: gap
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
unmeasured: [x]
` + scheduleAndGates + "\n"
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(src), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
