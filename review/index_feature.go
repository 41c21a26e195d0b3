package review

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/plots"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// featurePage is a feature's page, relative to the records folder. The
// feature is a checked name (recorder.CheckName) by now.
func featurePage(feature string) string { return indexPlotDir + "/" + feature + ".md" }

// writeFeaturePage writes the feature's page: its trend plot, its steps
// with the records on either side, and every record, by hardware, newest
// first. Links are relative to the page (index/), so it renders where it
// lies, on GitHub too.
func writeFeaturePage(d *safefs.Dir, feature string, es []FleetRecord, series []history.Series, plot bool) (string, bool, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# Records of %s\n\n", cellCode(feature))
	b.WriteString("Written by `decodebench index`; do not edit by hand. [All features](../" + IndexFile + ").\n\n")
	if plot {
		fmt.Fprintf(&b, "![%s trend](%s)\n\n", cellText(feature), linkTarget(feature+"-trend.png"))
	}
	b.WriteString("## Steps\n\n")
	fmt.Fprintf(&b, "Found by %s: two-sided p < %g, a change of at least %g%% between the means of the segments on either side, at least %d records a side; ",
		changepoint.Method, changepoint.Defaults.Alpha, 100*changepoint.Defaults.MinStep, changepoint.Defaults.MinSegment)
	b.WriteString("per hardware and scenario (its hash), over VALID, INCONCLUSIVE and UNVERIFIED records. ")
	b.WriteString("A regression whose records on either side name two source commits can be bisected with the command shown, ")
	b.WriteString("`BUILD` being the engine's build command and `SCENARIO` a scenario whose candidate arm runs `${CANDIDATE_DIR}`'s build.\n\n")
	steps := fleetSteps(series, feature, "")
	for i, fs := range steps {
		if i == 0 {
			b.WriteString("| hardware | scenario | metric | step | p | last before | first after | engine before → after | what differs | bisect |\n|---|---|---|---|---|---|---|---|---|---|\n")
		}
		st := fs.Step
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s → %s | %s | %s |\n", cellCode(fs.Hardware), cellCode(short(fs.ScenarioHash)),
			cellText(MetricLabel(fs.Metric)), StepText(st.Step, st.Worse), cellText(fmt.Sprintf("%.2g", st.P)),
			recordLink(st.Last), recordLink(st.First), cellText(engineAt(st.Last)), cellText(engineAt(st.First)), cellText(ChangesText(st.Changes)), bisectCell(st))
	}
	if len(steps) == 0 {
		b.WriteString("No steps.\n")
	}
	b.WriteString("\n")
	b.WriteString(regimeSection(feature, es))
	hw := ""
	for _, e := range es {
		if e.Rec.Hardware != hw {
			hw = e.Rec.Hardware
			fmt.Fprintf(&b, "## %s\n\n", cellCode(hw))
			b.WriteString("| date | record | verdict | headline | engine | commit | problems |\n|---|---|---|---|---|---|---|\n")
		}
		fmt.Fprintf(&b, "| %s | [%s](%s) | %s | %s | %s | %s | %s |\n", cellText(e.Rec.Date), cellText(e.Stem), "../"+linkTarget(e.File),
			verdictCell(e), headline(e), cellText(EngineVersion(e.Rec)), cellCode(short(e.Rec.Engine.SourceCommit)), fleetProblemsCell(e))
	}
	b.WriteString("\n")
	rel := featurePage(feature)
	changed, err := d.WriteIfChanged(rel, []byte(b.String()), 0o644)
	return filepath.Join(d.Path(), filepath.FromSlash(rel)), changed, err
}

// MetricLabel names a series' metric: "classic decode_tok_s" for the
// baseline's own, "draft / classic decode_tok_s" for a ratio.
func MetricLabel(m history.Metric) string {
	if m.Kind == history.KindRatio {
		return m.Arm + " / " + m.Baseline + " " + m.Name
	}
	return m.Arm + " " + m.Name
}

// StepText is a step as "+5.1% (worse)": the relative change of the means.
func StepText(s changepoint.Step, worse bool) string {
	w := "better"
	if worse {
		w = "worse"
	}
	return fmt.Sprintf("%+.1f%% (%s)", 100*s.Change, w)
}

// BisectCommand is the decodebench bisect command line that settles a
// bisectable step; "" for any other.
func BisectCommand(st history.Step) string {
	if !st.Bisectable {
		return ""
	}
	src := st.Last.SourceDir
	if src == "" {
		src = "."
	}
	return fmt.Sprintf("decodebench bisect --source %s --good %s --bad %s --build \"$BUILD\" --threshold %g%% \"$SCENARIO\"",
		shellQuote(src), shellQuote(st.Last.SourceCommit), shellQuote(st.First.SourceCommit), 100*history.BisectThreshold(st))
}

