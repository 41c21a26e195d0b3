package estimate_test

import (
	"math"
	"testing"
	"time"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func noEnv(string) (string, bool) { return "", false }

// demo is the shipped demo scenario, resolved without this machine's
// environment.
func demo(t *testing.T) *scenarios.Scenario {
	t.Helper()
	s, _, err := scenarios.Load("llamacpp-speculative", scenarios.Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestEstimate: without a record the estimate is the guess, at the most
// rounds.
func TestEstimate(t *testing.T) {
	s := demo(t)
	// At most 10 rounds (the sequential schedule's last look) × 3 arms ×
	// (2s cooldown + 5s start + (1 warmup + 3 measured) × (0.5s + 256/50 s)).
	req := 500*time.Millisecond + 5120*time.Millisecond
	want := 30 * (2*time.Second + 5*time.Second + 4*req)
	if c := estimate.Guess(s.EstimateShape()); c.Basis != estimate.BasisGuess || c.Record != "" || c.Request != req {
		t.Errorf("Guess = %+v", c)
	}
	// 14m44s, past the demo's budget of 10 minutes: its look after 10
	// rounds would not fit, so the campaign stops at its first look, after
	// 5 rounds (7m22s).
	if got := s.Estimate(); want <= 10*time.Minute || got != want/2 {
		t.Errorf("Estimate() = %v, want the first look's %v (%v at the last)", got, want/2, want)
	}
	// A budget that holds both looks leaves the last; one shorter than the
	// first look does not shorten the campaign, which runs to that look.
	budget := func(min, max, every int, d time.Duration) scenarios.Rounds {
		return scenarios.Rounds{Min: min, Max: max, Every: every, MaxTime: scenarios.Duration{Duration: d}}
	}
	for _, c := range []struct {
		rounds scenarios.Rounds
		want   time.Duration
	}{
		{budget(5, 10, 5, 15*time.Minute), want},
		{budget(5, 10, 5, time.Minute), want / 2},
		{budget(5, 30, 5, 30*time.Minute), 20 * want / 10},
		{budget(995, 1000, 5, time.Minute), 199 * want / 2},
	} {
		s.Schedule.Rounds = c.rounds
		if got := s.Estimate(); got != c.want {
			t.Errorf("%+v: Estimate() = %v, want %v", c.rounds, got, c.want)
		}
	}
	// The bound's figure: rounds measured cheaper than the guess run every
	// look that fits, so a budget counts whole, up to the most rounds, and
	// the first look whatever the budget.
	for _, c := range []struct {
		rounds scenarios.Rounds
		want   time.Duration
	}{
		{budget(5, 10, 5, 15*time.Minute), want},
		{budget(5, 10, 5, time.Minute), want / 2},
		{budget(5, 30, 5, 30*time.Minute), 30 * time.Minute},
		{budget(10, 1000, 990, 3000*time.Hour), 100 * want},
		{budget(10, 1000000, 990, 3000*time.Hour), 3000 * time.Hour},
	} {
		s.Schedule.Rounds = c.rounds
		if got := s.Longest(); got != c.want {
			t.Errorf("%+v: Longest() = %v, want %v", c.rounds, got, c.want)
		}
	}
	s.Schedule.Rounds = scenarios.Rounds{Min: 5, Max: 10}
	if got := s.Estimate(); got != want {
		t.Errorf("without the budget: Estimate() = %v, want %v", got, want)
	}
	s.Schedule.Rounds = scenarios.Rounds{Min: 5, Max: 20}
	if got := s.Estimate(); got != 2*want {
		t.Errorf("adaptive: Estimate() = %v, want the maximum rounds' %v", got, 2*want)
	}

	// A command engine starts afresh for every run, its warmup too: 20
	// rounds × 2 arms × (1s cooldown + (1 warmup + 1 measured) × (5s +
	// 0.5s)).
	src, err := scenarios.ShippedSource("llamacpp-cli")
	if err != nil {
		t.Fatal(err)
	}
	cli, _, err := scenarios.Parse("t.yaml", ".", src, scenarios.Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cli.Estimate(), 40*(time.Second+2*5500*time.Millisecond); got != want {
		t.Errorf("command engine: Estimate() = %v, want %v", got, want)
	}
}

// demoRecord is a record of the demo's campaign as its data block keeps
// it: the figures of docs/benchmark_results/spec-draft-epyc-2026-12-02.md
// (a start 6.43 s with its 2s cooldown and 1 warmup, a request 2.07 s, 256
// tokens, 2 measured requests a start).
func demoRecord() *schema.Record {
	return &schema.Record{
		Feature:  "spec-draft",
		Method:   schema.Method{Warmup: 1, Requests: 2, Cooldown: "2s"},
		Scenario: schema.ScenarioInfo{Request: schema.RequestInfo{MaxTokens: 256}},
		Analysis: schema.Analysis{Anatomy: &schema.Anatomy{Pooled: &schema.AnatomyFigures{StartS: 6.43, RequestS: 2.07}}},
	}
}

func near(a, b time.Duration) bool { return math.Abs(float64(a-b)) < float64(time.Millisecond) }

// TestCostsFromAnatomy: a record's noise anatomy gives the start and the
// request costs; the estimate is rounds × arms × (start + measured
// requests), which for the demo's last record (45 starts of 2 measured
// requests) is its 479 s; a scenario with another cooldown, warmups or
// max_tokens gets the start moved and the request scaled, and says so.
func TestCostsFromAnatomy(t *testing.T) {
	s := demo(t)
	c, ok := estimate.FromRecord(s.EstimateShape(), "r.md", demoRecord())
	if !ok || c.Basis != estimate.BasisAnatomy || c.Record != "r.md" || c.Adjusted || c.RecordTokens != 0 ||
		!near(c.Start, 6430*time.Millisecond) || !near(c.Request, 2070*time.Millisecond) {
		t.Fatalf("costs %+v, %v", c, ok)
	}
	if got, want := estimate.Duration(s.EstimateShape(), c), 30*(6430+3*2070)*time.Millisecond; !near(got, want) {
		t.Errorf("Duration = %v, want %v", got, want)
	}
	s.Schedule.Rounds, s.Schedule.Requests = scenarios.Rounds{Min: 5, Max: 15, Every: 5}, 2
	if got, want := estimate.Duration(s.EstimateShape(), c), 45*(6430+2*2070)*time.Millisecond; !near(got, want) || got < 470*time.Second || got > 490*time.Second {
		t.Errorf("the record's own schedule: Duration = %v, want %v (the campaign took 479 s)", got, want)
	}

	// No cooldown, no warmup and 128 tokens: the engine's own 2.36 s.
	s.Schedule.Cooldown, s.Schedule.Warmup, s.Engine.Request.MaxTokens = scenarios.Cooldown{}, 0, 128
	c, ok = estimate.FromRecord(s.EstimateShape(), "r.md", demoRecord())
	if !ok || !c.Adjusted || c.RecordTokens != 256 || !near(c.Request, 1035*time.Millisecond) || !near(c.Start, 2360*time.Millisecond) {
		t.Errorf("adjusted costs %+v, %v", c, ok)
	}
}

// TestCostsFromRuns: a record without a noise anatomy (written before it,
// or one request a start) gives its costs from its runs: a request is the
// median measured wall time, a start the median whole time with the
// cooldown before it, less its measured requests; failed runs and runs
// without a wall time are left out.
func TestCostsFromRuns(t *testing.T) {
	s := demo(t)
	rec := demoRecord()
	rec.Analysis.Anatomy = &schema.Anatomy{Gap: schema.AnatomyOneRequest}
	rec.Method.Requests = 0 // a record from before: one measured request
	for i, sec := range []float64{6, 7, 8} {
		rec.Runs = append(rec.Runs, schema.Run{Seconds: sec, CooldownS: 2, Metrics: map[string]float64{schema.WallS: 2 + float64(i)/2}})
	}
	rec.Runs = append(rec.Runs,
		schema.Run{Seconds: 100, CooldownS: 2, Error: "engine exited", Metrics: map[string]float64{schema.WallS: 50}},
		schema.Run{Seconds: 100, CooldownS: 2})
	c, ok := estimate.FromRecord(s.EstimateShape(), "r.md", rec)
	// start: median(8, 9, 10) − 1 × median(2, 2.5, 3) = 6.5 s.
	if !ok || c.Basis != estimate.BasisRuns || !near(c.Start, 6500*time.Millisecond) || !near(c.Request, 2500*time.Millisecond) || c.Adjusted {
		t.Errorf("costs %+v, %v", c, ok)
	}
	rec.Runs = rec.Runs[3:]
	if c, ok := estimate.FromRecord(s.EstimateShape(), "r.md", rec); ok {
		t.Errorf("no usable run, costs %+v", c)
	}
}

// TestCostsRefused: a record whose figures could not be true (zero,
// negative, NaN, infinite, longer than a day) gives no costs; the guess
// stands.
func TestCostsRefused(t *testing.T) {
	s := demo(t)
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1), 1e12} {
		rec := demoRecord()
		rec.Analysis.Anatomy.Pooled.RequestS = v
		if c, ok := estimate.FromRecord(s.EstimateShape(), "r.md", rec); ok && c.Basis == estimate.BasisAnatomy {
			t.Errorf("request %v: costs %+v", v, c)
		}
		rec = demoRecord()
		rec.Analysis.Anatomy = nil
		rec.Runs = []schema.Run{{Seconds: v, CooldownS: 2, Metrics: map[string]float64{schema.WallS: 1}}}
		if c, ok := estimate.FromRecord(s.EstimateShape(), "r.md", rec); ok {
			t.Errorf("run of %v s: costs %+v", v, c)
		}
	}
}

// TestMaxCostIsTheLongestTimeout: a cost from a record is believed up to
// the longest timeout a scenario may set.
func TestMaxCostIsTheLongestTimeout(t *testing.T) {
	if estimate.MaxCost != scenarios.MaxTimeout {
		t.Errorf("estimate.MaxCost %v, scenarios.MaxTimeout %v", estimate.MaxCost, scenarios.MaxTimeout)
	}
}

// TestCostsWithAWholeWarmup: a record whose starts sent their warmup whole
// for the token ids (its anatomy left it out) has no token replay in its
// start cost, and says so; a schedule too short for the warmup to give
// the ids (one warmup and one measured request) pays a replay, a
// request's time, and the estimate counts it; three requests a start do
// not.
func TestCostsWithAWholeWarmup(t *testing.T) {
	s := demo(t)
	rec := demoRecord()
	rec.Analysis.Anatomy.LastWarmupLeftOut = true
	c, ok := estimate.FromRecord(s.EstimateShape(), "r.md", rec)
	if !ok || !c.IDs {
		t.Fatalf("costs %+v, %v: want the whole warmup noted", c, ok)
	}
	if !c.Replays(1, 1) || c.Replays(1, 2) || c.Replays(2, 1) || (estimate.Costs{}).Replays(1, 1) {
		t.Error("Replays: a start of one warmup and one request pays a replay; two requests, two warmups or a record without whole warmups do not")
	}
	s.Schedule.Requests = 1
	if got, want := estimate.Duration(s.EstimateShape(), c), 30*(6430+2*2070)*time.Millisecond; !near(got, want) {
		t.Errorf("one request a start: Duration = %v, want %v (a replay's request added)", got, want)
	}
	s.Schedule.Requests = 3
	if got, want := estimate.Duration(s.EstimateShape(), c), 30*(6430+3*2070)*time.Millisecond; !near(got, want) {
		t.Errorf("three requests a start: Duration = %v, want %v", got, want)
	}
}
