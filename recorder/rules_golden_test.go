package recorder

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// ruleScenario is a campaign of a baseline, a negative control and one or
// two test arms; each case below changes its arms, stats and schedule.
const ruleScenario = `feature: rules
title: Every rule
engine:
  preset: llama.cpp
  command: [llama-server, -m, t.gguf, --port, "${PORT}"]
  request: {prompt: Once upon a time, max_tokens: 128, ignore_eos: true}
arms:
%s
baseline: classic
schedule: {rounds: %s, cooldown: 0s}
stats: {%s}
allow_unverified: synthetic runs
unmeasured: [Prefill throughput.]
`

// ruleCase is one campaign shape every rule is rendered under.
type ruleCase struct {
	name, arms, rounds, stats string
	// ran is the number of rounds with runs; effect the test arms' true
	// ratios, by name.
	ran    int
	effect map[string]float64
	energy bool
	// stall is one run in how many that stalls (17 when 0); only
	// stallArm's runs when it is set.
	stall    int
	stallArm string
	// noise is an arm's run-to-run noise (2% when not set).
	noise map[string]float64
	// maxTime and planned are a budgeted schedule's budget and the
	// rounds it allowed at each look taken.
	maxTime string
	planned []int
}

var ruleCases = []ruleCase{
	{name: "control", arms: "  - {name: classic}\n  - {name: same, control: true}\n  - {name: draft, args: [--x]}",
		rounds: "10", ran: 10, effect: map[string]float64{"draft": 1.08}},
	{name: "sequential", arms: "  - {name: classic}\n  - {name: same, control: true}\n  - {name: draft, args: [--x]}",
		rounds: "{min: 5, max: 15, every: 5}", ran: 10, effect: map[string]float64{"draft": 1.03}},
	{name: "pooled", arms: "  - {name: classic}\n  - {name: same, control: true}\n  - {name: draft, args: [--x]}",
		rounds: "10", stats: "pool_control: true", ran: 10, effect: map[string]float64{"draft": 0.95}},
	{name: "holm", arms: "  - {name: classic}\n  - {name: draft, args: [--x]}\n  - {name: ngram, args: [--y]}",
		rounds: "8", ran: 8, effect: map[string]float64{"draft": 1.10, "ngram": 1.0}, energy: true},
	{name: "paired", arms: "  - {name: classic}\n  - {name: draft, args: [--x]}",
		rounds: "8", stats: "pairing: auto", ran: 8, effect: map[string]float64{"draft": 1.04}},
	// The test arm stalls in one run of two: its comparison by round is
	// refused.
	{name: "refused", arms: "  - {name: classic}\n  - {name: draft, args: [--x]}",
		rounds: "10", ran: 10, effect: map[string]float64{"draft": 1.05}, stall: 2, stallArm: "draft"},
	// The test arm is noisier than the baseline and stalls in one run of
	// five: its comparison puts far rounds back in (robust-9 states the
	// hull of two readings).
	{name: "farkept", arms: "  - {name: classic}\n  - {name: draft, args: [--x]}",
		rounds: "20", ran: 20, effect: map[string]float64{"draft": 1.04}, stall: 5, stallArm: "draft", noise: map[string]float64{"draft": 0.05}},
	// A budget of 2 minutes allowed 30 rounds at the first look and 12 at
	// the second: the second was the last, and spent what was left.
	{name: "budget", arms: "  - {name: classic}\n  - {name: same, control: true}\n  - {name: draft, args: [--x]}",
		rounds: "{min: 5, max: 30, max_time: 2m, every: 5}", ran: 10, effect: map[string]float64{"draft": 1.02}, maxTime: "2m0s", planned: []int{30, 12}},
}

