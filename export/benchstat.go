package export

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/decodebench/decodebench/schema"
)

var (
	benchName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)
	// benchUnitRE is what a unit loses in an export: every run of
	// characters but letters, digits and _ . / % - (tok/s, GB/s, %), so
	// that no unit a record holds (markup, a control or format character,
	// a space that would end benchfmt's token) reaches benchstat or what
	// renders its tables.
	benchUnitRE = regexp.MustCompile(`[^A-Za-z0-9_./%-]+`)
)

// Benchstat writes the Go benchmark format: a comment naming the
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
func Benchstat(w io.Writer, rec *schema.Record, stem string) error {
	engines := OneLine(rec.Engine.SHA256)
	if len(rec.Engines) > 0 {
		// Arms that ran their own engines: each arm's binary hash, in
		// the comment too (a configuration line that differs between
		// two records would split benchstat's table).
		var parts []string
		for _, a := range rec.Scenario.Arms {
			parts = append(parts, OneLine(rec.EngineOf(a.Name).SHA256)+" (arm "+OneLine(a.Name)+")")
		}
		engines = strings.Join(parts, ", ")
	}
	if _, err := fmt.Fprintf(w, "# decodebench record %s: verdict %s, engine sha256 %s\n", OneLine(stem), rec.Verdict, engines); err != nil {
		return err
	}
	res := &benchfmt.Result{Iters: 1}
	for _, kv := range [][2]string{{"goos", rec.Machine.OS}, {"goarch", rec.Machine.Arch}, {"cpu", rec.Machine.CPUModel}} {
		res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(OneLine(kv[1])), File: true})
	}
	metrics := benchMetrics(rec)
	order := []string{rec.Scenario.Baseline}
	for _, a := range rec.Scenario.Arms {
		if a.Name != rec.Scenario.Baseline {
			order = append(order, a.Name)
		}
	}
	bw := benchfmt.NewWriter(w)
	for _, arm := range order {
		for i, r := range rec.Runs {
			if r.Arm != arm || !rec.RunCounts(i) {
				continue
			}
			res.Name = benchfmt.Name(camel(rec.Feature) + "/arm=" + benchName.ReplaceAllString(r.Arm, "_"))
			res.Values = res.Values[:0]
			values := r.Analysed()
			for _, m := range metrics {
				if v, ok := values[m.Name]; ok {
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

// benchMetrics are the metrics a record's export writes, the primary
// first: the built-in ones with a benchmark unit, then every other metric
// the record has results of (a built-in one without a benchmark unit, as
// step_tok_s or energy_j_per_tok, and the scenario's own), each under its
// name and unit. Built-in metrics without a benchmark unit were left out,
// a record's primary among them.
func benchMetrics(rec *schema.Record) []schema.Metric {
	var metrics []schema.Metric
	for _, m := range schema.Metrics {
		if m.Bench != "" {
			metrics = append(metrics, m)
		}
	}
	for _, r := range rec.Analysis.Results {
		if schema.MetricOf(r.Metric).Bench != "" {
			continue
		}
		unit := benchName.ReplaceAllString(r.Metric, "_")
		if u := benchUnit(r.Unit); u != "" {
			unit += "-" + u
		}
		metrics = append(metrics, schema.Metric{Name: r.Metric, Bench: unit, BenchDiv: 1})
	}
	sort.SliceStable(metrics, func(i, j int) bool { return metrics[i].Name == rec.Scenario.Primary })
	return metrics
}

// benchUnit is a unit as an export writes it: reduced to the characters
// benchUnitRE keeps, each run of others one _, none at either end.
func benchUnit(u string) string {
	return strings.Trim(benchUnitRE.ReplaceAllString(u, "_"), "_")
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
