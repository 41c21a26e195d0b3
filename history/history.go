// Package history reads a fleet's records as series, one per feature,
// hardware slug and scenario meaning (the scenario's hash), in date
// order, and finds the steps in each series' metrics: the baseline's own
// primary metric (its median) and each arm's headline ratio to the
// baseline (changepoint). It computes; the index and the history command
// write the words.
package history

import (
	"cmp"
	"math"
	"slices"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Record is one record as history reads it.
type Record struct {
	Stem string // the file name without .md
	Seq  int    // its -N suffix (1 for none): orders records of one date
	Rec  *schema.Record
}

// Point is one record's value of one metric.
type Point struct {
	Stem    string         `json:"record"`
	Date    string         `json:"date"`
	Verdict schema.Verdict `json:"verdict"`
	Value   float64        `json:"value"`
	// Lo and Hi bound Value (the median's interval for the baseline's
	// metric, the ratio's for a ratio); 0 when none.
	Lo            float64 `json:"lo,omitempty"`
	Hi            float64 `json:"hi,omitempty"`
	EngineVersion string  `json:"engine_version,omitempty"`
	SourceCommit  string  `json:"source_commit,omitempty"`
	SourceDir     string  `json:"source_dir,omitempty"`
}

// Kind says what a series' metric is.
type Kind string

// The baseline arm's own median of the primary metric, or an arm's ratio
// of medians to the baseline.
const (
	KindBaseline Kind = "baseline"
	KindRatio    Kind = "ratio"
)

// Metric is one measured quantity of a series, with its steps.
type Metric struct {
	Kind Kind `json:"kind"`
	// Arm is the baseline arm (KindBaseline) or the compared arm.
	Arm            string  `json:"arm"`
	Baseline       string  `json:"baseline"`
	Name           string  `json:"metric"` // the primary metric, e.g. decode_tok_s
	Unit           string  `json:"unit,omitempty"`
	HigherIsBetter bool    `json:"higher_is_better"`
	Points         []Point `json:"points"`
	Steps          []Step  `json:"steps,omitempty"`
	// NoStep says why no step was found; nil when there are steps.
	NoStep *NoStep `json:"no_step,omitempty"`
}

// NoStep is why a metric's series shows no step: too few records for
// any split (Points below Need), or the strongest split failed the
// thresholds (Strongest, with its test).
type NoStep struct {
	Points int `json:"points"`
	// Need is the fewest records a step needs: the minimum segment on
	// either side.
	Need int `json:"need"`
	// Strongest is the split the detection came closest to; nil when
	// Points is below Need.
	Strongest *Step `json:"strongest,omitempty"`
}

// Step is a change point with the records on either side.
type Step struct {
	changepoint.Step
	Last  Point `json:"last_before"`
	First Point `json:"first_after"`
	// Worse is set when the step is a regression: lower for a metric
	// where higher is better, or the reverse.
	Worse bool `json:"worse"`
	// Bisectable is set when a bisect could settle it: a regression
	// whose records on either side name different source commits of
	// one source folder.
	Bisectable bool `json:"bisectable"`
	// Changes is what differs between the two records (Changes).
	Changes []Change `json:"changes,omitempty"`
}

// Series is the records of one feature, hardware slug and scenario
// meaning that have numbers, oldest first.
type Series struct {
	Feature      string   `json:"feature"`
	Hardware     string   `json:"hardware"`
	ScenarioHash string   `json:"scenario_hash"`
	Records      []string `json:"records"`
	Metrics      []Metric `json:"metrics"`
}

// Counts reports whether a record's numbers enter a series: those of a
// VALID, INCONCLUSIVE or UNVERIFIED record do; an INCOMPLETE record's are
// partial, and REJECTED and FAILED ones have none.
func Counts(v schema.Verdict) bool {
	return v == schema.Valid || v == schema.Inconclusive || v == schema.Unverified
}

// Build groups records into series and finds each metric's steps with
// opts. Series come sorted by feature, hardware, then the date of their
// first record.
func Build(recs []Record, opts changepoint.Options) []Series {
	sorted := slices.Clone(recs)
	slices.SortStableFunc(sorted, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Rec.Date, b.Rec.Date), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.Stem, b.Stem))
	})
	type key struct{ feature, hw, hash string }
	byKey := map[key]*Series{}
	byStem := map[string]*schema.Record{}
	var order []key
	for _, r := range sorted {
		if !Counts(r.Rec.Verdict) {
			continue
		}
		k := key{r.Rec.Feature, r.Rec.Hardware, r.Rec.Scenario.Hash}
		s, ok := byKey[k]
		if !ok {
			s = &Series{Feature: k.feature, Hardware: k.hw, ScenarioHash: k.hash}
			byKey[k] = s
			order = append(order, k)
		}
		s.Records = append(s.Records, r.Stem)
		byStem[r.Stem] = r.Rec
		for _, m := range recordMetrics(r) {
			i := slices.IndexFunc(s.Metrics, func(x Metric) bool { return x.Kind == m.Kind && x.Arm == m.Arm && x.Name == m.Name })
			if i < 0 {
				s.Metrics = append(s.Metrics, Metric{Kind: m.Kind, Arm: m.Arm, Baseline: m.Baseline, Name: m.Name, Unit: m.Unit, HigherIsBetter: m.HigherIsBetter})
				i = len(s.Metrics) - 1
			}
			s.Metrics[i].Points = append(s.Metrics[i].Points, m.Points[0])
		}
	}
	out := make([]Series, 0, len(order))
	for _, k := range order {
		s := byKey[k]
		for i := range s.Metrics {
			s.Metrics[i].Steps = steps(s.Metrics[i], opts, byStem)
			if len(s.Metrics[i].Steps) == 0 {
				s.Metrics[i].NoStep = noStep(s.Metrics[i], opts)
			}
		}
		out = append(out, *s)
	}
	slices.SortStableFunc(out, func(a, b Series) int {
		return cmp.Or(cmp.Compare(a.Feature, b.Feature), cmp.Compare(a.Hardware, b.Hardware))
	})
	return out
}

