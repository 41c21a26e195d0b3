package planner_test

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/stats"
	"gonum.org/v1/gonum/stat"
)

var (
	simCampaigns = flag.Int("plan.campaigns", 0, "campaigns a set of TestPlanReachesTheAskedMDE (0: each host's own, a quick run)")
	simSets      = flag.Int("plan.sets", 0, "sets of records a host of TestPlanReachesTheAskedMDE is planned from (0: each host's own)")
	simSeed      = flag.Uint64("plan.seed", 3300, "the first seed of TestPlanReachesTheAskedMDE's records and campaigns")
	simTruth     = flag.Bool("plan.truth", false, "TestPlanReachesTheAskedMDE also plans from the host model itself, not its records")
)

// The hosts of the simulation: a quiet host and one with the development
// VM's noise, each with and without stalls, each asked a change it can
// detect within an hour or so. Each has five records of fifteen rounds of
// two measured requests a start, drawn sets times over.
var simHosts = []simHost{
	{name: "start 2%, request 1%", between: 0.02, within: 0.01, drift: 0.03, mde: 0.03},
	{name: "start 2%, request 3%, 5% stalls of 30%", between: 0.02, within: 0.03, stall: 0.05, stallCost: 0.3, drift: 0.03, mde: 0.03},
	{name: "start 5%, request 3%", between: 0.05, within: 0.03, drift: 0.05, mde: 0.05},
	{name: "start 5%, request 2%, 5% stalls of 30%", between: 0.05, within: 0.02, stall: 0.05, stallCost: 0.3, drift: 0.05, mde: 0.05},
}

func init() {
	for i := range simHosts {
		h := &simHosts[i]
		h.startS, h.requestS, h.firstCost = 5, 2, 0.05
		h.historyRounds, h.historyK, h.historyRecords = 15, 2, 5
		h.sets, h.campaigns = 8, 30
	}
}

// truth is the host model the host itself is: its noise, its stalls (a
// round of two runs stalls when either does) and its costs.
func (h simHost) truth() planner.Host {
	far := 1 - (1-h.stall)*(1-h.stall)
	st := stats.Stalls{Runs1: 100000, Runs2: 100000, Trimmed: int(math.Round(100000 * far))}
	return planner.Host{Basis: planner.BasisScenario, Metric: "decode_tok_s", Between: math.Log1p(h.between * h.between),
		WithinTok: simTokens * math.Log1p(h.within*h.within), Split: true, Stalls: []stats.Stalls{st, st},
		Trimmed: 2 * st.Trimmed, Far: 2 * st.Trimmed, Compared: 200000,
		Costs: estimate.Costs{Basis: estimate.BasisAnatomy, Start: time.Duration((h.startS + h.requestS) * float64(time.Second)), Request: time.Duration(h.requestS * float64(time.Second))}}
}

