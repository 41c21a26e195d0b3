package review

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// IndexFile is the index written into a records folder.
const IndexFile = "README.md"

// indexPlotDir holds the trend plots, inside the records folder.
const indexPlotDir = "index"

// Index writes DIR/README.md: every record grouped by feature, then
// hardware, newest first, with its verdict, headline ratio and interval,
// engine version, a link, and the problems check finds; and one trend
// plot per feature. Files are rewritten only when their bytes change, and
// the same records always give the same bytes.
//
// Nothing a record says chooses where a file is written: a record whose
// feature, hardware slug or date is not a valid name (as a scenario's
// must be) is listed as not readable, and draws no plot. Every file is
// written through a folder held open, create-exclusive into a temporary
// file beside its target and renamed over it, never through a link.
// Hidden and temporary files (a killed run's .record-*.md) are not
// records.
//
// Records are read and checked on every CPU at once (ReadFleet), through
// cache when it is not nil (see CheckCache).
func Index(dir string, cache *CheckCache) (written []string, err error) {
	return IndexProgress(dir, cache, nil)
}

// IndexProgress is Index telling progress of each record read and
// checked.
func IndexProgress(dir string, cache *CheckCache, progress Progress) (written []string, err error) {
	d, err := safefs.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	fleet, err := ReadFleetProgress(dir, cache, progress)
	if err != nil {
		return nil, err
	}
	series := fleet.Series

	var b strings.Builder
	b.WriteString("# Benchmark records\n\n")
	b.WriteString("Written by `decodebench index`; do not edit by hand. One row per feature and hardware: its latest record, ")
	b.WriteString("the verdict, the headline (each non-control arm's ratio to the baseline on the primary metric as its verdict states it, with its interval), ")
	b.WriteString("the trend of the first arm's ratio over the last records, and the steps found in its history. ")
	b.WriteString("Every record, the steps with the records on either side, and the trend plot are on the feature's page. ")
	b.WriteString("Problems are what `decodebench check` finds.\n\n")
	fmt.Fprintf(&b, "Steps: %s; two-sided p < %g, a change of at least %g%%, at least %d records on either side; ",
		changepoint.Method, changepoint.Defaults.Alpha, 100*changepoint.Defaults.MinStep, changepoint.Defaults.MinSegment)
	b.WriteString("per feature, hardware and scenario (by its hash), over VALID, INCONCLUSIVE and UNVERIFIED records, in the baseline's own median and in each ratio.\n\n")
	if len(fleet.Features) == 0 && len(fleet.Unreadable) == 0 && len(fleet.Bisects) == 0 {
		b.WriteString("No records yet.\n")
	}
	rows := fleet.Rows()
	if len(rows) > 0 {
		b.WriteString("| feature | hardware | latest | verdict | headline | trend | records | steps | problems |\n|---|---|---|---|---|---|---|---|---|\n")
	}
	for _, row := range rows {
		f, hw, e := row.Feature, row.Hardware, row.Latest()
		probs := problemsCell(e.Problems)
		if n, newer := row.FailingBeside(); n > 0 && newer != "" {
			probs = fmt.Sprintf("⚠ %d other record(s) fail check, the newest (%s) among them", n, cellText(newer))
		} else if n > 0 {
			probs = fmt.Sprintf("⚠ %d older record(s)", n)
		}
		fmt.Fprintf(&b, "| [%s](%s) | %s | [%s](%s) %s | %s | %s | %s | %d | %s | %s |\n", cellCode(f), linkTarget(featurePage(f)), cellCode(hw),
			cellText(e.Stem), linkTarget(e.File), cellText(e.Rec.Date), verdictCell(e), headline(e),
			sparkline(row.Records), len(row.Records), stepsCell(fleet.Steps(f, hw)), probs)
	}
	if len(rows) > 0 {
		b.WriteString("\n")
	}
	for _, f := range fleet.Features {
		es := fleet.Records[f]
		fmt.Fprintf(&b, "## %s\n\n", cellCode(f))
		plotName, changed, err := writeTrend(d, f, es, series)
		if err != nil {
			return written, err
		}
		if changed {
			written = append(written, plotName)
		}
		if plotName != "" {
			fmt.Fprintf(&b, "![%s trend](%s)\n\n", cellText(f), indexPlotDir+"/"+linkTarget(filepath.Base(plotName)))
		}
		fmt.Fprintf(&b, "[Every record of %s (%d), and its steps](%s)\n\n", cellCode(f), len(es), linkTarget(featurePage(f)))
		page, changed, err := writeFeaturePage(d, f, es, series, plotName != "")
		if err != nil {
			return written, err
		}
		if changed {
			written = append(written, page)
		}
	}
	if len(fleet.Bisects) > 0 {
		b.WriteString(bisectSection(fleet.Bisects))
	}
	if len(fleet.Unreadable) > 0 {
		b.WriteString("## Not readable as records\n\n| file | problem |\n|---|---|\n")
		for _, e := range fleet.Unreadable {
			fmt.Fprintf(&b, "| [%s](%s) | %s |\n", cellText(e.File), linkTarget(e.File), cellText(e.Err.Error()))
		}
		b.WriteString("\n")
	}
	out := filepath.Join(dir, IndexFile)
	changed, err := d.WriteIfChanged(IndexFile, []byte(b.String()), 0o644)
	if err != nil {
		return written, err
	}
	if changed {
		written = append(written, out)
	}
	return written, nil
}

