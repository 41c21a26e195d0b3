package recorder

import (
	"encoding/json"
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

// DataFence is the info string of the fenced block that carries the record's
// machine-readable data, so tools can read a record without its data folder.
const DataFence = "json decodebench-record"

// The data block's fence lines and what follows it: nothing else may come
// after the block.
const (
	dataFenceStart = "```" + DataFence
	dataFenceEnd   = "```"
	dataTrailer    = "</details>"
)

func (m *mdWriter) notMeasured(r *schema.Record) {
	m.h2("Not measured")
	for _, s := range r.Scenario.Unmeasured {
		m.p("- %s\n", text(s))
	}
	for _, u := range r.Analysis.Unmeasured {
		m.p("- %s\n", m.reasonLine(u))
	}
	m.ln("")
}

func (m *mdWriter) data(r *schema.Record) error {
	// The runs are in runs.jsonl, whose hash is in Files.
	b, err := json.MarshalIndent(r.Stored(), "", "  ")
	if err != nil {
		return fmt.Errorf("record data: %w", err)
	}
	m.h2("Data")
	m.ln("<details><summary>Machine-readable record (parsed by <code>decodebench</code> tools)</summary>")
	m.ln("")
	m.ln(dataFenceStart)
	m.ln(string(b))
	m.ln(dataFenceEnd)
	m.ln("")
	m.ln(dataTrailer)
	return nil
}
