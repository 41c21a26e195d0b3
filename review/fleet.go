package review

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// Fleet is a records folder as the index reads it: every record parsed
// and checked, the bisect summaries, the files that are not readable
// records, and the series history finds in the records. The index writes
// it as Markdown, the site as HTML; neither computes anything else.
type Fleet struct {
	// Features are the features of the readable records, sorted.
	Features []string
	// Records holds each feature's records, by hardware, newest first.
	Records map[string][]FleetRecord
	// Bisects are the bisect summaries that parse, in file name order.
	Bisects []FleetBisect
	// Unreadable are the files that are neither, records then bisect
	// summaries.
	Unreadable []Unreadable
	// Series are history.Build's over every readable record, with
	// changepoint.Defaults.
	Series []history.Series
}

// FleetRecord is one readable record of a fleet.
type FleetRecord struct {
	File string // the base name
	Stem string // File without .md
	Seq  int    // the -N suffix of the file name (1 for none)
	Rec  *schema.Record
	// Problems are what check finds.
	Problems []Problem
	// SameAs, when set, is the record that holds the same campaign as
	// this one (history.Once): this one is left out of the series and
	// the regimes, so that one campaign counts once.
	SameAs string
}

// Counts reports whether the record's numbers enter the series and the
// regimes: it passes check and is no other record's campaign again.
func (r FleetRecord) Counts() bool { return len(r.Problems) == 0 && r.SameAs == "" }

// FleetBisect is one bisect summary of a fleet.
type FleetBisect struct {
	File     string
	Summary  *schema.Bisect
	Problems []Problem
}

// Unreadable is a file of a records folder that is not a readable record
// with a valid name, nor a bisect summary that parses.
type Unreadable struct {
	File string
	Err  error
}

// FleetRow is one feature and hardware of a fleet: its records, newest
// first, and how many of them check finds problems in.
type FleetRow struct {
	Feature, Hardware string
	Records           []FleetRecord
	WithProblems      int
}

// ReadFleet reads the records folder dir: every *.md but the index and
// temporary files (a killed run's .record-*.md), each parsed and checked
// (through cache when it is not nil), on every CPU at once. A record
// whose feature, hardware slug or date is not a valid name (as a
// scenario's must be) is unreadable.
func ReadFleet(dir string, cache *CheckCache) (*Fleet, error) {
	return ReadFleetProgress(dir, cache, nil)
}

// ReadFleetProgress is ReadFleet telling progress of each record read
// and checked (bisect summaries are checked before, and not counted).
func ReadFleetProgress(dir string, cache *CheckCache, progress Progress) (*Fleet, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	f := &Fleet{Records: map[string][]FleetRecord{}}
	var brokenBisects []Unreadable
	links := newIdentityMemo() // each file linked from the summaries checked once
	names = slices.DeleteFunc(names, func(n string) bool {
		base := filepath.Base(n)
		if base == IndexFile || safefs.IsTemp(base) {
			return true
		}
		be, ok, err := readBisect(n, base, links)
		switch {
		case ok && err != nil:
			brokenBisects = append(brokenBisects, Unreadable{File: base, Err: err})
		case ok:
			f.Bisects = append(f.Bisects, be)
		}
		return ok
	})
	recs := make([]FleetRecord, len(names))
	errs := make([]error, len(names))
	done := newCounter(progress, len(names))
	workers.ForEach(len(names), func(i int) {
		recs[i], errs[i] = readFleetRecord(names[i], cache)
		done.one()
	})
	var all []history.Record
	for i, r := range recs {
		if errs[i] != nil {
			f.Unreadable = append(f.Unreadable, Unreadable{File: r.File, Err: errs[i]})
			continue
		}
		feature := r.Rec.Feature
		if _, ok := f.Records[feature]; !ok {
			f.Features = append(f.Features, feature)
		}
		f.Records[feature] = append(f.Records[feature], r)
		if len(r.Problems) == 0 {
			// A step between records that fail check is a step in what
			// someone wrote, not in what was measured: the series (and the
			// bisect commands a regression step prints) take only records
			// that check, as regime does.
			all = append(all, history.Record{Stem: r.Stem, Seq: r.Seq, Rec: r.Rec})
		}
	}
	f.Unreadable = append(f.Unreadable, brokenBisects...)
	all, dups := OnceEach(dir, all)
	sameAs := map[string]string{}
	for _, d := range dups {
		sameAs[d.Stem] = d.Of
	}
	sort.Strings(f.Features)
	for _, feature := range f.Features {
		for i, r := range f.Records[feature] {
			f.Records[feature][i].SameAs = sameAs[r.Stem]
		}
		sortRecords(f.Records[feature])
	}
	f.Series = history.Build(all, changepoint.Defaults)
	return f, nil
}

