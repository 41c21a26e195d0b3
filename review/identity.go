package review

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Campaign is a stored campaign as the identity check reads it: its arms
// with a finished run, in order, its baseline and its runs.
type Campaign struct {
	Arms     []string
	Baseline string
	Runs     []schema.Run
}

// LoadCampaign reads the runs of a record (a .md path, refused unless it
// passes check, through cache when it is not nil: LoadChecked) or of a
// runs.jsonl file, without executing anything from either.
func LoadCampaign(path string, cache *CheckCache) (*Campaign, error) {
	var scenario []string
	var runs []schema.Run
	baseline := ""
	if strings.HasSuffix(path, ".md") {
		rec, err := LoadChecked(path, cache)
		if err != nil {
			return nil, err
		}
		runs, baseline = rec.Runs, rec.Scenario.Baseline
		for _, a := range rec.Scenario.Arms {
			scenario = append(scenario, a.Name)
		}
	} else {
		var err error
		if runs, err = recorder.ReadRuns(path); err != nil {
			return nil, err
		}
	}
	out := campaignOf(runs, scenario, baseline)
	if out == nil {
		return nil, fmt.Errorf("%s: no finished runs", path)
	}
	return out, nil
}

// campaignOf is the campaign of runs: its arms every arm the record's
// scenario names (those without a finished run too: the comparison says
// ERROR for them, where leaving them out said the rest was identical,
// exit 0), then those of the finished runs; nil without a finished run.
func campaignOf(runs []schema.Run, scenario []string, baseline string) *Campaign {
	out := &Campaign{Runs: runs, Baseline: baseline}
	for _, a := range scenario {
		if !slices.Contains(out.Arms, a) {
			out.Arms = append(out.Arms, a)
		}
	}
	finished := false
	for _, r := range runs {
		if r.OK() && !slices.Contains(out.Arms, r.Arm) {
			out.Arms = append(out.Arms, r.Arm)
		}
		finished = finished || r.OK()
	}
	if !finished {
		return nil
	}
	if out.Baseline == "" {
		out.Baseline = out.Arms[0]
	}
	return out
}

// Identity compares stored outputs offline, exactly as a campaign's
// exactness check does. Without b, every arm of a (or of only) is compared
// with against (default: a's baseline); with b, each arm present in both
// (or in only) is compared across the two, a's outputs the reference.
func Identity(a, b *Campaign, against string, only []string, strip []*regexp.Regexp) []*schema.IdentityResult {
	picked := func(arm string) bool { return len(only) == 0 || slices.Contains(only, arm) }
	var out []*schema.IdentityResult
	if b == nil {
		if against == "" {
			against = a.Baseline
		}
		var compare []string
		for _, arm := range a.Arms {
			if arm != against && picked(arm) {
				compare = append(compare, arm)
			}
		}
		if len(compare) == 0 && len(only) > 0 {
			return nil // the arms asked for are the reference alone: nothing compared
		}
		return append(out, identityOf(a.Runs, against, compare, strip))
	}
	for _, arm := range a.Arms {
		if slices.Contains(b.Arms, arm) && picked(arm) {
			runs := append(relabel(a.Runs, arm, "A:"+arm), relabel(b.Runs, arm, "B:"+arm)...)
			out = append(out, identityOf(runs, "A:"+arm, []string{"B:" + arm}, strip))
		}
	}
	return out
}

// IdentityNames refuses an against or an arm of only (identity --against,
// --arm) that names no arm of the campaigns, and against with two (A's
// outputs are then every arm's reference): a misspelt arm compared
// nothing, and the reference's agreement with itself read as identical
// (exit 0) beside a record whose draft arm diverged.
func IdentityNames(a, b *Campaign, against string, only []string) error {
	if b != nil && against != "" {
		return fmt.Errorf("--against names one campaign's reference arm; with two, A's outputs are each arm's reference")
	}
	if against != "" && !slices.Contains(a.Arms, against) {
		return fmt.Errorf("--against %q is not an arm of the campaign (its arms: %s)", termsafe.String(against), termsafe.String(strings.Join(a.Arms, ", ")))
	}
	for _, arm := range only {
		for _, c := range []struct {
			name string
			c    *Campaign
		}{{"A", a}, {"B", b}} {
			if c.c != nil && !slices.Contains(c.c.Arms, arm) {
				whose := "the campaign"
				if b != nil {
					whose = "campaign " + c.name
				}
				return fmt.Errorf("--arm %q is not an arm of %s (its arms: %s)", termsafe.String(arm), whose, termsafe.String(strings.Join(c.c.Arms, ", ")))
			}
		}
	}
	return nil
}

// identityOf runs the analysis' identity check over stored runs.
func identityOf(runs []schema.Run, against string, compare []string, strip []*regexp.Regexp) *schema.IdentityResult {
	p := scenarios.Policy{Baseline: against, Exactness: &scenarios.ExactnessPolicy{Against: against, Compare: compare, Strip: strip}}
	return analysis.Analyze(analysis.NewInput(p, analysis.Current(), runs, schema.Method{})).Identity
}

func relabel(runs []schema.Run, arm, as string) []schema.Run {
	var out []schema.Run
	for _, r := range runs {
		if r.Arm == arm {
			r.Arm = as
			out = append(out, r)
		}
	}
	return out
}
