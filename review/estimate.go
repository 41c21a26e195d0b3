package review

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

// EstimateCosts are the scenario's costs from the newest record in dir of
// the same feature (and hardware, when the scenario names one) that has a
// noise anatomy or runs with wall times, read through the guarded record
// reader; a record that cannot be read is passed over. Without one they
// are the scenario's guess (scenarios.Scenario.GuessCosts).
func EstimateCosts(dir string, s *scenarios.Scenario) scenarios.Costs {
	recs, _, err := LoadHistory(dir)
	if err != nil {
		return s.GuessCosts()
	}
	recs = slices.DeleteFunc(recs, func(r history.Record) bool {
		return r.Rec.Feature != s.Feature || s.Hardware != "" && s.Hardware != "auto" && r.Rec.Hardware != s.Hardware
	})
	slices.SortFunc(recs, func(a, b history.Record) int { // newest first
		return cmp.Or(cmp.Compare(b.Rec.Date, a.Rec.Date), cmp.Compare(b.Seq, a.Seq), cmp.Compare(b.Stem, a.Stem))
	})
	for _, r := range recs {
		path := filepath.Join(dir, r.Stem+".md")
		if c, ok := s.CostsFromRecord(path, r.Rec); ok {
			return c
		}
		full, err := recorder.Load(path) // the runs, checked against their sha256
		if err != nil {
			continue
		}
		if c, ok := s.CostsFromRecord(path, full); ok {
			return c
		}
	}
	return s.GuessCosts()
}