// suffix is the -N of a record file stem (1 for none).
func suffix(stem string, rec *schema.Record) int {
	base := rec.Feature + "-" + rec.Hardware + "-" + rec.Date
	if n, ok := strings.CutPrefix(stem, base+"-"); ok {
		if v, err := strconv.Atoi(n); err == nil {
			return v
		}
	}
	return 1
}

// headline is every non-control arm's primary ratio with its interval,
// of a record that passes check (ShownHeadline).
func headline(e FleetRecord) string {
	var parts []string
	for _, v := range e.ShownHeadline() {
		c := v.Comparison
		s := fmt.Sprintf("%s %.3f×", cellCode(v.Arm), c.Ratio)
		if c.HasInterval() {
			s += fmt.Sprintf(" [%.3f, %.3f]", c.Lo, c.Hi)
		}
		if !c.Significant {
			s += " ~"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

// EngineVersion is the first line of the engine's version, or of each
// engine's with the arms that ran it when the arms ran several.
func EngineVersion(rec *schema.Record) string {
	if len(rec.Engines) > 0 {
		var parts []string
		for _, e := range rec.Engines {
			v, _, _ := strings.Cut(e.Version, "\n")
			parts = append(parts, strings.Join(e.Arms, ", ")+": "+v)
		}
		return strings.Join(parts, "; ")
	}
	v, _, _ := strings.Cut(rec.Engine.Version, "\n")
	return v
}

func problemsCell(ps []Problem) string {
	switch len(ps) {
	case 0:
		return "none"
	case 1:
		return "⚠ " + cellText(abbrev.FirstLine(ps[0].String()))
	}
	return fmt.Sprintf("⚠ %d, first: %s", len(ps), cellText(abbrev.FirstLine(ps[0].String())))
}

// linkTarget is a relative path inside the records folder as a Markdown
// link's target (recorder.LinkPath): each segment percent-escaped, so that
// no character of it ends the link or starts another, its colons
// included, so that no file name reads as a scheme: a record named
// https:evil.example.md is linked as the file beside the index it is,
// never as a site.
func linkTarget(file string) string { return recorder.LinkPath(file) }

// verdictCell is a record's verdict, marked when it holds only under
// gates the scenario relaxed, or for a scenario changed with run --set
// (VerdictTerms): a row that reads VALID says on what terms. A record
// that fails check reads FailsCheck (ShownVerdict).
func verdictCell(e FleetRecord) string {
	out := e.ShownVerdict()
	if marks := e.ShownTerms(); len(marks) > 0 {
		out += " (" + strings.Join(marks, "; ") + ")"
	}
	return cellText(out)
}
