package main

import (
	"fmt"
	"regexp"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func identityCommand() *cli.Command {
	return &cli.Command{
		Name:      "identity",
		Usage:     "compare stored outputs offline, without rerunning anything",
		ArgsUsage: "A [B]",
		Description: `A and B are records (their data folder's runs.jsonl is read and checked against the
record's hash) or campaigns' runs.jsonl files.

With one campaign: every arm's outputs are compared with the --against arm's (default: the
baseline, or the first arm), exactly as a campaign's exactness check does. With two: each arm
present in both (or --arm) is compared across the two campaigns, A's outputs as the
reference (which must agree with themselves).
Tokens are compared where the runs stored every token id; bytes of text always.
Exit 0 when identical, 3 when any output diverges, 2 when undecidable (empty outputs, no
runs, a reference that disagrees with itself).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "against", Usage: "the reference arm (one campaign)"},
			&cli.StringSliceFlag{Name: "arm", Usage: "compare only these arms"},
			&cli.StringSliceFlag{Name: "strip", Usage: "regular expression removed (line-wise) before comparing; repeatable"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 || c.NArg() > 2 {
				return usageError("identity: name one or two campaigns")
			}
			var patterns []*regexp.Regexp
			for _, s := range c.StringSlice("strip") {
				re, err := regexp.Compile(s)
				if err != nil {
					return &exitError{code: 1, msg: fmt.Sprintf("identity: --strip %q: %v", s, err)}
				}
				patterns = append(patterns, re)
			}
			a, err := loadCampaign(c.Args().Get(0))
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			only := c.StringSlice("arm")
			var checks []*analysis.Identity
			if c.NArg() == 1 {
				against := c.String("against")
				if against == "" {
					against = a.baseline
				}
				var compare []string
				for _, arm := range a.arms {
					if arm != against && (len(only) == 0 || contains(only, arm)) {
						compare = append(compare, arm)
					}
				}
				checks = append(checks, identityOf(a.runs, against, compare, patterns))
			} else {
				b, err := loadCampaign(c.Args().Get(1))
				if err != nil {
					return &exitError{code: 1, msg: err.Error()}
				}
				for _, arm := range a.arms {
					if !contains(b.arms, arm) || (len(only) > 0 && !contains(only, arm)) {
						continue
					}
					runs := append(relabel(a.runs, arm, "A:"+arm), relabel(b.runs, arm, "B:"+arm)...)
					checks = append(checks, identityOf(runs, "A:"+arm, []string{"B:" + arm}, patterns))
				}
			}
			code := 0
			for _, id := range checks {
				p := scenarios.Policy{Exactness: &scenarios.ExactnessPolicy{Strip: patterns}}
				rec := recorder.FromAnalysis(analysis.Analysis{Identity: id}, nil, p)
				for _, l := range recorder.IdentityLines(rec.Identity) {
					fmt.Println(l)
				}
				switch id.Verdict {
				case schema.Divergent:
					code = max(code, 3)
				case schema.Identical:
				default:
					code = max(code, 2)
				}
			}
			if len(checks) == 0 {
				fmt.Println("no arm to compare")
				code = 2
			}
			if code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

// identityOf runs the analysis' identity check over stored runs.
func identityOf(runs []schema.Run, against string, compare []string, strip []*regexp.Regexp) *analysis.Identity {
	p := scenarios.Policy{Baseline: against, Exactness: &scenarios.ExactnessPolicy{Against: against, Compare: compare, Strip: strip}}
	return analysis.Analyze(recorder.AnalysisInput(p, runs, schema.Method{})).Identity
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

type storedCampaign struct {
	arms     []string
	baseline string
	runs     []schema.Run
}

// loadCampaign reads the runs of a record (checked against its hash) or of
// a runs.jsonl file, without executing anything from either.
func loadCampaign(path string) (*storedCampaign, error) {
	out := &storedCampaign{}
	if isRecordPath(path) {
		rec, err := recorder.Load(path)
		if err != nil {
			return nil, err
		}
		out.runs, out.baseline = rec.Runs, rec.Scenario.Baseline
	} else {
		runs, err := recorder.ReadRuns(path)
		if err != nil {
			return nil, err
		}
		out.runs = runs
	}
	for _, r := range out.runs {
		if r.OK() && !contains(out.arms, r.Arm) {
			out.arms = append(out.arms, r.Arm)
		}
	}
	if len(out.arms) == 0 {
		return nil, fmt.Errorf("%s: no finished runs", path)
	}
	if out.baseline == "" {
		out.baseline = out.arms[0]
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