// ruleRecord is the record of one case under one rule, its analysis by the
// production path from seeded synthetic runs with a stall or two.
func ruleRecord(t *testing.T, rule schema.Rule, c ruleCase) *schema.Record {
	t.Helper()
	src := fmt.Sprintf(ruleScenario, c.arms, c.rounds, c.stats)
	s, _, err := scenarios.Parse("rules.yaml", ".", []byte(src), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	p := s.Policy
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	rec := &schema.Record{
		Schema: schema.Schema, Feature: "rules", Title: "Every rule", Hardware: "xeon", Date: "2026-12-03",
		Scenario: schema.ScenarioInfo{Path: "rules.yaml", Hash: "0123456789abcdef0123", Baseline: "classic", Primary: "decode_tok_s",
			AllowUnverified: "synthetic runs", Unmeasured: []string{"Prefill throughput."},
			Request: schema.RequestInfo{Endpoint: "/completion", Prompt: "Once upon a time", MaxTokens: 128, IgnoreEOS: true}},
		Engine: schema.EngineInfo{Command: "llama-server", Path: "/usr/bin/llama-server", SHA256: "ab12", Version: "version: 0.7.0 (build 11669)"},
		Machine: schema.MachineInfo{Hostname: "vm", OS: "linux", Platform: "debian", PlatformVersion: "12", Kernel: "6.1", Arch: "x86_64",
			CPUModel: "Intel(R) Xeon(R) Processor", Cores: 2, Threads: 2, MemoryBytes: 24 << 30, Slug: "xeon"},
		Method: schema.Method{Rounds: s.Schedule.Rounds.Min, Warmup: 1, Requests: 1, Order: p.Schedule.Order, Seed: 1, Cooldown: "0s",
			Started: t0, Version: "v0.1.0", Commit: "abc123", Rule: rule, RoundsRun: c.ran,
			OnFailure: p.Failure, Outliers: p.Outliers, Confidence: p.Stats.Confidence, Alpha: p.Stats.Alpha, MinEffect: p.Stats.MinEffect,
			MaxSpread: p.Gates.MaxSpread, MaxContended: p.Gates.MaxContended, ContendedCPU: p.Gates.ContendedCPU, MaxDrift: p.Gates.MaxDrift,
			Resamples: p.Stats.Resamples, PoolControl: p.Stats.PoolControl, MaxTime: c.maxTime, PlannedRounds: c.planned},
		DataDir: "data/rules-xeon-2026-12-03",
	}
	for _, a := range s.Arms {
		rec.Scenario.Arms = append(rec.Scenario.Arms, schema.ArmInfo{Name: a.Name, Command: s.Launch(a.Name).Command, Control: a.Control})
	}
	rng := rand.New(rand.NewPCG(7, uint64(len(c.name))))
	names := p.ArmNames()
	seq := 0
	for round := 1; round <= c.ran; round++ {
		for k := range names {
			arm := names[(k+round)%len(names)]
			rec.Method.Planned = append(rec.Method.Planned, arm)
			seq++
			v := 150 * math.Exp(cmp.Or(c.noise[arm], 0.02)*rng.NormFloat64())
			if e, ok := c.effect[arm]; ok {
				v *= e
			}
			if rng.IntN(cmp.Or(c.stall, 17)) == 0 && (c.stallArm == "" || c.stallArm == arm) {
				v *= 0.7 // a stall
			}
			start := t0.Add(time.Duration(seq*10) * time.Second)
			m := map[string]float64{"decode_tok_s": v, "e2e_tok_s": v * 0.9, "ttft_ms": 30 * math.Exp(0.05*rng.NormFloat64()), "wall_s": 128 / v}
			if c.energy {
				m["energy_j_per_tok"] = 0.2 * 150 / v * math.Exp(0.03*rng.NormFloat64())
			}
			rec.Runs = append(rec.Runs, schema.Run{Seq: seq, Round: round, Arm: arm, Start: start, Seconds: 1, Port: 40000 + seq,
				Metrics: m, Tokens: 128, TokenSource: "timings.predicted_n", EngineTimings: map[string]float64{"predicted_per_second": v},
				Requests:     []schema.ServedRequest{{Kind: schema.RequestMeasured, Metrics: m}},
				OutputSHA256: "feedface00112233", Output: "the same text", Log: "logs/run.log"})
		}
	}
	rec.Method.Finished = t0.Add(time.Duration(seq*10+5) * time.Second)
	rec.Analysis, rec.Verdict = analyze(p, rec.Runs, rec.Method, rec.Schema)
	return rec
}

// Every rule renders every campaign shape as it always has: a record is
// checked by re-rendering it, so a change to the wording or the numbers of
// any rule's record is a change of every stored record of that rule.
func TestRuleGoldens(t *testing.T) {
	for _, rule := range []schema.Rule{schema.RuleMedianU, schema.RuleRobust1, schema.RuleRobust2, schema.RuleRobust3, schema.RuleRobust4, schema.RuleRobust5, schema.RuleRobust6, schema.RuleRobust8, schema.RuleRobust9, schema.RuleRobust10, schema.RuleRobust11, schema.RuleRobust12, schema.RuleRobust13, schema.RuleRobust14, schema.RuleRobust15, schema.RuleRobust16, schema.RuleRobust17} {
		for _, c := range ruleCases {
			name := string(rule)
			if name == "" {
				name = "median-u"
			}
			name += "-" + c.name
			t.Run(name, func(t *testing.T) {
				rec := ruleRecord(t, rule, c)
				var buf bytes.Buffer
				if err := Markdown(&buf, rec); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", "rules", name+".golden.md"), buf.Bytes())
			})
		}
	}
}
