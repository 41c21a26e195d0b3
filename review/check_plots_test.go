package review

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A record's figures are its own: another record's timeline, a file its
// data folder lacks, or one named twice fails check (each passed, shown
// in the Markdown as the campaign's).
func TestCheckHoldsPlotsToTheirFiles(t *testing.T) {
	checkEdits(t, "spec-draft-epyc-2026-12-06", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "another record's timeline", edit: func(r *schema.Record) { r.Plots[0] = "../spec-draft-epyc-2026-12-05/timeline.png" },
			want: "plot ../spec-draft-epyc-2026-12-05/timeline.png is not a figure decodebench writes"},
		{what: "a figure the folder lacks", edit: func(r *schema.Record) {
			r.Plots = r.Plots[:0]
			r.Plots = append(r.Plots, "timeline.png")
			var kept []schema.FileSum
			for _, f := range r.Files {
				if f.Path != "timeline.png" {
					kept = append(kept, f)
				}
			}
			r.Files = kept
		}, want: "plot timeline.png is not among the record's files"},
		{what: "named twice", edit: func(r *schema.Record) { r.Plots = append(r.Plots, r.Plots[0]) }, want: "is named twice"},
	})
}