func bisectCell(st history.Step) string {
	if c := BisectCommand(st); c != "" {
		return cellCode(c)
	}
	if !st.Worse {
		return "— (an improvement)"
	}
	return "— (no source commits on both sides)"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func recordLink(p history.Point) string {
	return fmt.Sprintf("[%s](../%s) %s", cellText(p.Stem), linkTarget(p.Stem+".md"), cellText(p.Date))
}

func engineAt(p history.Point) string {
	v := p.EngineVersion
	if p.SourceCommit != "" {
		v += " @" + short(p.SourceCommit)
	}
	if v == "" {
		return "—"
	}
	return v
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// sparkline is the first arm's ratio over a hardware's last 16 records
// with numbers (FirstRatios), oldest first, as block characters scaled to
// their range. rs is the hardware's records, newest first.
func sparkline(rs []FleetRecord) string {
	xs := FirstRatios(rs)
	if len(xs) > 16 {
		xs = xs[len(xs)-16:]
	}
	if len(xs) < 2 {
		return "—"
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	bars := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, x := range xs {
		i := 0
		if hi > lo {
			i = int((x - lo) / (hi - lo) * float64(len(bars)-1))
		}
		b.WriteRune(bars[i])
	}
	return fmt.Sprintf("%s %.3f→%.3f", b.String(), xs[0], xs[len(xs)-1])
}

// stepsCell counts a hardware's steps in a feature and names the latest.
func stepsCell(steps []FleetStep) string {
	latest, ok := LatestStep(steps)
	if !ok {
		return "none"
	}
	st := latest.Step
	return fmt.Sprintf("%d, latest %s: %s %s", len(steps), cellText(st.First.Date), cellText(MetricLabel(latest.Metric)), StepText(st.Step, st.Worse))
}

// writeTrend draws the feature's trend plot, with its steps in the ratio,
// from the records that enter the series (FleetRecord.Counts: a record
// that fails check draws no point, nor a REJECTED cross); "" when
// nothing has a ratio. The feature is a checked name
// (recorder.CheckName) by now.
func writeTrend(d *safefs.Dir, feature string, es []FleetRecord, series []history.Series) (string, bool, error) {
	var pts []plots.TrendPoint
	metric := ""
	for _, e := range es {
		date, err := time.Parse("2006-01-02", e.Rec.Date)
		if err != nil || !e.Counts() {
			continue
		}
		multi := len(e.Rec.Analysis.ArmVerdicts) > 1
		if e.Rec.Verdict == schema.Rejected {
			pts = append(pts, plots.TrendPoint{Date: date, Seq: e.Seq, Hardware: e.Rec.Hardware, Rejected: true})
			continue
		}
		if !history.Counts(e.Rec.Verdict) {
			continue
		}
		for _, v := range e.Rec.Analysis.ArmVerdicts {
			if v.Control || !v.Comparison.Defined() {
				continue
			}
			hw := e.Rec.Hardware
			if multi {
				hw += " " + v.Arm
			}
			pts = append(pts, plots.TrendPoint{Date: date, Seq: e.Seq, Hardware: hw, Ratio: v.Comparison.Ratio, Lo: v.Comparison.Lo, Hi: v.Comparison.Hi, Valid: e.Rec.Verdict == schema.Valid})
			metric = e.Rec.Scenario.Primary
		}
	}
	if metric == "" {
		return "", false, nil
	}
	seqOf := map[string]int{}
	for _, e := range es {
		seqOf[e.Stem] = e.Seq
	}
	var steps []plots.TrendStep
	for _, s := range series {
		if s.Feature != feature {
			continue
		}
		arms := 0
		for _, m := range s.Metrics {
			if m.Kind == history.KindRatio {
				arms++
			}
		}
		for _, m := range s.Metrics {
			if m.Kind != history.KindRatio {
				continue
			}
			hw := s.Hardware
			if arms > 1 {
				hw += " " + m.Arm
			}
			for _, st := range m.Steps {
				if date, err := time.Parse("2006-01-02", st.First.Date); err == nil {
					steps = append(steps, plots.TrendStep{Date: date, Seq: seqOf[st.First.Stem], Hardware: hw})
				}
			}
		}
	}
	p, err := plots.Trend(feature, metric, pts, steps)
	if err != nil {
		return "", false, err
	}
	png, err := plots.PNG(p)
	if err != nil {
		return "", false, err
	}
	if err := recorder.CheckName(feature, "x", "2006-01-02"); err != nil {
		return "", false, err
	}
	rel := indexPlotDir + "/" + feature + "-trend.png"
	changed, err := d.WriteIfChanged(rel, png, 0o644)
	return filepath.Join(d.Path(), filepath.FromSlash(rel)), changed, err
}

// fleetProblemsCell is a record's problems, and, where another record
// holds its campaign, that it is left out of the series for it.
func fleetProblemsCell(e FleetRecord) string {
	if e.SameAs == "" {
		return problemsCell(e.Problems)
	}
	same := "⚠ the same campaign as " + cellText(e.SameAs) + ": left out of the series and regimes"
	if len(e.Problems) == 0 {
		return same
	}
	return problemsCell(e.Problems) + "; " + same
}
