package planner

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

// MaxRecords bounds the records a host model is read from: the newest of
// the best tier that has any.
const MaxRecords = 5

// Records finds a scenario's host model in a records folder, as
// estimate.Records finds its costs: reading is left to the functions it is
// given (review.LoadHistory and recorder.Load: the guarded reader, runs
// checked against their sha256); a record's stored scenario is read
// through the guarded reader, checked against the sha256 its record names,
// and parsed offline (nothing of it is run or resolved on this machine).
// It has estimate.Records's fields, and both list the records they go by
// through estimate.Records.Feature.
type Records estimate.Records

// Host is the scenario's host model from the records of the hardware the
// scenario names (for "auto" or none, this machine's): those of the same
// scenario (its hash), newest first, then those of its feature, at most
// MaxRecords that can be read. Only when none of that hardware can be
// used does it go by other hardware's: one hardware, the newest record's,
// marked so. A record of another primary metric, whose stored scenario
// does not parse, or whose runs cannot be read or compared is passed over,
// and said so, as is a file named as the feature's record that cannot be
// read at all. Without one the host model is the guess.
func (r Records) Host(s *scenarios.Scenario) Host {
	shape := s.EstimateShape()
	p := s.Policy
	hw, recs, unread, err := estimate.Records(r).Feature(s.Feature, s.Hardware)
	if err != nil {
		return Guess(shape, p.Primary)
	}
	var passed []Passed
	for _, u := range unread {
		passed = append(passed, Passed{Record: u.Path, Why: "cannot be read: " + u.Why()})
	}
	same := func(h history.Record) bool { return h.Rec.Scenario.Hash == s.Hash() }
	slices.SortFunc(recs, func(a, b history.Record) int { // the same scenario's first, then newest first
		return cmp.Or(-cmp.Compare(btoi(same(a)), btoi(same(b))),
			cmp.Compare(b.Rec.Date, a.Rec.Date), cmp.Compare(b.Seq, a.Seq), cmp.Compare(b.Stem, a.Stem))
	})
	other := ""
	for _, h := range recs {
		if h.Rec.Hardware != hw && (other == "" || h.Rec.Date > newest(recs, other)) {
			other = h.Rec.Hardware
		}
	}
	for _, want := range []string{hw, other} {
		if want == "" {
			continue
		}
		var srcs []Source
		for _, h := range recs {
			if h.Rec.Hardware != want || len(srcs) == MaxRecords {
				continue
			}
			src, why := r.source(h, p.Primary)
			if why != "" {
				passed = append(passed, Passed{Record: src.Path, Why: why})
				continue
			}
			srcs = append(srcs, src)
		}
		h, ok := HostOf(srcs, shape, analysis.Current())
		passed = append(passed, h.Passed...)
		if ok {
			for _, src := range srcs {
				if slices.Contains(h.Records, src.Path) && src.Rec.Scenario.Hash == s.Hash() {
					h.Same++
				}
			}
			h.Basis = BasisFeature
			if h.Same == len(h.Records) {
				h.Basis = BasisScenario
			}
			h.Hardware, h.OtherHardware, h.Passed = want, want != hw, passed
			h.Here = hw
			h.Costs.OtherHardware = h.OtherHardware && h.Costs.Basis != estimate.BasisGuess
			return h
		}
	}
	g := Guess(shape, p.Primary)
	g.Passed, g.Here = passed, hw
	return g
}

// newest is the date of the newest record of hardware hw.
func newest(recs []history.Record, hw string) string {
	d := ""
	for _, h := range recs {
		if h.Rec.Hardware == hw {
			d = max(d, h.Rec.Date)
		}
	}
	return d
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// source reads one record of the folder whole, with its stored scenario's
// policy; why says why it cannot be used.
func (r Records) source(h history.Record, metric string) (Source, string) {
	path := filepath.Join(r.Dir, h.Stem+".md")
	src := Source{Path: path}
	rec, err := r.Load(path)
	if err != nil {
		return src, abbrev.FirstLine(err.Error())
	}
	b, err := recorder.ReadDataFile(path, rec, recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		return src, abbrev.FirstLine(err.Error())
	}
	dataDir, _ := recorder.DataPath(path, rec)
	stored, _, err := scenarios.Parse(recorder.ScenarioFile, dataDir, b, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		return src, "its stored scenario does not load: " + abbrev.FirstLine(err.Error())
	}
	if stored.Policy.Primary != metric {
		return src, fmt.Sprintf("its primary metric is %s, not %s", stored.Policy.Primary, metric)
	}
	src.Rec, src.Policy = rec, stored.Policy
	return src, ""
}

// HostOf is the host model of the sources (newest first) under rule, its
// costs for a scenario of shape from the newest that gives them (else the
// guess's); ok is false when none has a comparison of two rounds kept
// (the host's Passed says which were passed over).
func HostOf(srcs []Source, shape estimate.Shape, rule analysis.Rule) (Host, bool) {
	var ns []noise
	var used []Source
	var passed []Passed
	for _, src := range srcs {
		if n, ok := noiseOf(src, rule); ok {
			ns, used = append(ns, n), append(used, src)
		} else {
			passed = append(passed, Passed{Record: src.Path, Why: "no comparison of its runs kept two rounds"})
		}
	}
	if len(ns) == 0 {
		return Host{Passed: passed}, false
	}
	h := pool(ns)
	h.Passed = passed
	h.Metric = used[0].Policy.Primary
	h.Costs = estimate.Guess(shape)
	for _, src := range used {
		h.Records = append(h.Records, src.Path)
	}
	for _, src := range used {
		if c, ok := estimate.FromRecord(shape, src.Path, src.Rec); ok {
			c.Hardware = src.Rec.Hardware
			h.Costs = c
			break
		}
	}
	return h, true
}
