package stats_test

// The audit's table (issue 33): every host model of hostmodels_test.go
// under a rule, ten fixed rounds and a sequential schedule of looks every
// five rounds from five to thirty. go test -run TestAuditTable -v
// -audit.campaigns=3000 ./stats prints it.

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

var (
	auditCampaigns = flag.Int("audit.campaigns", 0, "campaigns per cell of TestAuditTable (0: skip it)")
	auditRule      = flag.String("audit.rule", string(schema.RuleCurrent), "the rule TestAuditTable judges by")
	auditModel     = flag.String("audit.model", "", "only the host models whose name contains this")
)

// auditResult is one model's row.
type auditResult struct {
	model                          string
	fixedClaims, seqClaims         float64
	fixedCoverage, seqCoverage     float64
	mde, powerAtMDE, coverageAtMDE float64
	seqRounds                      float64
	// fixedRun and seqRun are, for a model whose effect depends on the
	// rounds run (hostModel.over), the A/A campaigns that claim a change
	// whose interval leaves out the test arm's true effect over the rounds
	// the campaign ran; NaN for other models (their false claims).
	fixedRun, seqRun float64
	// fixedRunCov and seqRunCov are the A/A campaigns whose interval holds
	// that effect over the rounds run.
	fixedRunCov, seqRunCov float64
}

func audit(t testing.TB, m *hostModel, rule schema.Rule, campaigns int, seed uint64) auditResult {
	fixed := simPolicy(t, 10, "")
	seq := simPolicyRounds(t, "{min: 5, max: 30, every: 5}", "")
	spec := func(p scenarios.Policy, effect float64) campaignSpec {
		s := campaignSpec{policy: p, host: m.h, rule: rule, model: m}
		if effect != 1 {
			s.effects = map[string]float64{"test": effect}
		}
		return s
	}
	null := runParallel(t, spec(fixed, 1), campaigns, 1, seed)
	sNull := runParallel(t, spec(seq, 1), campaigns, 1, seed+2)
	res := auditResult{model: m.name, fixedClaims: null.claims, seqClaims: sNull.claims, fixedCoverage: null.covered, seqCoverage: sNull.covered,
		mde: median(null.mde), powerAtMDE: math.NaN(), coverageAtMDE: math.NaN(), seqRounds: sNull.rounds, fixedRun: math.NaN(), seqRun: math.NaN()}
	if m.over != nil {
		res.fixedRun, res.fixedRunCov = claimsOverRun(t, spec(fixed, 1), campaigns, seed)
		res.seqRun, res.seqRunCov = claimsOverRun(t, spec(seq, 1), campaigns, seed+2)
	}
	if !math.IsInf(res.mde, 1) { // most campaigns state an MDE
		at := runParallel(t, spec(fixed, 1+res.mde), campaigns, 1+res.mde, seed+1)
		res.powerAtMDE, res.coverageAtMDE = at.right, at.covered
	}
	return res
}

// claimsOverRun is the share of A/A campaigns (the seeds runParallel
// gives them) that claim a change of the test arm whose interval leaves
// out its true effect over the rounds the campaign ran (hostModel.over),
// and the share whose interval holds it.
func claimsOverRun(t testing.TB, spec campaignSpec, campaigns int, seed uint64) (claims, coverage float64) {
	planned := spec.policy.Schedule.Rounds.Max // simInput draws this many rounds
	arms := len(spec.policy.Arms)
	claimed, covered := make([]bool, campaigns), make([]bool, campaigns)
	workers.ForEach(campaigns, func(i int) {
		a := simulate(t, spec, seed*100000+uint64(i))
		rounds := planned
		if q := a.Sequential; q != nil && len(q.Looks) > 0 {
			rounds = q.Looks[len(q.Looks)-1]
		}
		meanPos := float64(rounds*arms-1) / 2 / float64(planned*arms)
		o := outcomeOf(a, spec.model.over(meanPos))
		claimed[i], covered[i] = o.claim && !o.covered, o.covered
	})
	share := func(bs []bool) float64 {
		n := 0
		for _, b := range bs {
			if b {
				n++
			}
		}
		return float64(n) / float64(campaigns)
	}
	return share(claimed), share(covered)
}

func auditTable(rule schema.Rule, campaigns int, res []auditResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %q, %d campaigns a cell\n", rule, campaigns)
	b.WriteString("| host model | false claims fixed / sequential | coverage fixed / sequential (at MDE) | stated MDE → power at it | mean rounds (sequential, A/A) |\n|---|---|---|---|---|\n")
	for _, r := range res {
		claims := fmt.Sprintf("%.1f%% / %.1f%%", 100*r.fixedClaims, 100*r.seqClaims)
		if !math.IsNaN(r.seqRun) {
			claims += fmt.Sprintf(" (against its effect over the rounds run: %.1f%% / %.1f%%, intervals holding it %.1f%% / %.1f%%)",
				100*r.fixedRun, 100*r.seqRun, 100*r.fixedRunCov, 100*r.seqRunCov)
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f%% / %.1f%% (%.1f%%) | %s | %.1f |\n", r.model, claims,
			100*r.fixedCoverage, 100*r.seqCoverage, 100*r.coverageAtMDE, mdeCell(r.mde, r.powerAtMDE), r.seqRounds)
	}
	return b.String()
}

func TestAuditTable(t *testing.T) {
	if *auditCampaigns == 0 {
		t.Skip("-audit.campaigns not set")
	}
	var res []auditResult
	for i := range auditModels {
		m := &auditModels[i]
		if !strings.Contains(m.name, *auditModel) {
			continue
		}
		res = append(res, audit(t, m, schema.Rule(*auditRule), *auditCampaigns, 3300+10*uint64(i)))
		t.Logf("%s", auditTable(schema.Rule(*auditRule), *auditCampaigns, res[len(res)-1:]))
	}
	t.Logf("\n%s", auditTable(schema.Rule(*auditRule), *auditCampaigns, res))
}

// The arm that drifts alone (the audit's model): a sequential campaign
// that stops early measured the arm over its first rounds, where it really
// differed; its claims that leave out the arm's effect over the rounds it
// ran stay within alpha (1.0% of 3,000 in the reference's table; here
// 400 campaigns, the audit's seeds, with room for their sampling error).
func TestDriftAloneClaimsHoldOverTheRoundsRun(t *testing.T) {
	var m *hostModel
	for i := range auditModels {
		if auditModels[i].over != nil {
			m = &auditModels[i]
		}
	}
	seq := simPolicyRounds(t, "{min: 5, max: 30, every: 5}", "")
	spec := campaignSpec{policy: seq, host: m.h, rule: schema.RuleCurrent, model: m}
	claims, coverage := claimsOverRun(t, spec, 400, 3300+10*3+2)
	t.Logf("%s, sequential: %.1f%% claims leave out the effect over the rounds run, %.1f%% of intervals hold it", m.name, 100*claims, 100*coverage)
	if claims > 0.05 || coverage < 0.93 {
		t.Errorf("claims %.3f (at most 0.05), coverage %.3f (at least 0.93)", claims, coverage)
	}
}
