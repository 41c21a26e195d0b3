package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a record's raw samples in another format",
		ArgsUsage: "RECORD.md",
		Description: `--format benchstat writes one Go benchmark line per measured run, with the arm as a
sub-benchmark name and one value per metric, so the samples can be fed to benchstat:

    decodebench export --format benchstat docs/benchmark_results/X.md > x.txt
    benchstat -col /arm x.txt

Only the record's data block is read; nothing in it is executed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "benchstat", Usage: "output format (benchstat)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("export: name one record")
			}
			if f := c.String("format"); f != "benchstat" {
				return usageError("export: unknown format %q (known: benchstat)", f)
			}
			rec, err := recorder.ParseFile(c.Args().First())
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			return writeBenchstat(os.Stdout, rec)
		},
	}
}

var benchName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// writeBenchstat writes the Go benchmark format: configuration lines
// (key: value) first, then "BenchmarkName/arm=X 1 v1 unit1 v2 unit2 …" per
// finished run. Units use benchstat's conventions: higher-is-better rates
// as tok/s, latencies as sec/op-like ms and s units.
func writeBenchstat(w io.Writer, rec *recorder.Record) error {
	name := "Benchmark" + camel(rec.Feature)
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\ncpu: %s\n", rec.Machine.OS, rec.Machine.Arch, rec.Machine.CPUModel)
	fmt.Fprintf(w, "decodebench-record: %s-%s-%s\nverdict: %s\nengine-sha256: %s\n", rec.Feature, rec.Hardware, rec.Date, rec.Verdict, rec.Engine.SHA256)
	metrics := append([]string{}, scenarios.MetricNames...)
	sort.SliceStable(metrics, func(i, j int) bool { return metrics[i] == rec.Scenario.Primary })
	for _, r := range rec.Runs {
		if !r.OK() || r.Dropped {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s/arm=%s 1", name, benchName.ReplaceAllString(r.Arm, "_"))
		for _, m := range metrics {
			if v, ok := r.Metrics[m]; ok {
				fmt.Fprintf(&b, " %g %s", v, benchUnit(m))
			}
		}
		fmt.Fprintln(w, b.String())
	}
	return nil
}

func benchUnit(metric string) string {
	switch metric {
	case scenarios.DecodeTokS:
		return "decode-tok/s"
	case scenarios.E2ETokS:
		return "e2e-tok/s"
	case scenarios.TTFTms:
		return "ttft-ms"
	case scenarios.WallS:
		return "wall-sec"
	}
	return metric
}

// camel turns a feature slug (spec-draft) into a benchmark name (SpecDraft).
func camel(slug string) string {
	var b strings.Builder
	for _, part := range strings.Split(slug, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
