package stats_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/schema"
)

// widthStop runs one A/A campaign of an until_ci_width schedule the way
// the harness does (harness.scheduleDone): under a rule that runs it in
// two stages, as analysis.PlanWidth plans and stops it;
// under an earlier rule, from min rounds on, a round at a time, until
// every arm's ratio interval (analysis.WidestInterval) is narrower than
// the width, or max. It reports whether the record claims a change of the
// test arm, and the rounds run.
func widthStop(t testing.TB, spec campaignSpec, seed uint64) (claim bool, rounds int) {
	in := simInput(t, spec, seed)
	r := spec.policy.Schedule.Rounds
	arms := len(in.Policy.Arms)
	if in.Campaign.Rule.WidthStaged() {
		// In two stages (harness.twoStageDone): the rounds planned once
		// from the first min, and run to that.
		first := in
		first.Runs = in.Runs[:r.Min*arms]
		first.Campaign.Planned = r.Min * arms
		n := analysis.PlanWidth(first).Planned
		sub := in
		sub.Runs = in.Runs[:n*arms]
		sub.Campaign.Planned = n * arms
		return outcomeOf(analysis.Analyze(sub), 1).claim, n
	}
	for n := r.Min; ; n++ {
		sub := in
		sub.Runs = in.Runs[:n*arms]
		sub.Campaign.Planned = n * arms
		if w, _ := analysis.WidestInterval(sub); w < float64(r.UntilCIWidth) || n >= r.Max {
			return outcomeOf(analysis.Analyze(sub), 1).claim, n
		}
	}
}

// A schedule that stops on its intervals' width, run a round at a time
// (robust-13 and before), stopped when its noise happened to look small,
// which is when a difference looks large, and its record judged a claim
// at the whole alpha: its false claims ran above alpha. In two stages
// (robust-14) they hold it. Opt-in, as the audit: go test -run
// TestWidthStopTable -v ./stats -args -audit.campaigns=1000
// [-audit.rule=robust-13].
func TestWidthStopTable(t *testing.T) {
	if *auditCampaigns == 0 {
		t.Skip("-audit.campaigns not set")
	}
	type row struct {
		name  string
		host  host
		model *hostModel
		width string
	}
	model := func(sub string) *hostModel {
		for i := range auditModels {
			if strings.Contains(auditModels[i].name, sub) {
				return &auditModels[i]
			}
		}
		t.Fatalf("no host model %q", sub)
		return nil
	}
	rows := []row{
		{name: "CV 2%", host: quietHost, width: "2%"},
		{name: "CV 2%", host: quietHost, width: "3%"},
		{name: "CV 9%", host: thisMachine, width: "12%"},
		{name: "test arm noisier than the baseline", model: model("noisier"), width: "6%"},
		{name: "heavy-tailed noise", model: model("heavy"), width: "3%"},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rule %q, A/A, %d campaigns a row\n| host model | until_ci_width | false claims | mean rounds |\n|---|---|---|---|\n", *auditRule, *auditCampaigns)
	for k, rw := range rows {
		spec := campaignSpec{policy: simPolicyRounds(t, "{min: 5, max: 30, until_ci_width: "+rw.width+"}", ""), host: rw.host, model: rw.model, rule: schema.Rule(*auditRule)}
		if rw.model != nil {
			spec.host = rw.model.h
		}
		claims, rounds := make([]bool, *auditCampaigns), make([]int, *auditCampaigns)
		workers.ForEach(*auditCampaigns, func(i int) { claims[i], rounds[i] = widthStop(t, spec, uint64(9600+k)*100000+uint64(i)) })
		n, sum := 0, 0
		for i, c := range claims {
			if c {
				n++
			}
			sum += rounds[i]
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f%% | %.1f |\n", rw.name, rw.width, 100*float64(n)/float64(*auditCampaigns), float64(sum)/float64(*auditCampaigns))
	}
	t.Logf("\n%s", b.String())
}

// In two stages (robust-14), a width schedule's claims hold alpha on the
// host where the schedule run a round at a time claimed most (the test
// arm four times noisier than the baseline: 9.7% of 3,000 A/A campaigns
// under robust-13 at alpha 5%): 1,500 seeded A/A campaigns of {min: 5,
// max: 30, until_ci_width: 6%}, within two standard errors of 5% (6.1%).
func TestWidthStopHoldsAlpha(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	var m *hostModel
	for i := range auditModels {
		if strings.Contains(auditModels[i].name, "noisier") {
			m = &auditModels[i]
		}
	}
	spec := campaignSpec{policy: simPolicyRounds(t, "{min: 5, max: 30, until_ci_width: 6%}", ""), host: m.h, model: m, rule: schema.RuleCurrent}
	const n = 1500
	claims := make([]bool, n)
	workers.ForEach(n, func(i int) { claims[i], _ = widthStop(t, spec, 9650*100000+uint64(i)) })
	c := 0
	for _, x := range claims {
		if x {
			c++
		}
	}
	rate := float64(c) / n
	t.Logf("%d of %d A/A campaigns claim a change (%.1f%%)", c, n, 100*rate)
	if rate > 0.05+2*math.Sqrt(0.05*0.95/n) {
		t.Errorf("%.1f%% of A/A campaigns claim a change, above alpha 5%%", 100*rate)
	}
}
