package planner_test

// Seeded simulations of the planner's claim: records generated from a
// known host model give a host model (HostOf) close to it; the schedule
// the plan finds for an asked MDE, run as campaigns through the production
// order (harness.Plan) and verdict (analysis.Analyze, stopping at a look as
// analysis.SequentialDone says) on the same host with the asked change,
// detects it with about the power the MDE is stated at; and the MDE the
// plan says a schedule reaches is the one its records state.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// simHost is a known host model: a run's start draws its state (a CV of
// between, on log scale) and each request its own noise (within, at 256
// tokens); a start stalls with probability stall, losing stallCost of its
// rate; the host drifts by up to drift over a campaign, common to every
// arm; a start costs startS, a request requestS.
type simHost struct {
	name                    string
	between, within         float64
	stall, stallCost, drift float64
	startS, requestS        float64
	firstCost               float64
	// historyRounds, historyK and historyRecords are its records' rounds,
	// measured requests a start and number; sets how many times they are
	// drawn, each planned from and its plan run as campaigns a set; mde
	// the change asked.
	historyRounds, historyK int
	historyRecords          int
	sets, campaigns         int
	mde                     float64
}

const simTokens = 256

// simScenario is a campaign of a baseline, a negative control and a test
// arm with the given schedule.rounds (YAML) and measured requests a start.
func simScenario(t testing.TB, rounds string, requests int) *scenarios.Scenario {
	t.Helper()
	src := fmt.Sprintf(`feature: sim
hardware: simhw
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: p, max_tokens: %d}
arms:
  - name: base
  - name: control
    control: true
  - name: test
    args: [--test]
baseline: base
schedule: {rounds: %s, order: rotate, warmup: 1, requests: %d, cooldown: 0s}
gates: {max_spread: 0}
allow_unverified: simulation
unmeasured: [nothing]
`, simTokens, rounds, requests)
	s, _, err := scenarios.Parse("sim.yaml", ".", []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	s.Policy.AllowUnverified = "" // the verdict as for a verified campaign
	s.Policy.Stats.Resamples = 400
	return s
}

// campaign draws one campaign's runs as the harness stores them: one run
// per engine start with its warmup and measured requests, the test arm's
// rate times effect.
func (h simHost) campaign(t testing.TB, s *scenarios.Scenario, effect float64, seed uint64) ([]schema.Run, schema.Method) {
	rng := rand.New(rand.NewPCG(seed, 33))
	p := s.Policy
	plan, err := harness.Plan(p.ArmNames(), p.Schedule.Rounds.Max, p.Schedule.Order, int64(seed))
	if err != nil {
		t.Fatal(err)
	}
	started := time.Unix(0, 0)
	m := schema.Method{Planned: harness.Arms(plan), Started: started, Rule: schema.RuleCurrent, Warmup: s.Schedule.Warmup, Requests: s.Schedule.Requests}
	slope := h.drift * (2*rng.Float64() - 1)
	var runs []schema.Run
	at := started
	n := s.Schedule.Warmup + s.Schedule.Requests
	for i, sl := range plan {
		level := 100 * math.Exp(slope*float64(i)/float64(len(plan))+h.between*rng.NormFloat64())
		if sl.Arm == "test" {
			level *= effect
		}
		if rng.Float64() < h.stall {
			level *= 1 - h.stallCost
		}
		run := schema.Run{Seq: sl.Seq, Round: sl.Round, Arm: sl.Arm, Start: at, ReadyS: h.startS / 2}
		for j := range n {
			v := level * math.Exp(h.within*rng.NormFloat64())
			kind := schema.RequestMeasured
			if j < s.Schedule.Warmup {
				kind, v = schema.RequestWarmup, v*(1-h.firstCost)
			}
			run.Requests = append(run.Requests, schema.ServedRequest{Kind: kind, Tokens: simTokens,
				Metrics: map[string]float64{schema.DecodeTokS: v, schema.WallS: h.requestS}})
		}
		run.Metrics = schema.StartMetrics(run.Requests)
		run.Seconds = h.startS + float64(n)*h.requestS
		at = at.Add(time.Duration(run.Seconds * float64(time.Second)))
		runs = append(runs, run)
	}
	return runs, m
}

// history is the host's records of scenario s: campaigns of its schedule
// with a test arm 5% faster, as the planner reads them.
func (h simHost) history(t testing.TB, s *scenarios.Scenario, seed uint64) []planner.Source {
	var out []planner.Source
	for i := range h.historyRecords {
		runs, m := h.campaign(t, s, 1.05, seed+uint64(i))
		rec := &schema.Record{Feature: s.Feature, Hardware: "simhw", Method: m, Runs: runs,
			Scenario: schema.ScenarioInfo{Hash: s.Hash(), Request: schema.RequestInfo{MaxTokens: simTokens}}}
		out = append(out, planner.Source{Path: fmt.Sprintf("sim-%d.md", i), Rec: rec, Policy: s.Policy})
	}
	return out
}

// outcome is what one campaign says of the test arm.
type outcome struct {
	claim  bool // VALID and the test arm significantly faster
	mde    float64
	rounds int
}

// judge analyses a campaign as the harness would, stopping a sequential
// schedule at the first look analysis.SequentialDone stops at.
func judge(s *scenarios.Scenario, runs []schema.Run, m schema.Method) outcome {
	in := analysis.NewInput(s.Policy, analysis.Current(), runs, m)
	a := analysis.Analysis{}
	arms := len(s.Policy.Arms)
	if looks := s.Schedule.Rounds.Looks(); len(looks) > 0 {
		for _, l := range looks {
			sub := in
			sub.Runs, sub.Campaign.Planned = in.Runs[:l*arms], l*arms
			var done bool
			if done, a = analysis.SequentialDone(sub); done {
				break
			}
		}
	} else {
		a = analysis.Analyze(in)
	}
	o := outcome{rounds: runs[len(runs)-1].Round, mde: math.Inf(1)}
	if q := a.Sequential; q != nil && len(q.Looks) > 0 {
		o.rounds = q.Looks[len(q.Looks)-1]
	}
	for _, v := range a.ArmVerdicts {
		if v.Arm == "test" {
			o.claim = a.Verdict == schema.Valid && v.Comparison.Significant && v.Comparison.Ratio > 1
			// A record that states no MDE (+Inf, as o starts) says no
			// effect reaches the power: it ranks above every stated one
			// in the median.
			if v.MDE > 0 {
				o.mde = v.MDE
			}
		}
	}
	return o
}

// cell is campaigns of scenario s on the host at a true effect: the share
// that claim the arm faster, the median stated MDE and the mean rounds.
type cell struct {
	power, mde, rounds float64
}

func (h simHost) run(t testing.TB, s *scenarios.Scenario, effect float64, campaigns int, seed uint64) cell {
	outs := make([]outcome, campaigns)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				runs, m := h.campaign(t, s, effect, seed*100000+uint64(i))
				outs[i] = judge(s, runs, m)
			}
		}()
	}
	for i := range campaigns {
		next <- i
	}
	close(next)
	wg.Wait()
	var c cell
	var mdes []float64
	for _, o := range outs {
		if o.claim {
			c.power++
		}
		c.rounds += float64(o.rounds)
		mdes = append(mdes, o.mde)
	}
	slices.Sort(mdes)
	n := float64(campaigns)
	c.power, c.rounds, c.mde = c.power/n, c.rounds/n, mdes[len(mdes)/2]
	return c
}

// roundsYAML is a schedule's rounds as schedule.rounds.
func roundsYAML(s planner.Schedule) string {
	r := s.Rounds()
	if r.Every == 0 {
		return fmt.Sprint(r.Max)
	}
	return fmt.Sprintf("{min: %d, max: %d, every: %d}", r.Min, r.Max, r.Every)
}
