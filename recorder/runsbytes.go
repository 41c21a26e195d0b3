package recorder

import (
	"bytes"
	"encoding/json"

	"github.com/decodebench/decodebench/schema"
)

// maxRunLine bounds one run, a line of runs.jsonl: ParseRuns' scanner
// refuses a line (without its newline) of this many bytes or more.
const maxRunLine = 64 << 20

// ParseRunsBytes is ParseRuns of a runs.jsonl already read: the same runs
// and the same errors. A file laid out as decodebench writes it (each
// line one JSON object from its first byte to its last, no blank line,
// no carriage return, a newline after the last) is decoded by one
// decoder, without copying each line into a decoder of its own (about
// half the time); anything else, and any line that does not decode, is
// read line by line by ParseRuns, which says what is wrong as it does.
func ParseRunsBytes(b []byte, name string) ([]schema.Run, error) {
	if runs, ok := parseRunsPlain(b); ok {
		return runs, nil
	}
	return ParseRuns(bytes.NewReader(b), name)
}

func parseRunsPlain(b []byte) ([]schema.Run, bool) {
	if len(b) == 0 || b[len(b)-1] != '\n' || bytes.IndexByte(b, '\r') >= 0 {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var runs []schema.Run
	start := 0
	for start < len(b) {
		end := start + bytes.IndexByte(b[start:], '\n') // b ends with '\n'
		if b[start] != '{' || end-start >= maxRunLine {
			return nil, false
		}
		var run schema.Run
		if dec.Decode(&run) != nil || dec.InputOffset() != int64(end) {
			return nil, false
		}
		runs = append(runs, run)
		start = end + 1
	}
	return runs, true
}
