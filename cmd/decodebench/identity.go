package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/identity"
	"github.com/decodebench/decodebench/recorder"
)

func identityCommand() *cli.Command {
	return &cli.Command{
		Name:      "identity",
		Usage:     "compare stored outputs offline, without rerunning anything",
		ArgsUsage: "A [B]",
		Description: `A and B are campaigns' runs.jsonl files, or records (their data folder's runs.jsonl is read).

With one campaign: every arm's outputs are compared with the --against arm's (default: the
baseline, or the first arm). With two: each arm present in both (or --arm) is compared
across the two campaigns, A's first output against each of B's.
Tokens are compared where the runs stored every token id; bytes of text always.
Exit 0 when identical, 3 when any output diverges, 2 when undecidable (empty outputs, no
runs, a baseline that disagrees with itself).`,
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
			a, err := loadOutputs(c.Args().Get(0), patterns)
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			only := c.StringSlice("arm")
			code := 0
			report := func(label string, ref, outs []identity.Output) {
				switch {
				case len(ref) == 0 || len(outs) == 0:
					fmt.Printf("%s: undecidable: no finished runs\n", label)
					code = max(code, 2)
					return
				}
				for i, o := range append(append([]identity.Output{}, ref[:1]...), outs...) {
					if why := identity.Empty(o); why != "" {
						fmt.Printf("%s: undecidable: output %d: %s\n", label, i, why)
						code = max(code, 2)
						return
					}
				}
				diverging := 0
				var first identity.Divergence
				for _, o := range outs {
					d := identity.Compare(ref[0], o)
					if !d.Identical {
						if diverging == 0 {
							first = d
						}
						diverging++
					}
				}
				if diverging == 0 {
					fmt.Printf("%s: identical in %d of %d outputs\n", label, len(outs), len(outs))
					return
				}
				fmt.Printf("%s: DIVERGES in %d of %d outputs; first: %s\n", label, diverging, len(outs), first)
				code = 3
			}
			if c.NArg() == 1 {
				against := c.String("against")
				if against == "" {
					against = a.baseline
				}
				if ag := identity.SelfAgreement(a.outputs[against]); !ag.Agree {
					fmt.Printf("%s (reference) does not agree with itself: %s\n", against, ag)
					code = 2
				}
				for _, arm := range a.arms {
					if arm == against || (len(only) > 0 && !contains(only, arm)) {
						continue
					}
					report(fmt.Sprintf("%s vs %s", arm, against), a.outputs[against], a.outputs[arm])
				}
			} else {
				b, err := loadOutputs(c.Args().Get(1), patterns)
				if err != nil {
					return &exitError{code: 1, msg: err.Error()}
				}
				for _, arm := range a.arms {
					if _, ok := b.outputs[arm]; !ok || (len(only) > 0 && !contains(only, arm)) {
						continue
					}
					report(fmt.Sprintf("%s: B vs A", arm), a.outputs[arm], b.outputs[arm])
				}
			}
			if code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

type campaignOutputs struct {
	arms     []string
	baseline string
	outputs  map[string][]identity.Output
}

// loadOutputs reads the runs of a runs.jsonl file, or of the data folder of
// a record, without executing anything from either.
func loadOutputs(path string, patterns []*regexp.Regexp) (*campaignOutputs, error) {
	jsonl, baseline := path, ""
	if strings.HasSuffix(path, ".md") {
		rec, err := recorder.ParseFile(path)
		if err != nil {
			return nil, err
		}
		if strings.Contains(rec.DataDir, "..") || filepath.IsAbs(rec.DataDir) {
			return nil, fmt.Errorf("%s: data folder %q leaves the record's folder", path, rec.DataDir)
		}
		jsonl = filepath.Join(filepath.Dir(path), rec.DataDir, "runs.jsonl")
		baseline = rec.Scenario.Baseline
	}
	runs, err := harness.ReadJournal(jsonl)
	if err != nil {
		return nil, err
	}
	out := &campaignOutputs{baseline: baseline, outputs: map[string][]identity.Output{}}
	for _, r := range runs {
		if !r.OK() {
			continue
		}
		if _, seen := out.outputs[r.Arm]; !seen {
			out.arms = append(out.arms, r.Arm)
		}
		text, stripped := identity.Strip(r.Output, patterns)
		o := identity.Output{Text: text, Reasoning: r.Reasoning, Tokens: r.TokenIDs}
		if len(stripped) > 0 {
			o.Tokens = nil
		}
		out.outputs[r.Arm] = append(out.outputs[r.Arm], o)
	}
	if len(out.arms) == 0 {
		return nil, fmt.Errorf("%s: no finished runs", jsonl)
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
