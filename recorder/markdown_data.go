package recorder

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

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
	m.ln(jsonFormatEscaped(b))
	m.ln(dataFenceEnd)
	m.ln("")
	m.ln(dataTrailer)
	return nil
}

// jsonFormatEscaped is the JSON js with every format character (a
// bidirectional control, a zero-width or tag character, which JSON holds
// only inside strings) written as its \uNNNN escape, a surrogate pair
// above U+FFFF: the data block reads back the same, and shows, as the
// rest of the record does (visibleFormat), nothing that reorders or
// hides the text around it.
func jsonFormatEscaped(js []byte) string {
	s := string(js)
	if !strings.ContainsFunc(s, isFormat) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isFormat(r):
			b.WriteRune(r)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", hi, lo)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}
