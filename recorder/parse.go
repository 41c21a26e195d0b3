package recorder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Parse reads a record back from its Markdown: the fenced data block holds
// the whole record, so nothing else in the file is interpreted.
func Parse(r io.Reader) (*Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var buf bytes.Buffer
	in, found, line, start := false, false, 0, 0
	for sc.Scan() {
		line++
		t := sc.Text()
		switch {
		case !in && strings.TrimSpace(t) == "```"+DataFence:
			in, found, start = true, true, line
		case in && strings.TrimSpace(t) == "```":
			in = false
		case in:
			buf.WriteString(t)
			buf.WriteByte('\n')
		}
		if found && !in {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read record: %w", err)
	}
	if !found {
		return nil, errors.New("no ```" + DataFence + " block: not a decodebench record")
	}
	if in {
		return nil, fmt.Errorf("line %d: data block is not closed", start)
	}
	var rec Record
	dec := json.NewDecoder(&buf)
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("line %d: data block: %w", start, err)
	}
	if rec.Schema != Schema {
		return nil, fmt.Errorf("line %d: data block schema %q, want %q", start, rec.Schema, Schema)
	}
	return &rec, nil
}

// ParseFile reads a record file.
func ParseFile(path string) (*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}