// recordMetrics is a record's metrics, one point each.
func recordMetrics(r Record) []Metric {
	rec := r.Rec
	pt := Point{Stem: r.Stem, Date: rec.Date, Verdict: rec.Verdict, EngineVersion: firstLine(rec.Engine.Version),
		SourceCommit: rec.Engine.SourceCommit, SourceDir: rec.Engine.SourceDir}
	var out []Metric
	for _, mr := range rec.Analysis.Results {
		if !mr.Primary {
			continue
		}
		for _, a := range mr.Arms {
			if a.Arm != rec.Scenario.Baseline || !stats.Finite(a.Median) || a.N == 0 {
				continue
			}
			p := pt
			p.Value, p.Lo, p.Hi = a.Median, a.MedianLo, a.MedianHi
			out = append(out, Metric{Kind: KindBaseline, Arm: a.Arm, Baseline: a.Arm, Name: mr.Metric, Unit: mr.Unit, HigherIsBetter: mr.HigherIsBetter, Points: []Point{p}})
		}
		for _, v := range rec.Analysis.ArmVerdicts {
			if v.Control || !v.Comparison.Defined() || !stats.Finite(v.Comparison.Ratio) {
				continue
			}
			p := pt
			p.Value, p.Lo, p.Hi = v.Comparison.Ratio, v.Comparison.Lo, v.Comparison.Hi
			out = append(out, Metric{Kind: KindRatio, Arm: v.Arm, Baseline: rec.Scenario.Baseline, Name: mr.Metric, HigherIsBetter: mr.HigherIsBetter, Points: []Point{p}})
		}
	}
	return out
}

func steps(m Metric, opts changepoint.Options, recs map[string]*schema.Record) []Step {
	var out []Step
	for _, cp := range changepoint.Detect(values(m), opts) {
		s := Step{Step: cp, Last: m.Points[cp.Index-1], First: m.Points[cp.Index]}
		s.Worse = (cp.Change < 0) == m.HigherIsBetter
		s.Bisectable = s.Worse && s.Last.SourceCommit != "" && s.First.SourceCommit != "" &&
			s.Last.SourceCommit != s.First.SourceCommit && s.Last.SourceDir == s.First.SourceDir
		if a, b := recs[s.Last.Stem], recs[s.First.Stem]; a != nil && b != nil {
			s.Changes = Changes(a, b)
		}
		out = append(out, s)
	}
	return out
}

// noStep is why m shows no step.
func noStep(m Metric, opts changepoint.Options) *NoStep {
	out := &NoStep{Points: len(m.Points), Need: opts.Need()}
	cp, ok := changepoint.Strongest(values(m), opts)
	if ok {
		out.Strongest = &Step{Step: cp, Last: m.Points[cp.Index-1], First: m.Points[cp.Index], Worse: (cp.Change < 0) == m.HigherIsBetter}
	}
	return out
}

func values(m Metric) []float64 {
	xs := make([]float64, len(m.Points))
	for i, p := range m.Points {
		xs[i] = p.Value
	}
	return xs
}

// BisectThreshold is the slowdown a bisect of step s should call bad:
// half the step, rounded down to a tenth of a percent, at least 1%.
func BisectThreshold(s Step) float64 {
	return max(math.Floor(math.Abs(s.Change)/2*1000)/1000, 0.01)
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
