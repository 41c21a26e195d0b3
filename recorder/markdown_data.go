package recorder

import (
	"encoding/json"
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) notMeasured(r *schema.Record) {
	m.ln("## Not measured")
	m.ln("")
	for _, s := range r.Scenario.Unmeasured {
		m.p("- %s\n", text(s))
	}
	for _, u := range r.Analysis.Unmeasured {
		m.p("- %s\n", reasonLine(u))
	}
	m.ln("")
}

func (m *mdWriter) data(r *schema.Record) error {
	// The runs are in runs.jsonl, whose hash is in Files.
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("record data: %w", err)
	}
	m.ln("## Data")
	m.ln("")
	m.ln("<details><summary>Machine-readable record (parsed by <code>decodebench</code> tools)</summary>")
	m.ln("")
	m.ln(dataFenceStart)
	m.ln(string(b))
	m.ln(dataFenceEnd)
	m.ln("")
	m.ln(dataTrailer)
	return nil
}