func readFleetRecord(path string, cache *CheckCache) (FleetRecord, error) {
	base := filepath.Base(path)
	r := FleetRecord{File: base, Stem: strings.TrimSuffix(base, ".md")}
	src, err := safefs.ReadFile(path, safefs.MaxRecord)
	if err != nil {
		return r, err
	}
	if r.Rec, err = recorder.Parse(bytes.NewReader(src)); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	if err := recorder.CheckName(r.Rec.Feature, r.Rec.Hardware, r.Rec.Date); err != nil {
		return r, fmt.Errorf("%s: not a valid record name: %w", path, err)
	}
	r.Problems = checkParsed(path, src, r.Rec, cache)
	r.Seq = suffix(r.Stem, r.Rec)
	return r, nil
}

// sortRecords orders a feature's records by hardware, then newest first.
func sortRecords(rs []FleetRecord) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, c := rs[i], rs[j]
		if a.Rec.Hardware != c.Rec.Hardware {
			return a.Rec.Hardware < c.Rec.Hardware
		}
		if a.Rec.Date != c.Rec.Date {
			return a.Rec.Date > c.Rec.Date
		}
		return a.Seq > c.Seq
	})
}

// Rows is the fleet's features × hardware, features sorted, each
// feature's hardware sorted.
func (f *Fleet) Rows() []FleetRow {
	var out []FleetRow
	for _, feature := range f.Features {
		out = append(out, f.FeatureRows(feature)...)
	}
	return out
}

// FeatureRows is one feature's rows, one per hardware, sorted.
func (f *Fleet) FeatureRows(feature string) []FleetRow {
	var out []FleetRow
	for _, r := range f.Records[feature] {
		if len(out) == 0 || out[len(out)-1].Hardware != r.Rec.Hardware {
			out = append(out, FleetRow{Feature: feature, Hardware: r.Rec.Hardware})
		}
		row := &out[len(out)-1]
		row.Records = append(row.Records, r)
		if len(r.Problems) > 0 {
			row.WithProblems++
		}
	}
	return out
}

// Steps are the steps of a feature's series on one hardware ("" for
// every hardware), each with its series and metric, in series order.
func (f *Fleet) Steps(feature, hw string) []FleetStep { return fleetSteps(f.Series, feature, hw) }

func fleetSteps(series []history.Series, feature, hw string) []FleetStep {
	var out []FleetStep
	for _, s := range series {
		if s.Feature != feature || hw != "" && s.Hardware != hw {
			continue
		}
		for _, m := range s.Metrics {
			for _, st := range m.Steps {
				out = append(out, FleetStep{Hardware: s.Hardware, ScenarioHash: s.ScenarioHash, Metric: m, Step: st})
			}
		}
	}
	return out
}

// FleetStep is one step of a fleet's series.
type FleetStep struct {
	Hardware, ScenarioHash string
	Metric                 history.Metric
	Step                   history.Step
}

// LatestStep is the step whose first record after it is the newest
// (the first such in series order); ok false when there is none.
func LatestStep(steps []FleetStep) (FleetStep, bool) {
	var latest FleetStep
	found := false
	for _, s := range steps {
		if !found || s.Step.First.Date > latest.Step.First.Date {
			latest, found = s, true
		}
	}
	return latest, found
}

// Headline is a record's headline: every non-control arm's comparison on
// the primary metric that is defined; none when the verdict shows no
// results.
func Headline(rec *schema.Record) []schema.ArmVerdict {
	if !rec.Verdict.ShowsResults() {
		return nil
	}
	var out []schema.ArmVerdict
	for _, v := range rec.Analysis.ArmVerdicts {
		if !v.Control && v.Comparison.Defined() {
			out = append(out, v)
		}
	}
	return out
}

// VerdictTerms are the terms a record's verdict holds on: the gates the
// scenario relaxed, and the values run --set changed.
func VerdictTerms(rec *schema.Record) []string {
	var marks []string
	for _, w := range rec.Analysis.Warnings {
		if g, ok := w.(schema.GatesRelaxed); ok {
			marks = append(marks, "relaxed gates: "+g.Which)
		}
	}
	if len(rec.Scenario.Overrides) > 0 {
		marks = append(marks, "--set "+strings.Join(rec.Scenario.Overrides, ", "))
	}
	return marks
}

// SettledBy is a bisect summary of the feature that searched a step's
// range on its hardware: its good commit is the source commit of the
// record before the step and its bad commit the one after (either may
// be written shorter than the other, down to seven characters). A
// summary that names no hardware matches any; one that fails check
// settles nothing (its result is only what it claims).
func (f *Fleet) SettledBy(feature, hw string, st history.Step) (FleetBisect, bool) {
	for _, b := range f.Bisects {
		s := b.Summary
		if len(b.Problems) == 0 && s.Feature == feature && (s.Hardware == "" || s.Hardware == hw) &&
			sameCommit(s.Good, st.Last.SourceCommit) && sameCommit(s.Bad, st.First.SourceCommit) {
			return b, true
		}
	}
	return FleetBisect{}, false
}

func sameCommit(a, b string) bool {
	n := min(len(a), len(b))
	return n >= 7 && a[:n] == b[:n]
}
