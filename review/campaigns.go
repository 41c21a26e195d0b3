package review

import (
	"fmt"
	"path/filepath"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// FailsCheckError is a record refused because check finds problems in
// it: what a command reads of its numbers or outputs could be what
// someone wrote, not what was measured.
type FailsCheckError struct {
	Path     string
	Problems []Problem
}

func (e *FailsCheckError) Error() string {
	return fmt.Sprintf("%s fails check (%d problem(s); the first: %s): decodebench check lists them",
		termsafe.String(e.Path), len(e.Problems), termsafe.String(e.Problems[0].String()))
}

// LoadChecked reads a record whole (recorder.Load), refusing one that
// fails check (through cache when it is not nil): every command that
// reads a single record's numbers or outputs reads it this way.
func LoadChecked(path string, cache *CheckCache) (*schema.Record, error) {
	if probs := CheckAll([]string{path}, cache)[0].Problems; len(probs) > 0 {
		return nil, &FailsCheckError{Path: path, Problems: probs}
	}
	return recorder.Load(path)
}

// LoadCheckedFigures is LoadChecked that keeps of each run its figures
// only (recorder.LoadFigures): for a command that reads a record's
// numbers, never its outputs (export).
func LoadCheckedFigures(path string, cache *CheckCache) (*schema.Record, error) {
	if probs := CheckAll([]string{path}, cache)[0].Problems; len(probs) > 0 {
		return nil, &FailsCheckError{Path: path, Problems: probs}
	}
	return recorder.LoadFigures(path)
}

// OnceEach is recs (records of the folder dir) with each campaign once
// (history.Once): a record copied under another name or date, its runs
// the same, is left out and returned as a duplicate of the one kept. Each
// record's campaign is read from its runs (runs.jsonl against the sha256
// the record names: their starts, their logs' sha256); a record whose
// runs cannot be read is known by its data block alone.
func OnceEach(dir string, recs []history.Record) ([]history.Record, []history.Duplicate) {
	ids := make([]history.Campaign, len(recs))
	workers.ForEach(len(recs), func(i int) {
		id := &ids[i]
		rec, err := recorder.LoadEach(filepath.Join(dir, recs[i].Stem+".md"), func(r schema.Run) error {
			id.AddRun(r)
			return nil
		})
		if err != nil {
			*id = history.Campaign{}
			rec = recs[i].Rec
		}
		id.Name(rec)
	})
	return history.Once(recs, ids)
}
