package estimate

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/schema"
)

// Records finds a scenario's costs in a records folder. Reading records
// is left to the functions it is given, so that it reads them as the
// caller does (review.LoadHistory and recorder.Load: through the guarded
// reader, runs checked against their sha256).
type Records struct {
	// Dir is the records folder.
	Dir string
	// Here is the hardware slug of this machine, asked for only for a
	// scenario whose hardware is "auto" (or none).
	Here func() string
	// List reads the data block of every record in a folder; the records
	// it could not read are passed over.
	List func(dir string) ([]history.Record, []error, error)
	// Load reads a record whole, its runs included.
	Load func(path string) (*schema.Record, error)
}

// Costs are the scenario's costs from the newest record in the folder of
// the same feature and hardware that has a noise anatomy or runs with wall
// times; a record that cannot be read is passed over. The hardware is the
// one the scenario names; for "auto" (or none) it is Here, and only when
// no record of it can be used is the newest record of other hardware
// taken, marked OtherHardware. Without a record the costs are the guess.
func (r Records) Costs(s Shape) Costs {
	recs, _, err := r.List(r.Dir)
	if err != nil {
		return Guess(s)
	}
	hw, named := s.Hardware, s.Hardware != "" && s.Hardware != "auto"
	if !named {
		hw = r.Here()
	}
	recs = slices.DeleteFunc(recs, func(h history.Record) bool {
		return h.Rec.Feature != s.Feature || named && h.Rec.Hardware != hw
	})
	slices.SortFunc(recs, func(a, b history.Record) int { // this hardware's first, then newest first
		return cmp.Or(-cmp.Compare(btoi(a.Rec.Hardware == hw), btoi(b.Rec.Hardware == hw)),
			cmp.Compare(b.Rec.Date, a.Rec.Date), cmp.Compare(b.Seq, a.Seq), cmp.Compare(b.Stem, a.Stem))
	})
	for _, h := range recs {
		if c, ok := r.from(s, h); ok {
			c.Hardware, c.OtherHardware = h.Rec.Hardware, h.Rec.Hardware != hw
			return c
		}
	}
	return Guess(s)
}

// from derives the scenario's costs from one record of the folder, read
// whole through Load (which may refuse it: a record that fails check):
// from its data block when that holds a noise anatomy, else from its
// runs.
func (r Records) from(s Shape, h history.Record) (Costs, bool) {
	path := filepath.Join(r.Dir, h.Stem+".md")
	full, err := r.Load(path)
	if err != nil {
		return Costs{}, false
	}
	return FromRecord(s, path, full)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
