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
// the same feature and hardware that has a noise anatomy or runs with wall
// times, read through the guarded record reader; a record that cannot be
// read is passed over. The hardware is the one the scenario names; for
// "auto" (or none) it is here, the slug of the machine the campaign would
// run on, and only when no record of here can be used is the newest record
// of other hardware taken, marked OtherHardware. Without a record the costs
// are the scenario's guess (scenarios.Scenario.GuessCosts).
func EstimateCosts(dir string, s *scenarios.Scenario, here string) scenarios.Costs {
	recs, _, err := LoadHistory(dir)
	if err != nil {
		return s.GuessCosts()
	}
	hw, named := s.Hardware, s.Hardware != "" && s.Hardware != "auto"
	if !named {
		hw = here
	}
	recs = slices.DeleteFunc(recs, func(r history.Record) bool {
		return r.Rec.Feature != s.Feature || named && r.Rec.Hardware != hw
	})
	slices.SortFunc(recs, func(a, b history.Record) int { // this hardware's first, then newest first
		return cmp.Or(-cmp.Compare(btoi(a.Rec.Hardware == hw), btoi(b.Rec.Hardware == hw)),
			cmp.Compare(b.Rec.Date, a.Rec.Date), cmp.Compare(b.Seq, a.Seq), cmp.Compare(b.Stem, a.Stem))
	})
	for _, r := range recs {
		if c, ok := costsFrom(dir, s, r); ok {
			c.Hardware, c.OtherHardware = r.Rec.Hardware, r.Rec.Hardware != hw
			return c
		}
	}
	return s.GuessCosts()
}

// costsFrom derives the scenario's costs from one record in dir: from its
// header when that holds a noise anatomy, else from its runs, read and
// checked against their sha256.
func costsFrom(dir string, s *scenarios.Scenario, r history.Record) (scenarios.Costs, bool) {
	path := filepath.Join(dir, r.Stem+".md")
	if c, ok := s.CostsFromRecord(path, r.Rec); ok {
		return c, true
	}
	full, err := recorder.Load(path)
	if err != nil {
		return scenarios.Costs{}, false
	}
	return s.CostsFromRecord(path, full)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
