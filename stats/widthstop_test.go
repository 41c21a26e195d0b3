package stats_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/schema"
)

// widthStop runs one A/A campaign of an until_ci_width schedule the way
// the harness does (harness.scheduleDone): from min rounds on, a round at
// a time, it stops once every arm's ratio interval (analysis.
// WidestInterval) is narrower than the width, or at max; then reports
// whether the record claims a change of the test arm, and the rounds run.
func widthStop(t testing.TB, spec campaignSpec, seed uint64) (claim bool, rounds int) {
	in := simInput(t, spec, seed)
	r := spec.policy.Schedule.Rounds
	arms := len(in.Policy.Arms)
	for n := r.Min; ; n++ {
		sub := in
		sub.Runs = in.Runs[:n*arms]
		sub.Campaign.Planned = n * arms
		if w, _ := analysis.WidestInterval(sub); w < float64(r.UntilCIWidth) || n >= r.Max {
			return outcomeOf(analysis.Analyze(sub), 1).claim, n
		}
	}
}

// A schedule that stops on its intervals' width stops when its noise
// happens to look small, which is when a difference looks large, and its
// record judges a claim at the whole alpha: its false claims run above
// alpha (what validate's warning about until_ci_width quotes). Opt-in, as
// the audit: go test -run TestWidthStopTable -v ./stats -args
// -audit.campaigns=1000.
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
