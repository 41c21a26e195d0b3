package harness

import (
	"math"

	"github.com/decodebench/decodebench/plots"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// writePlots draws the campaign's primary metric per run over time and per
// arm into the data folder, and returns the file names relative to it. A
// campaign with nothing to plot (every run failed, or results withheld by a
// rejection) gets no plots; that is said in the record, not an error.
func (c *campaign) writePlots() []string {
	s := c.scenario
	if len(c.rec.Analysis.Results) == 0 {
		return nil
	}
	runs := plotRuns(c.rec, s.Metrics.Primary)
	spec := plotSpec(c.rec, s.Metrics.Primary, s.ArmNames(), s.Baseline)
	// Titles and legends are drawn from these strings.
	c.redact.Walk(&spec)
	c.redact.Walk(&runs)
	files, err := plots.Render(runs, spec)
	if err != nil {
		c.progress.Printf("no plots: %v", err)
		return nil
	}
	var names []string
	for _, f := range files {
		if err := c.data.WriteFile(f.Name, f.Data, 0o644); err != nil {
			c.progress.Printf("no plots: %v", err)
			return names
		}
		c.sealBytes(f.Name, f.Data)
		names = append(names, f.Name)
	}
	return names
}

// plotRuns are the record's runs as the figures take them: the primary
// metric's value (NaN for a failed or dropped run) with the analysis'
// outlier and contention marks.
func plotRuns(rec *schema.Record, primary string) []plots.Run {
	var runs []plots.Run
	for i, r := range rec.Runs {
		var mk schema.Mark
		if i < len(rec.Analysis.Marks) {
			mk = rec.Analysis.Marks[i]
		}
		v, ok := r.Metrics[primary]
		if !ok || !rec.RunCounts(i) {
			v = math.NaN()
		}
		runs = append(runs, plots.Run{Seq: r.Seq, Arm: r.Arm, Start: r.Start, End: r.Start.Add(secondsDuration(r.Seconds)), Value: v,
			Outlier: mk.Outlier, Contended: mk.Contended})
	}
	return runs
}

// plotSpec describes the primary metric's figures from the record: its
// readable name and unit, the baseline median, and under each arm its
// verdict in a few words (the recorder writes them, as it writes every
// sentence of the record).
func plotSpec(rec *schema.Record, primary string, arms []string, baseline string) plots.Spec {
	spec := plots.Spec{Metric: primary, Unit: schema.MetricOf(primary).Unit, Label: recorder.MetricName(primary), Arms: arms, Baseline: baseline, BaselineMedian: math.NaN()}
	higher := true
	if res, ok := rec.Result(primary); ok {
		spec.Unit, higher = res.Unit, res.HigherIsBetter
		for _, a := range res.Arms {
			if a.Arm == baseline {
				spec.BaselineMedian = a.Median
			}
		}
	}
	for _, v := range rec.Analysis.ArmVerdicts {
		spec.Annotations = append(spec.Annotations, plots.Annotation{Arm: v.Arm, Text: recorder.ShortVerdict(v, higher, spec.Unit)})
	}
	return spec
}
