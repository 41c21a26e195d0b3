package review

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// method.footprint is its runs' sum: an edited total fails check.
func TestCheckDerivesTheFootprint(t *testing.T) {
	checkEdits(t, "spec-draft-epyc-2026-12-06", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "a smaller CPU total", edit: func(r *schema.Record) { r.Method.Footprint.CPUS = 0.001 },
			want: "footprint {\"cpu_s\":0.001"},
		{what: "none", edit: func(r *schema.Record) { r.Method.Footprint = nil }, want: "footprint none, where the runs' footprints sum to {"},
	})
}
