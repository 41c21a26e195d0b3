package main

import (
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/perf/benchfmt"

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
			return writeBenchstat(c.App.Writer, rec, strings.TrimSuffix(filepath.Base(c.Args().First()), ".md"))
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
	res := &benchfmt.Result{Iters: 1}
	for _, kv := range [][2]string{{"goos", rec.Machine.OS}, {"goarch", rec.Machine.Arch}, {"cpu", rec.Machine.CPUModel},
		{"decodebench-record", stem}, {"verdict", string(rec.Verdict)}, {"engine-sha256", rec.Engine.SHA256}} {
		res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(oneLine(kv[1])), File: true})
	}
	var metrics []schema.Metric
	for _, m := range schema.Metrics {
		if m.Bench != "" {
			metrics = append(metrics, m)
		}
	}
	sort.SliceStable(metrics, func(i, j int) bool { return metrics[i].Name == rec.Scenario.Primary })
	order := []string{rec.Scenario.Baseline}
	for _, a := range rec.Scenario.Arms {
		if a.Name != rec.Scenario.Baseline {
			order = append(order, a.Name)
		}
	}
	bw := benchfmt.NewWriter(w)
	for _, arm := range order {
		for i, r := range rec.Runs {
			if r.Arm != arm || !r.OK() || (i < len(rec.Analysis.Marks) && rec.Analysis.Marks[i].Dropped) {
				continue
			}
			res.Name = benchfmt.Name(camel(rec.Feature) + "/arm=" + benchName.ReplaceAllString(r.Arm, "_"))
			res.Values = res.Values[:0]
			for _, m := range metrics {
				if v, ok := r.Metrics[m.Name]; ok {
					res.Values = append(res.Values, benchfmt.Value{Value: v / m.BenchDiv, Unit: m.Bench})
				}
			}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

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
