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
		mde: median(null.mde), powerAtMDE: math.NaN(), coverageAtMDE: math.NaN(), seqRounds: sNull.rounds}
	if !math.IsInf(res.mde, 1) { // most campaigns state an MDE
		at := runParallel(t, spec(fixed, 1+res.mde), campaigns, 1+res.mde, seed+1)
		res.powerAtMDE, res.coverageAtMDE = at.right, at.covered
	}
	return res
}

func auditTable(rule schema.Rule, campaigns int, res []auditResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %q, %d campaigns a cell\n", rule, campaigns)
	b.WriteString("| host model | false claims fixed / sequential | coverage fixed / sequential (at MDE) | stated MDE → power at it | mean rounds (sequential, A/A) |\n|---|---|---|---|---|\n")
	for _, r := range res {
		fmt.Fprintf(&b, "| %s | %.1f%% / %.1f%% | %.1f%% / %.1f%% (%.1f%%) | %s | %.1f |\n", r.model, 100*r.fixedClaims, 100*r.seqClaims,
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
