package harness

import (
	"math"

	"github.com/decodebench/decodebench/plots"
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
	var runs []plots.Run
	for i, r := range c.rec.Runs {
		mk := c.rec.Analysis.Marks[i]
		v, ok := r.Metrics[s.Metrics.Primary]
		if !ok || !r.OK() || mk.Dropped {
			v = math.NaN()
		}
		runs = append(runs, plots.Run{Seq: r.Seq, Arm: r.Arm, Start: r.Start, End: r.Start.Add(secondsDuration(r.Seconds)), Value: v, Outlier: mk.Outlier})
	}
	spec := plots.Spec{Metric: s.Metrics.Primary, Unit: unitOf(s.Metrics.Primary), Arms: s.ArmNames(), Baseline: s.Baseline, BaselineMedian: math.NaN()}
	if res, ok := c.rec.Result(s.Metrics.Primary); ok {
		for _, a := range res.Arms {
			if a.Arm == s.Baseline {
				spec.BaselineMedian = a.Median
			}
		}
	}
	// Titles and legends are drawn from these strings.
	c.redact.Walk(&spec)
	c.redact.Walk(&runs)
	names, err := plots.WriteAll(c.dataDir, runs, spec)
	if err != nil {
		c.progress.Printf("no plots: %v", err)
		return nil
	}
	return names
}
