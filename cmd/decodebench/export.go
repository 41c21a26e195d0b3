package main

import (
	"fmt"
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
		ArgsUsage: "RECORD.md | --history DIR --format csv|sqlite",
		Description: `--format benchstat writes one Go benchmark line per measured run, with the arm as a
sub-benchmark name and one value per metric, so the samples can be fed to benchstat:

    decodebench export --format benchstat docs/benchmark_results/X.md > x.txt
    benchstat -col /arm x.txt

Only the record's data block is read; nothing in it is executed.` + historyHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "benchstat", Usage: "output format (benchstat; csv or sqlite with --history)"},
			historyFlags[0], historyFlags[1],
		},
		Action: func(c *cli.Context) error {
			if dir := c.String("history"); dir != "" {
				return exportHistory(c, dir)
			}
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

var (
	benchName   = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)
	benchUnitRE = regexp.MustCompile(`[\s]+`)
)

// writeBenchstat writes the Go benchmark format: a comment naming the
// record, its verdict and engine, then the machine's configuration lines
// (key: value), then "BenchmarkName/arm=X 1 v1 unit1 v2 unit2 …" per
// finished run, the baseline's runs first: benchstat takes the first
// value of a column as its base. Times are written in seconds with -sec
// units, which benchstat scales; the scenario's own metrics follow the
// built-in ones, each as its name and unit.
//
// Only what two records of one machine share is configuration: benchstat
// puts files whose configuration differs in separate tables, so a record
// name or verdict there would keep `benchstat a b` from comparing them.
func writeBenchstat(w io.Writer, rec *schema.Record, stem string) error {
	engines := oneLine(rec.Engine.SHA256)
	if len(rec.Engines) > 0 {
		// Arms that ran their own engines: each arm's binary hash, in
		// the comment too (a configuration line that differs between
		// two records would split benchstat's table).
		var parts []string
		for _, a := range rec.Scenario.Arms {
			parts = append(parts, oneLine(rec.EngineOf(a.Name).SHA256)+" (arm "+oneLine(a.Name)+")")
		}
		engines = strings.Join(parts, ", ")
	}
	if _, err := fmt.Fprintf(w, "# decodebench record %s: verdict %s, engine sha256 %s\n", oneLine(stem), rec.Verdict, engines); err != nil {
		return err
	}
	res := &benchfmt.Result{Iters: 1}
	for _, kv := range [][2]string{{"goos", rec.Machine.OS}, {"goarch", rec.Machine.Arch}, {"cpu", rec.Machine.CPUModel}} {
		res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(oneLine(kv[1])), File: true})
	}
	var metrics []schema.Metric
	for _, m := range schema.Metrics {
		if m.Bench != "" {
			metrics = append(metrics, m)
		}
	}
	for _, r := range rec.Analysis.Results {
		if schema.MetricOf(r.Metric).Name != "" {
			continue
		}
		unit := r.Metric
		if u := benchUnitRE.ReplaceAllString(r.Unit, ""); u != "" {
			unit += "-" + u
		}
		metrics = append(metrics, schema.Metric{Name: r.Metric, Bench: unit, BenchDiv: 1})
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
