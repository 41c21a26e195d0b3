package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
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
			rec, err := recorder.Load(c.Args().First())
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			return writeBenchstat(os.Stdout, rec, strings.TrimSuffix(filepath.Base(c.Args().First()), ".md"))
		},
	}
}

var benchName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// writeBenchstat writes the Go benchmark format: configuration lines
// (key: value) first, the record's file stem among them, then
// "BenchmarkName/arm=X 1 v1 unit1 v2 unit2 …" per finished run, the
// baseline's runs first: benchstat takes the first value of a column as
// its base. Times are written in seconds with -sec units, which benchstat
// scales.
func writeBenchstat(w io.Writer, rec *schema.Record, stem string) error {
	name := "Benchmark" + camel(rec.Feature)
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\ncpu: %s\n", oneLine(rec.Machine.OS), oneLine(rec.Machine.Arch), oneLine(rec.Machine.CPUModel))
	fmt.Fprintf(w, "decodebench-record: %s\nverdict: %s\nengine-sha256: %s\n", oneLine(stem), rec.Verdict, oneLine(rec.Engine.SHA256))
	var metrics []string
	for _, m := range schema.Metrics {
		if m.Bench != "" {
			metrics = append(metrics, m.Name)
		}
	}
	sort.SliceStable(metrics, func(i, j int) bool { return metrics[i] == rec.Scenario.Primary })
	order := []string{rec.Scenario.Baseline}
	for _, a := range rec.Scenario.Arms {
		if a.Name != rec.Scenario.Baseline {
			order = append(order, a.Name)
		}
	}
	var runs []schema.Run
	for _, arm := range order {
		for i, r := range rec.Runs {
			if r.Arm != arm || !r.OK() || (i < len(rec.Analysis.Marks) && rec.Analysis.Marks[i].Dropped) {
				continue
			}
			runs = append(runs, r)
		}
	}
	for _, r := range runs {
		var b strings.Builder
		fmt.Fprintf(&b, "%s/arm=%s 1", name, benchName.ReplaceAllString(r.Arm, "_"))
		for _, m := range metrics {
			if v, ok := r.Metrics[m]; ok {
				fmt.Fprintf(&b, " %g %s", v/schema.MetricOf(m).BenchDiv, benchUnit(m))
			}
		}
		fmt.Fprintln(w, b.String())
	}
	return nil
}

// benchUnit is the benchfmt unit export writes for a metric.
func benchUnit(metric string) string { return schema.MetricOf(metric).Bench }

// oneLine keeps a configuration value on its line.
func oneLine(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

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
