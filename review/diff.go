package review

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Diff is what differs between two records: first the conditions that make
// the comparison suspect, then per arm and metric what moved.
type Diff struct {
	Old string `json:"old"`
	New string `json:"new"`
	// Conditions lists every difference in how the two were measured.
	Conditions []Condition `json:"conditions"`
	// Refused is set when a side's verdict makes its numbers unfit to
	// compare (and --force was not given); Metrics is then empty.
	Refused []string     `json:"refused,omitempty"`
	Metrics []MetricDiff `json:"metrics,omitempty"`
	// Ratios compares each arm's ratio to its own baseline.
	Ratios []RatioDiff `json:"ratios,omitempty"`
	// Threshold is the smallest change that counts.
	Threshold float64 `json:"threshold"`
	// Family is how the ratios that --fail-on-regression gates on keep
	// their family-wise error; nil without ratios.
	Family *RatioFamily `json:"family,omitempty"`
}

// RatioFamily is the Bonferroni correction over the arm ratios a diff
// gates on: with Comparisons of them, each interval is at
// 1 − Alpha/Comparisons, so the chance that any of them shows a change
// that is not there is at most Alpha.
type RatioFamily struct {
	Alpha       float64 `json:"alpha"`
	Comparisons int     `json:"comparisons"`
	Confidence  float64 `json:"confidence"`
}

// Condition is one difference in the conditions of measurement.
type Condition struct {
	What string `json:"what"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// MetricDiff is one arm's metric in both records.
type MetricDiff struct {
	Arm            string  `json:"arm"`
	Metric         string  `json:"metric"`
	Unit           string  `json:"unit"`
	HigherIsBetter bool    `json:"higher_is_better"`
	OldMedian      float64 `json:"old_median"`
	NewMedian      float64 `json:"new_median"`
	OldN           int     `json:"old_n"`
	NewN           int     `json:"new_n"`
	// Change is new/old − 1, with its interval, on the metric's scale.
	Change     float64 `json:"change"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Confidence float64 `json:"confidence"`
	P          float64 `json:"p"`
	Verdict    Change  `json:"verdict"`
}