// TestPlanReachesTheAskedMDE: for each host, its records give a host
// model within sampling error of the host; the plan's schedule for the
// asked MDE states an MDE at most the asked, and run on the host with the
// test arm faster by that stated MDE it claims the change in about 80% of
// campaigns (and so the asked change in at least as many). A plan inherits
// its records' luck, most of all the share of stalls five short records
// saw, so each host is planned from several sets of records and judged by
// the power over its sets. go test -run TestPlanReachesTheAskedMDE -v
// -plan.sets=20 -plan.campaigns=150 -plan.truth ./planner prints the full
// table, with the median MDE the planned schedule's records state (A/A
// campaigns): about the planned one without stalls, more with them, a
// record's own stall rate being uncertain over its rounds where the
// plan's is known from all the records'.
func TestPlanReachesTheAskedMDE(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	var table strings.Builder
	table.WriteString("| host | planned from | host model: start, request | asked | planned schedule | MDE planned / stated (median) | power at the planned MDE | mean rounds |\n|---|---|---|---|---|---|---|---|\n")
	full := *simCampaigns > 0
	for i, h := range simHosts {
		sets, n := h.sets, h.campaigns
		if *simSets > 0 {
			sets = *simSets
		}
		if full {
			n = *simCampaigns
		}
		var powers []float64
		for set := range sets {
			seed := *simSeed + 10*uint64(i) + 1000*uint64(set)
			past := simScenario(t, fmt.Sprint(h.historyRounds), h.historyK)
			host, ok := planner.HostOf(h.history(t, past, seed), past.EstimateShape(), analysis.Current())
			if !ok {
				t.Fatalf("%s, seed %d: no host model from its records", h.name, seed)
			}
			between, within := planner.CV(host.Between), planner.CV(host.WithinTok/simTokens)
			if math.Abs(between-h.between) > 0.3*h.between+0.003 || math.Abs(within-h.within) > 0.15*h.within {
				t.Errorf("%s, seed %d: host model CV %.2f%% between, %.2f%% within, want about %.0f%% and %.0f%%", h.name, seed, 100*between, 100*within, 100*h.between, 100*h.within)
			}
			from := fmt.Sprintf("%d records, seed %d", h.historyRecords, seed)
			powers = append(powers, h.planAndRun(t, &table, host, from, n, seed, full))
			if *simTruth && set == 0 {
				h.planAndRun(t, &table, h.truth(), "the host's own figures", n, seed, full)
			}
		}
		// Over a host's eight sets of 30 campaigns the power's sampling
		// error at 80% is 2.6 points and the records' luck adds about 2:
		// twenty sets of the stall-heavy host, 150 campaigns each, gave
		// 71-95% a set under robust-5 (85.1% on average) and 74-97%
		// under robust-6 (86.5%). One set far under 80% (30 campaigns:
		// 7 points of sampling error) is a plan that promises what it
		// cannot reach.
		mean := stat.Mean(powers, nil)
		if mean < 0.72 || mean > 0.93 || slices.Min(powers) < 0.5 {
			t.Errorf("%s: the planned schedules detect their stated MDE in %.1f%% of campaigns over %d sets of records (%s), want about 80%%", h.name, 100*mean, sets, percents(powers))
		}
	}
	t.Logf("\n%s", table.String())
}

// planAndRun plans the host's asked MDE from the host model, runs the
// planned schedule's campaigns on the host with the test arm faster by
// the planned MDE, writes the table's row and returns the power.
func (h simHost) planAndRun(t *testing.T, table *strings.Builder, model planner.Host, from string, n int, seed uint64, full bool) float64 {
	t.Helper()
	p := planner.New(simScenario(t, "{min: 5, max: 10, every: 5}", 1), model, planner.Options{MDE: h.mde})
	a := p.Ask
	if a == nil || a.Reach == nil || !a.InBudget || a.Reach.MDE() > h.mde {
		t.Fatalf("%s, %s: no schedule reaches %.0f%%: %+v", h.name, from, 100*h.mde, a)
	}
	r := *a.Reach
	planned := simScenario(t, roundsYAML(r), r.Requests)
	at := h.run(t, planned, 1+r.Up, n, seed+1)
	stated := "—"
	if full {
		stated = fmt.Sprintf("%.2f%%", 100*h.run(t, planned, 1, n, seed+2).mde)
	}
	fmt.Fprintf(table, "| %s | %s | %.2f%%, %.2f%% | %.0f%% | rounds %s, requests %d | %.2f%% / %s | %.1f%% | %.1f |\n", h.name, from,
		100*planner.CV(model.Between), 100*planner.CV(model.WithinTok/simTokens), 100*h.mde, roundsYAML(r), r.Requests, 100*r.Up, stated, 100*at.power, at.rounds)
	return at.power
}

// percents writes shares as percentages: "74.0%, 96.7%".
func percents(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%.1f%%", 100*x)
	}
	return strings.Join(out, ", ")
}
