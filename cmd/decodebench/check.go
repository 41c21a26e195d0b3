package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// recordDataDir is the data folder a record's campaign wrote:
// <folder>/data/<name>.
func recordDataDir(record string) string {
	return filepath.Join(filepath.Dir(record), "data", strings.TrimSuffix(filepath.Base(record), ".md"))
}

// cacheFlags choose where check results are kept (check and index).
var cacheFlags = []cli.Flag{
	&cli.StringFlag{Name: "cache-dir", Usage: "where check results are kept by content (default: the user's cache folder, decodebench/check; never a folder others may write, nor one in a git work tree)"},
	&cli.BoolFlag{Name: "no-cache", Usage: "check every record afresh and keep nothing"},
}

// fewerCollections lets the heap grow to four times what is live before
// the garbage collector runs (GOGC=300), unless GOGC is set: check and
// index over a thousand records spent a third of their time collecting
// at the default, for about 170 MB at most. Past a thousand records the
// heap is held near checkMemoryLimit (a soft limit, unless GOMEMLIMIT is
// set): a cold index of 3,000 records peaked at 667 MB resident without
// it, at 405 MB with it, in about the same time (28 s and 32 s on the
// 2-core VM; at 256 MiB, 280 MB in 33 s).
func fewerCollections() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(checkMemoryLimit)
	}
}

// checkMemoryLimit is the heap check and index hold themselves near.
const checkMemoryLimit = 384 << 20

// checkCache is the cache the flags name; nil with --no-cache, or with a
// warning when no folder fit to hold it can be had (review.OpenCheckCache).
func checkCache(c *cli.Context) *review.CheckCache {
	fewerCollections()
	if c.Bool("no-cache") {
		return nil
	}
	cache, err := review.OpenCheckCache(c.String("cache-dir"))
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "decodebench: check cache not used: %s\n", termsafe.String(err.Error()))
		return nil
	}
	return cache
}

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "lint records: every problem, with the section it is in",
		ArgsUsage: "RECORD.md...",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "headline", Usage: "with one record that passes, write its verdict and headline table (as run --github-summary does) to `FILE` and exit with the status of the run that wrote it"},
		}, cacheFlags...),
		Description: `check reads each record's data block, its data folder and its stored scenario, and
reports every problem: missing or empty sections, files whose sha256 differs from the one
the record names, outputs that do not match their hash, a data block that a fresh analysis
of runs.jsonl does not reproduce (verdict included), and Markdown that does not follow from
the data block and the runs (a number edited by hand anywhere is caught).
Nothing in a record or its data folder is executed.

Records are checked on every CPU at once. Each result is kept in a cache under a key that
hashes the record's bytes, every file of its data folder and this decodebench executable, so
a record checked before is not analysed again until a byte of it, of its data or of
decodebench changes (--no-cache checks afresh; --cache-dir moves the cache). Once a day
the cache is pruned: the entries of records that are gone, all but the two most recently
used entries of each record, anything unused for 30 days, and the least recently used
beyond 256 MiB.

Exit 0 when every record passes, 1 when one has a problem.

With --headline FILE and one record that passes, FILE is written with the record's
verdict and headline table, as run --github-summary writes them, and check exits with
the status of the run that wrote the record (0 VALID, 1 FAILED, 2 INCONCLUSIVE or
UNVERIFIED, 3 REJECTED, 130 or 128+signal INCOMPLETE): what a CI job reports of a
campaign comes from the record that passed, not from files the campaign could have
written. A record with a problem writes nothing (exit 1), nor does one judged under
another statistical rule than this decodebench's (method.rule): the campaign it reports
was run by this binary.

A record written under an earlier rule is judged by it; where today's rule judges its
runs otherwise (the verdict, or an arm), check prints a note under it.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("check: name at least one record")
			}
			if c.String("headline") != "" && c.NArg() != 1 {
				return usageError("check --headline: name one record")
			}
			start := time.Now()
			var paths []string
			for _, path := range c.Args().Slice() {
				if filepath.Base(path) != review.IndexFile {
					paths = append(paths, path)
				}
			}
			cache := checkCache(c)
			results := review.CheckAllProgress(paths, cache, newRecordsProgress(c.App.ErrWriter, "check", time.Now))
			cache.MaybePrune(time.Now())
			bad, cached, next := 0, 0, 0
			for _, path := range c.Args().Slice() {
				shown := termsafe.String(path) // a file name is shown, never acted on
				if filepath.Base(path) == review.IndexFile {
					fmt.Fprintf(c.App.Writer, "skip %s (the index that decodebench index writes, not a record)\n", shown)
					continue
				}
				r := results[next]
				next++
				if r.Cached {
					cached++
				}
				if len(r.Problems) == 0 {
					fmt.Fprintf(c.App.Writer, "ok   %s\n", shown)
					printNotes(c, r.Notes)
					continue
				}
				bad++
				fmt.Fprintf(c.App.Writer, "FAIL %s: %d problem(s)\n", shown, len(r.Problems))
				if harness.Running(recordDataDir(path)) {
					fmt.Fprintf(c.App.Writer, "  a campaign is running in its data folder now (a run, or a resume of it): its record is rewritten when it ends; check it then\n")
				}
				for _, p := range r.Problems {
					fmt.Fprintf(c.App.Writer, "  %s\n", p)
				}
				printNotes(c, r.Notes)
			}
			fmt.Fprintf(c.App.ErrWriter, "checked %d record(s) in %s (%d from the cache)\n", c.NArg(), time.Since(start).Round(time.Millisecond), cached)
			if bad > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%d of %d record(s) have problems", bad, c.NArg())}
			}
			if f := c.String("headline"); f != "" {
				return writeHeadline(f, c.Args().First())
			}
			return nil
		},
	}
}

// printNotes prints a record's notes under its line.
func printNotes(c *cli.Context, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(c.App.Writer, "  note: %s\n", n)
	}
}

// writeHeadline writes the headline of the record at path, which passed
// check, to file, and returns the exit status of the run that wrote it.
// A record judged under another rule than today's is refused (exit 1,
// nothing written): the campaign a CI job reports was run by this
// decodebench, which writes today's rule, and check re-derives a record
// by the rule it names, so a record relabelled to an older rule passed
// with that rule's verdict.
//
// The headline's summary counts the record's runs, so the record is read
// with its runs' figures (recorder.LoadFigures): from its page alone, every
// job summary and pull request comment said "0 measured, 0 failed".
func writeHeadline(file, path string) error {
	rec, err := recorder.LoadFigures(path)
	if err != nil {
		return err
	}
	if rec.Method.Rule != schema.RuleCurrent {
		return &exitError{code: 1, msg: fmt.Sprintf("check --headline: %s is judged under rule %q, not this decodebench's %s: a campaign it ran names its own rule; no headline written",
			termsafe.String(path), termsafe.String(review.RuleName(rec.Method.Rule)), schema.RuleCurrent)}
	}
	var b bytes.Buffer
	if err := recorder.Headline(&b, rec, path); err != nil {
		return err
	}
	if err := safefs.WriteFile(file, b.Bytes(), 0o644); err != nil {
		return err
	}
	return exitWith(rec.ExitCode())
}
