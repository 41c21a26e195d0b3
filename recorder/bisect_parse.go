package recorder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// IsBisect reports whether a file's text holds a bisect summary's data
// block (a line that is exactly its fence).
// It walks the lines in place: a file of millions of empty lines split
// into a slice cost a reader of it tens of bytes a line.
func IsBisect(src []byte) bool {
	for len(src) > 0 {
		l := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			l, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if string(bytes.TrimRight(l, "\r")) == bisectFenceStart {
			return true
		}
	}
	return false
}

// WriteBisectFile renders the summary to path atomically, through safefs
// as WriteFile does: a link planted at path is replaced, never followed.
func WriteBisectFile(path string, b *schema.Bisect) error {
	var buf bytes.Buffer
	if err := BisectMarkdown(&buf, b); err != nil {
		return err
	}
	if err := safefs.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write bisect summary: %w", err)
	}
	return nil
}

// ParseBisect reads a bisect summary's data block back: exactly one, the
// last thing in the file, holding one JSON value of the current schema.
func ParseBisect(src []byte) (*schema.Bisect, error) {
	if err := safefs.TooManyLines(src); err != nil {
		return nil, fmt.Errorf("summary of %w", err)
	}
	lines := strings.Split(string(src), "\n")
	start := -1
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		if l == bisectFenceStart || l == dataFenceStart {
			if start >= 0 {
				return nil, fmt.Errorf("line %d: a second data block (the first is at line %d)", i+1, start+1)
			}
			start = i
		}
	}
	if start < 0 || strings.TrimRight(lines[start], "\r") != bisectFenceStart {
		return nil, errors.New("no " + bisectFenceStart + " block: not a bisect summary")
	}
	end := -1
	for i := start + 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r") == dataFenceEnd {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("line %d: data block is not closed", start+1)
	}
	trailer := false
	for i := end + 1; i < len(lines); i++ {
		switch t := strings.TrimSpace(lines[i]); {
		case t == "":
		case t == dataTrailer && !trailer:
			trailer = true
		default:
			return nil, fmt.Errorf("line %d: text after the data block", i+1)
		}
	}
	var b schema.Bisect
	dec := json.NewDecoder(strings.NewReader(strings.Join(lines[start+1:end], "\n")))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("line %d: data block: %w", start+1, clip(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: data block: more than one JSON value", start+1)
	}
	if b.Schema != schema.BisectSchema {
		return nil, fmt.Errorf("line %d: data block schema %q, want %q", start+1, b.Schema, schema.BisectSchema)
	}
	return &b, nil
}
