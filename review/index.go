package review

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// IndexFile is the index written into a records folder.
const IndexFile = "README.md"

// indexPlotDir holds the trend plots, inside the records folder.
const indexPlotDir = "index"

// entry is one record in the index.
type entry struct {
	file     string // base name
	stem     string
	rec      *schema.Record
	err      error
	problems []Problem
	seq      int // the -N suffix of the file name
}

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
// Records are read and checked on every CPU at once, through cache when
// it is not nil (see CheckCache).
func Index(dir string, cache *CheckCache) (written []string, err error) {
	d, err := safefs.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	var bisects []bisectEntry
	var brokenBisects []entry
	links := newIdentityMemo()
	names = slices.DeleteFunc(names, func(n string) bool {
		base := filepath.Base(n)
		if base == IndexFile || safefs.IsTemp(base) {
			return true
		}
		be, ok := readBisect(n, base, links)
		switch {
		case ok && be.err != nil:
			brokenBisects = append(brokenBisects, entry{file: base, stem: strings.TrimSuffix(base, ".md"), err: be.err})
		case ok:
			bisects = append(bisects, be)
		}
		return ok
	})
	entries := make([]entry, len(names))
	forEach(len(names), func(i int) {
		n := names[i]
		base := filepath.Base(n)
		e := entry{file: base, stem: strings.TrimSuffix(base, ".md")}
		src, err := safefs.ReadFile(n, safefs.MaxRecord)
		if err == nil {
			if e.rec, err = recorder.Parse(bytes.NewReader(src)); err != nil {
				err = fmt.Errorf("%s: %w", n, err)
			}
		}
		e.err = err
		if e.err == nil {
			if err := recorder.CheckName(e.rec.Feature, e.rec.Hardware, e.rec.Date); err != nil {
				e.err = fmt.Errorf("%s: not a valid record name: %w", n, err)
			}
		}
		if e.err == nil {
			e.problems = checkParsed(n, src, e.rec, cache)
			e.seq = suffix(e.stem, e.rec)
		}
		entries[i] = e
	})
	entries = append(entries, brokenBisects...)
	byFeature := map[string][]entry{}
	var features []string
	var broken []entry
	var all []history.Record
	for _, e := range entries {
		if e.err != nil {
			broken = append(broken, e)
			continue
		}
		f := e.rec.Feature
		if _, ok := byFeature[f]; !ok {
			features = append(features, f)
		}
		byFeature[f] = append(byFeature[f], e)
		all = append(all, history.Record{Stem: e.stem, Seq: e.seq, Rec: e.rec})
	}
	sort.Strings(features)
	series := history.Build(all, changepoint.Defaults)

	var b strings.Builder
	b.WriteString("# Benchmark records\n\n")
	b.WriteString("Written by `decodebench index`; do not edit by hand. One row per feature and hardware: its latest record, ")
	b.WriteString("the verdict, the headline (each non-control arm's ratio of medians to the baseline on the primary metric, with its interval), ")
	b.WriteString("the trend of the first arm's ratio over the last records, and the steps found in its history. ")
	b.WriteString("Every record, the steps with the records on either side, and the trend plot are on the feature's page. ")
	b.WriteString("Problems are what `decodebench check` finds.\n\n")
	fmt.Fprintf(&b, "Steps: %s; two-sided p < %g, a change of at least %g%%, at least %d records on either side; ",
		changepoint.Method, changepoint.Defaults.Alpha, 100*changepoint.Defaults.MinStep, changepoint.Defaults.MinSegment)
	b.WriteString("per feature, hardware and scenario (by its hash), over VALID, INCONCLUSIVE and UNVERIFIED records, in the baseline's own median and in each ratio.\n\n")
	if len(entries) == 0 && len(bisects) == 0 {
		b.WriteString("No records yet.\n")
	}
	if len(features) > 0 {
		b.WriteString("| feature | hardware | latest | verdict | headline | trend | records | steps | problems |\n|---|---|---|---|---|---|---|---|---|\n")
	}
	for _, f := range features {
		es := byFeature[f]
		sortEntries(es)
		hw := ""
		for _, e := range es {
			if e.rec.Hardware == hw {
				continue
			}
			hw = e.rec.Hardware
			n, bad := 0, 0
			for _, o := range es {
				if o.rec.Hardware == hw {
					n++
					if len(o.problems) > 0 {
						bad++
					}
				}
			}
			probs := problemsCell(e.problems)
			if bad > 0 && len(e.problems) == 0 {
				probs = fmt.Sprintf("⚠ %d older record(s)", bad)
			}
			fmt.Fprintf(&b, "| [%s](%s) | %s | [%s](%s) %s | %s | %s | %s | %d | %s | %s |\n", cellCode(f), linkTarget(featurePage(f)), cellCode(hw),
				cellText(e.stem), linkTarget(e.file), cellText(e.rec.Date), verdictCell(e.rec), headline(e.rec),
				sparkline(es, hw), n, stepsCell(series, f, hw), probs)
		}
	}
	if len(features) > 0 {
		b.WriteString("\n")
	}
	for _, f := range features {
		es := byFeature[f]
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
	if len(bisects) > 0 {
		b.WriteString(bisectSection(bisects))
	}
	if len(broken) > 0 {
		b.WriteString("## Not readable as records\n\n| file | problem |\n|---|---|\n")
		for _, e := range broken {
			fmt.Fprintf(&b, "| [%s](%s) | %s |\n", cellText(e.file), linkTarget(e.file), cellText(e.err.Error()))
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

// sortEntries orders a feature's records by hardware, then newest first.
func sortEntries(es []entry) {
	sort.SliceStable(es, func(i, j int) bool {
		a, c := es[i], es[j]
		if a.rec.Hardware != c.rec.Hardware {
			return a.rec.Hardware < c.rec.Hardware
		}
		if a.rec.Date != c.rec.Date {
			return a.rec.Date > c.rec.Date
		}
		return a.seq > c.seq
	})
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

// headline is every non-control arm's primary ratio with its interval.
func headline(rec *schema.Record) string {
	if !rec.Verdict.ShowsResults() {
		return "—"
	}
	var parts []string
	for _, v := range rec.Analysis.ArmVerdicts {
		if v.Control || !v.Comparison.Defined() {
			continue
		}
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

func engineVersion(rec *schema.Record) string {
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
// gates the scenario relaxed, or for a scenario changed with run --set:
// a row that reads VALID says on what terms.
func verdictCell(rec *schema.Record) string {
	out := string(rec.Verdict)
	var marks []string
	for _, w := range rec.Analysis.Warnings {
		if g, ok := w.(schema.GatesRelaxed); ok {
			marks = append(marks, "relaxed gates: "+g.Which)
		}
	}
	if len(rec.Scenario.Overrides) > 0 {
		marks = append(marks, "--set "+strings.Join(rec.Scenario.Overrides, ", "))
	}
	if len(marks) > 0 {
		out += " (" + strings.Join(marks, "; ") + ")"
	}
	return cellText(out)
}
