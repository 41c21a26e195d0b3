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
	// Once, when set, keeps one record of each campaign of those listed
	// for a feature (review.OnceEach): a record copied under other names
	// is one campaign, not several to go by.
	Once func(dir string, recs []history.Record) []history.Record
}

// Feature lists the folder's records of feature, and says the hardware
// hw a campaign of hardware (a scenario's hardware key) records: the one
// named, for "auto" or none this machine's (Here). Records of every
// hardware are listed: a caller goes by hw's first, and by other
// hardware's, a second tier, only when none of hw's can be used, and says
// so. A named hardware of which the folder holds no record is such a
// case as much as this machine's (the guess would ignore records of the
// same feature that the folder does hold). unread are the folder's files
// named as feature's records that could not be read (history.UnreadableOf).
func (r Records) Feature(feature, hardware string) (hw string, recs []history.Record, unread []*history.Unreadable, err error) {
	recs, bad, err := r.List(r.Dir)
	if err != nil {
		return "", nil, nil, err
	}
	unread = history.UnreadableOf(bad, feature, recs)
	hw = hardware
	if hw == "" || hw == "auto" {
		hw = r.Here()
	}
	recs = slices.DeleteFunc(recs, func(h history.Record) bool { return h.Rec.Feature != feature })
	if r.Once != nil {
		recs = r.Once(r.Dir, recs)
	}
	return hw, recs, unread, nil
}

// Costs are the scenario's costs from the newest record in the folder of
// the same feature and hardware that has a noise anatomy or runs with wall
// times; a record that cannot be read is passed over. The hardware is the
// one the scenario names, for "auto" (or none) Here; only when no record
// of it can be used is the newest usable record of other hardware taken,
// marked OtherHardware (Feature). Without a record the costs are the
// guess.
func (r Records) Costs(s Shape) Costs {
	hw, recs, unread, err := r.Feature(s.Feature, s.Hardware)
	if err != nil {
		return Guess(s)
	}
	var names []string
	for _, u := range unread {
		names = append(names, u.Path)
	}
	slices.SortFunc(recs, func(a, b history.Record) int { // this hardware's first, then newest first
		return cmp.Or(-cmp.Compare(btoi(a.Rec.Hardware == hw), btoi(b.Rec.Hardware == hw)),
			cmp.Compare(b.Rec.Date, a.Rec.Date), cmp.Compare(b.Seq, a.Seq), cmp.Compare(b.Stem, a.Stem))
	})
	for _, h := range recs {
		if c, ok := r.from(s, h); ok {
			c.Hardware, c.OtherHardware, c.Unread = h.Rec.Hardware, h.Rec.Hardware != hw, names
			return c
		}
	}
	g := Guess(s)
	g.Unread = names
	return g
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
