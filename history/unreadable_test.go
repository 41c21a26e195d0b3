package history

import (
	"errors"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A file that cannot be read is named as a feature's record by its name,
// <feature>-…: not when the name is as much a record of a longer feature
// the folder holds (spec-draft-… is not spec's), nor when it is not a
// record's error at all.
func TestUnreadableOf(t *testing.T) {
	bad := []error{
		&Unreadable{Path: "recs/spec-epyc-2026-12-07.md", Err: errors.New("recs/spec-epyc-2026-12-07.md: line 3: bad")},
		&Unreadable{Path: "recs/spec-draft-epyc-2026-12-07.md", Err: errors.New("x")},
		&Unreadable{Path: "recs/other-epyc-2026-12-07.md", Err: errors.New("x")},
		errors.New("recs/spec-xeon-2026-12-07.md: not an Unreadable"),
	}
	recs := []Record{{Rec: &schema.Record{Feature: "spec-draft"}}, {Rec: &schema.Record{Feature: "spec"}}}
	got := UnreadableOf(bad, "spec", recs)
	if len(got) != 1 || got[0].Path != "recs/spec-epyc-2026-12-07.md" || got[0].Why() != "line 3: bad" {
		t.Errorf("spec's: %+v", got)
	}
	if got := UnreadableOf(bad, "spec", nil); len(got) != 2 {
		t.Errorf("spec's, no longer feature known: %+v", got)
	}
	if got := UnreadableOf(bad, "spec-draft", recs); len(got) != 1 || got[0].Path != "recs/spec-draft-epyc-2026-12-07.md" {
		t.Errorf("spec-draft's: %+v", got)
	}
}
