package main

import (
	"fmt"
	"regexp"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

func identityCommand() *cli.Command {
	return &cli.Command{
		Name:      "identity",
		Usage:     "compare stored outputs offline, without rerunning anything",
		ArgsUsage: "A [B]",
		Description: `A and B are records (their data folder's runs.jsonl is read and checked against the
record's hash; a record that fails check is refused, as decodebench check finds it, through
its cache) or campaigns' runs.jsonl files.

With one campaign: every arm's outputs are compared with the --against arm's (default: the
baseline, or the first arm), exactly as a campaign's exactness check does. With two: each arm
present in both (or --arm) is compared across the two campaigns, A's outputs as the
reference (which must agree with themselves).
Tokens are compared where the runs stored every token id; bytes of text always.
Exit 0 when identical, 3 when any output diverges, 2 when undecidable (empty outputs, no
runs, a reference that disagrees with itself, no arm to compare), 1 when --arm or --against
names no arm of the campaigns.`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "against", Usage: "the reference arm (one campaign)"},
			&cli.StringSliceFlag{Name: "arm", Usage: "compare only these arms"},
			&cli.StringSliceFlag{Name: "strip", Usage: "regular expression removed (line-wise) before comparing; repeatable"},
		}, cacheFlags...),
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
			cache := checkCache(c)
			a, err := review.LoadCampaign(c.Args().Get(0), cache)
			if err != nil {
				return &exitError{code: 1, msg: "identity: " + err.Error()}
			}
			var b *review.Campaign
			if c.NArg() == 2 {
				if b, err = review.LoadCampaign(c.Args().Get(1), cache); err != nil {
					return &exitError{code: 1, msg: "identity: " + err.Error()}
				}
			}
			cache.MaybePrune(time.Now())
			if err := review.IdentityNames(a, b, c.String("against"), c.StringSlice("arm")); err != nil {
				return &exitError{code: 1, msg: "identity: " + err.Error()}
			}
			checks := review.Identity(a, b, c.String("against"), c.StringSlice("arm"), patterns)
			code := 0
			for _, id := range checks {
				for _, l := range recorder.IdentityLines(id) {
					fmt.Fprintln(c.App.Writer, l)
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
				fmt.Fprintln(c.App.Writer, "no arm to compare")
				code = 2
			}
			if code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}