// RatioDiff is an arm's ratio to its baseline in both records.
type RatioDiff struct {
	Arm      string  `json:"arm"`
	Baseline string  `json:"baseline"`
	Metric   string  `json:"metric"`
	Old      float64 `json:"old"`
	New      float64 `json:"new"`
	// Change is New/Old − 1 with its bootstrap interval.
	Change  float64 `json:"change"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Verdict Change  `json:"verdict"`
}

// Change is the verdict on a difference.
type Change string

// Verdicts of a difference.
const (
	Same     Change = "~"
	Better   Change = "better"
	Worse    Change = "worse"
	Unknown  Change = "no comparison"
	NotFound Change = "missing"
)

// DiffOptions adjusts Compare.
type DiffOptions struct {
	// Threshold is the smallest relative change that counts (default 2%).
	Threshold float64
	// Force compares records whose verdict says their numbers must not be
	// used.
	Force bool
}

// Compare diffs two records, both loaded with their runs.
func Compare(oldPath string, old *schema.Record, newPath string, nu *schema.Record, opt DiffOptions) Diff {
	if opt.Threshold == 0 {
		opt.Threshold = 0.02
	}
	d := Diff{Old: oldPath, New: newPath, Threshold: opt.Threshold}
	d.Conditions = conditions(oldPath, old, newPath, nu)
	for _, side := range []struct {
		name string
		rec  *schema.Record
	}{{"old", old}, {"new", nu}} {
		switch side.rec.Verdict {
		case schema.Valid, schema.Unverified:
		default:
			if !opt.Force {
				d.Refused = append(d.Refused, fmt.Sprintf("the %s record's verdict is %s: its numbers are not fit to compare (--force compares them anyway)", side.name, side.rec.Verdict))
			}
		}
	}
	if len(d.Refused) > 0 {
		return d
	}
	cfg := stats.Config{Confidence: nu.Method.Confidence, Alpha: nu.Method.Alpha, MinEffect: opt.Threshold, Resamples: scenarios.Resamples, Seed: 1}
	metrics := metricNames(nu, old)
	for _, arm := range armNames(old, nu) {
		for _, m := range metrics {
			md := metricDiff(old, nu, arm, m, cfg, opt.Threshold)
			if md.OldN == 0 && md.NewN == 0 {
				continue // the arm has no such values in either record
			}
			d.Metrics = append(d.Metrics, md)
		}
	}
	if old.Scenario.Baseline == nu.Scenario.Baseline {
		base := nu.Scenario.Baseline
		m := nu.Scenario.Primary
		var arms []string
		for _, arm := range armNames(old, nu) {
			if arm != base {
				arms = append(arms, arm)
			}
		}
		// Every arm's ratio can fail the gate: Bonferroni over them keeps
		// the chance of a false regression anywhere at alpha.
		rcfg := cfg
		if len(arms) > 0 {
			d.Family = &RatioFamily{Alpha: cfg.Alpha, Comparisons: len(arms), Confidence: 1 - cfg.Alpha/float64(len(arms))}
			rcfg.Confidence, rcfg.Alpha = d.Family.Confidence, cfg.Alpha/float64(len(arms))
		}
		for _, arm := range arms {
			rc := stats.CompareRatios(samples(old, base, m), samples(old, arm, m), samples(nu, base, m), samples(nu, arm, m), rcfg)
			rd := RatioDiff{Arm: arm, Baseline: base, Metric: m, Old: nan0(rc.Old), New: nan0(rc.New), Change: nan0(rc.Change - 1), Lo: nan0(rc.Lo - 1), Hi: nan0(rc.Hi - 1)}
			rd.Verdict = judge(rc.Change-1, rc.Lo-1, rc.Hi-1, math.NaN(), rcfg.Alpha, opt.Threshold, nu.HigherIsBetter(m))
			d.Ratios = append(d.Ratios, rd)
		}
	}
	return d
}

// Regressed reports whether an arm's ratio to its own baseline, measured
// interleaved within each record, got significantly worse: what a CI job
// gates on. Raw values between two campaigns are not: minutes apart, on
// one machine and one build, the host itself moves them (a classic arm's
// decode_tok_s −16% between two campaigns of the same binary), while each
// record's interleaved ratio cancels what the host did to both arms.
func (d Diff) Regressed() bool {
	for _, r := range d.Ratios {
		if r.Verdict == Worse {
			return true
		}
	}
	return false
}

func metricDiff(old, nu *schema.Record, arm, m string, cfg stats.Config, threshold float64) MetricDiff {
	a, b := samples(old, arm, m), samples(nu, arm, m)
	md := MetricDiff{Arm: arm, Metric: m, Unit: unitOf(nu, old, m), HigherIsBetter: nu.HigherIsBetter(m), OldN: len(a), NewN: len(b), Confidence: cfg.Confidence}
	if len(a) == 0 || len(b) == 0 {
		md.Verdict = NotFound
		return md
	}
	md.OldMedian, md.NewMedian = stats.Summarize(a).Median, stats.Summarize(b).Median
	c := stats.Compare(a, b, cfg)
	md.Change, md.Lo, md.Hi, md.P = nan0(c.Ratio-1), nan0(c.Lo-1), nan0(c.Hi-1), c.P
	md.Verdict = judge(c.Ratio-1, c.Lo-1, c.Hi-1, c.P, cfg.Alpha, threshold, md.HigherIsBetter)
	return md
}

// judge says whether a change counts: its interval excludes no change, its
// p (when there is one) is below alpha, and it is at least the threshold.
func judge(change, lo, hi, p, alpha, threshold float64, higher bool) Change {
	if math.IsNaN(change) {
		return Unknown
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || (lo <= 0 && hi >= 0) || (!math.IsNaN(p) && p >= alpha) || math.Abs(change) < threshold {
		return Same
	}
	if (change > 0) == higher {
		return Better
	}
	return Worse
}

func nan0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// samples are an arm's values of a metric that count: finished runs not
// dropped as outliers.
func samples(rec *schema.Record, arm, metric string) []float64 {
	var out []float64
	for i, r := range rec.Runs {
		if r.Arm != arm || !rec.RunCounts(i) {
			continue
		}
		if v, ok := r.Metrics[metric]; ok {
			out = append(out, v)
		}
	}
	return out
}

func armNames(old, nu *schema.Record) []string {
	var out []string
	for _, r := range []*schema.Record{nu, old} {
		for _, a := range r.Scenario.Arms {
			out = append(out, a.Name)
		}
	}
	return distinct(out)
}

// distinct keeps the first of each name, in order.
func distinct(names []string) []string {
	seen := map[string]bool{}
	return slices.DeleteFunc(names, func(n string) bool { s := seen[n]; seen[n] = true; return s })
}

// metricNames lists the metrics either record reports (the new record's
// order first): built-in ones and the scenarios' own.
func metricNames(nu, old *schema.Record) []string {
	var out []string
	for _, r := range []*schema.Record{nu, old} {
		for _, m := range r.Analysis.Results {
			out = append(out, m.Metric)
		}
	}
	if out = distinct(out); len(out) == 0 {
		out = append(out, nu.Scenario.Primary)
		for _, m := range schema.Metrics {
			if !m.Stream && m.Name != nu.Scenario.Primary {
				out = append(out, m.Name)
			}
		}
	}
	return out
}

// unitOf is a metric's unit as either record reports it.
func unitOf(nu, old *schema.Record, metric string) string {
	for _, r := range []*schema.Record{nu, old} {
		if res, ok := r.Result(metric); ok {
			return res.Unit
		}
	}
	return schema.MetricOf(metric).Unit
}

// conditions lists every difference in the conditions of measurement.
func conditions(oldPath string, old *schema.Record, newPath string, nu *schema.Record) []Condition {
	var out []Condition
	add := func(what, a, b string) {
		if a != b {
			out = append(out, Condition{What: what, Old: a, New: b})
		}
	}
	add("verdict", string(old.Verdict), string(nu.Verdict))
	add("hardware slug", old.Hardware, nu.Hardware)
	mo, mn := old.Machine, nu.Machine
	add("CPU", mo.CPUModel, mn.CPUModel)
	add("cores / threads", fmt.Sprintf("%d / %d", mo.Cores, mo.Threads), fmt.Sprintf("%d / %d", mn.Cores, mn.Threads))
	add("memory", fmt.Sprint(mo.MemoryBytes), fmt.Sprint(mn.MemoryBytes))
	add("GPUs", gpus(mo), gpus(mn))
	add("OS", fmt.Sprintf("%s %s %s, kernel %s, %s", mo.OS, mo.Platform, mo.PlatformVersion, mo.Kernel, mo.Arch), fmt.Sprintf("%s %s %s, kernel %s, %s", mn.OS, mn.Platform, mn.PlatformVersion, mn.Kernel, mn.Arch))
	add("host", mo.Hostname, mn.Hostname)
	models := map[string][2]string{}
	for _, pair := range enginePairs(old, nu) {
		eo, en, of := pair.old, pair.nu, pair.of
		// The binary that runs: a wrapper script's own hash says only
		// where it was installed, so the binary it wraps is compared
		// when a record names one.
		add("engine binary sha256"+of, engineBinarySHA(eo), engineBinarySHA(en))
		if len(eo.Libraries) > 0 && len(en.Libraries) > 0 {
			add("engine libraries"+of, libraryChanges(eo.Libraries, en.Libraries, false), libraryChanges(eo.Libraries, en.Libraries, true))
		}
		add("engine version"+of, eo.Version, en.Version)
		add("engine source commit"+of, eo.SourceCommit, en.SourceCommit)
		add("engine source dirty"+of, dirty(eo.SourceDirty), dirty(en.SourceDirty))
		for _, m := range eo.Models {
			v := models[filepath.Base(m.Arg)]
			v[0] = m.SHA256
			models[filepath.Base(m.Arg)] = v
		}
		for _, m := range en.Models {
			v := models[filepath.Base(m.Arg)]
			v[1] = m.SHA256
			models[filepath.Base(m.Arg)] = v
		}
	}
	var names []string
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		add("model file "+n+" sha256", abbrev.Hash(models[n][0]), abbrev.Hash(models[n][1]))
	}
	add("decodebench", old.Method.Version+" "+old.Method.Commit, nu.Method.Version+" "+nu.Method.Commit)
	add("scenario hash", abbrev.Hash(old.Scenario.Hash), abbrev.Hash(nu.Scenario.Hash))
	if old.Scenario.Hash != nu.Scenario.Hash {
		for _, c := range scenarioDiff(oldPath, old, newPath, nu) {
			out = append(out, c)
		}
	}
	om, nm := old.Method, nu.Method
	add("gates", gates(om), gates(nm))
	add("statistics", fmt.Sprintf("confidence %g, alpha %g, min_effect %g", om.Confidence, om.Alpha, om.MinEffect), fmt.Sprintf("confidence %g, alpha %g, min_effect %g", nm.Confidence, nm.Alpha, nm.MinEffect))
	add("rounds run", fmt.Sprint(om.RoundsRun), fmt.Sprint(nm.RoundsRun))
	if om.Requests > 0 && nm.Requests > 0 {
		add("measured requests per engine start", fmt.Sprint(om.Requests), fmt.Sprint(nm.Requests))
	}
	if len(om.PrefixCache) > 0 && len(nm.PrefixCache) > 0 {
		add("prefix cache", prefixCaches(om), prefixCaches(nm))
	}
	lo, ln := loadLevel(old), loadLevel(nu)
	if math.Abs(lo-ln) >= 0.5 {
		add("median load average (1 min)", fmt.Sprintf("%.2f", lo), fmt.Sprintf("%.2f", ln))
	}
	return out
}

func gpus(m schema.MachineInfo) string {
	var out []string
	for _, g := range m.GPUs {
		out = append(out, g.Name+" ("+g.Driver+")")
	}
	return strings.Join(out, ", ")
}

func dirty(b *bool) string {
	if b == nil {
		return ""
	}
	return fmt.Sprint(*b)
}

func gates(m schema.Method) string {
	return fmt.Sprintf("max_spread %g, max_contended %g, contended_cpu %g, max_drift %g", m.MaxSpread, m.MaxContended, m.ContendedCPU, m.MaxDrift)
}

func loadLevel(r *schema.Record) float64 {
	var xs []float64
	for _, run := range r.Runs {
		if run.LoadBefore != nil {
			xs = append(xs, run.LoadBefore.Load1)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	return stats.Summarize(xs).Median
}

// scenarioDiff compares the two stored scenarios as YAML values: every key
// whose value differs, by its path (comments and formatting do not count).
func scenarioDiff(oldPath string, old *schema.Record, newPath string, nu *schema.Record) []Condition {
	read := func(path string, rec *schema.Record) []byte {
		b, _ := recorder.ReadDataFile(path, rec, recorder.ScenarioFile, scenarios.MaxScenarioBytes)
		return b
	}
	a, b := read(oldPath, old), read(newPath, nu)
	if a == nil || b == nil {
		return nil
	}
	changes, err := scenarios.DiffYAML(a, b)
	if err != nil {
		return []Condition{{What: "scenario", Old: "(not comparable)", New: err.Error()}}
	}
	var out []Condition
	for _, c := range changes {
		out = append(out, Condition{What: c.Path, Old: c.Old, New: c.New})
	}
	return out
}

// LoadPair loads both records with their runs.
func LoadPair(oldPath, newPath string) (*schema.Record, *schema.Record, error) {
	a, err := recorder.Load(oldPath)
	if err != nil {
		return nil, nil, err
	}
	b, err := recorder.Load(newPath)
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// enginePair is the engines two records ran for one arm ("of" names it,
// " of arm X"), or for every arm when both ran one engine ("of" empty).
type enginePair struct {
	old, nu schema.EngineInfo
	of      string
}

// enginePairs pairs the records' engines: one pair when neither record's
// arms ran more than one engine (as before arms could carry their own),
// else one per arm of either record, in the new record's arm order.
func enginePairs(old, nu *schema.Record) []enginePair {
	if len(old.Engines) == 0 && len(nu.Engines) == 0 {
		return []enginePair{{old: old.Engine, nu: nu.Engine}}
	}
	var arms []string
	for _, r := range []*schema.Record{nu, old} {
		for _, a := range r.Scenario.Arms {
			if !slices.Contains(arms, a.Name) {
				arms = append(arms, a.Name)
			}
		}
	}
	var out []enginePair
	for _, a := range arms {
		out = append(out, enginePair{old: old.EngineOf(a), nu: nu.EngineOf(a), of: " of arm " + a})
	}
	return out
}

// engineBinarySHA is the sha256 of the binary that runs: the one a wrapper
// script names, else the command's own.
func engineBinarySHA(e schema.EngineInfo) string {
	if e.RealSHA256 != "" {
		return e.RealSHA256
	}
	return e.SHA256
}

// libraryChanges lists, by file name, the engine libraries whose sha256
// differs between the two records or that only one has: each with its
// old (new=false) or new hash; "" when they are the same.
func libraryChanges(old, nu []schema.FileSum, new bool) string {
	byName := func(fs []schema.FileSum) map[string]string {
		m := map[string]string{}
		for _, f := range fs {
			m[filepath.Base(f.Path)] = f.SHA256
		}
		return m
	}
	o, n := byName(old), byName(nu)
	names := map[string]bool{}
	for k := range o {
		names[k] = true
	}
	for k := range n {
		names[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(names)) {
		if o[k] == n[k] {
			continue
		}
		v := o[k]
		if new {
			v = n[k]
		}
		if v == "" {
			v = "absent"
		} else if len(v) > 12 {
			v = v[:12]
		}
		out = append(out, k+" "+v)
	}
	return strings.Join(out, ", ")
}
