package recorder

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// maxRecordBytes bounds what Parse reads: a record is tens of kilobytes.
const maxRecordBytes = 64 << 20

// Parse reads a record's data block back from its Markdown. The file must
// hold exactly one data block, and it must be the file's last fenced block:
// after its closing fence only the fixed trailer may follow, and inside it
// exactly one JSON value. Nothing else in the file is interpreted, so no
// text a user or an engine controls (which the renderer keeps on one line)
// can be taken for it. Runs are not read; see Load.
func Parse(r io.Reader) (*schema.Record, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxRecordBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read record: %w", err)
	}
	if len(src) > maxRecordBytes {
		return nil, fmt.Errorf("record larger than %d bytes", maxRecordBytes)
	}
	lines := strings.Split(string(src), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimRight(l, "\r") == dataFenceStart {
			if start >= 0 {
				return nil, fmt.Errorf("line %d: a second data block (the first is at line %d): a record has exactly one", i+1, start+1)
			}
			start = i
		}
	}
	if start < 0 {
		return nil, errors.New("no " + dataFenceStart + " block: not a decodebench record")
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
			return nil, fmt.Errorf("line %d: text after the data block: the data block must be the last thing in a record", i+1)
		}
	}
	body := strings.Join(lines[start+1:end], "\n")
	var rec schema.Record
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("line %d: data block: %w", start+1, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: data block: more than one JSON value", start+1)
	}
	if rec.Schema != schema.Schema && rec.Schema != schema.SchemaV2 {
		return nil, fmt.Errorf("line %d: data block schema %q, want %q", start+1, rec.Schema, schema.Schema)
	}
	return &rec, nil
}

// ParseFile reads a record file's data block.
func ParseFile(path string) (*schema.Record, error) {
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

// DataPath returns the record's data folder (or a file in it), resolved
// against the record file's folder. The data folder must stay inside the
// record's folder.
func DataPath(recordPath string, rec *schema.Record, elem ...string) (string, error) {
	dd := filepath.FromSlash(rec.DataDir)
	if dd == "" || filepath.IsAbs(dd) || strings.HasPrefix(filepath.Clean(dd), "..") {
		return "", fmt.Errorf("%s: data folder %q must be a relative path inside the record's folder", recordPath, rec.DataDir)
	}
	return filepath.Join(append([]string{filepath.Dir(recordPath), dd}, elem...)...), nil
}

// Load reads a record and its runs: the data block, then runs.jsonl from
// the data folder, whose sha256 must be the one the record names.
func Load(path string) (*schema.Record, error) {
	rec, err := ParseFile(path)
	if err != nil {
		return nil, err
	}
	runsPath, err := DataPath(path, rec, RunsFile)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(runsPath)
	if err != nil {
		return nil, fmt.Errorf("%s: runs: %w", path, err)
	}
	if want := rec.FileSum(RunsFile); want != "" && want != sha(b) {
		return nil, fmt.Errorf("%s: %s has sha256 %.12s, the record names %.12s: the runs were changed after the record was written", path, runsPath, sha(b), want)
	}
	rec.Runs, err = ParseRuns(bytes.NewReader(b), runsPath)
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// Files in a data folder.
const (
	RunsFile     = "runs.jsonl"
	ScenarioFile = "scenario.yaml"
)

// ParseRuns reads runs.jsonl. A last line cut off by a crash is ignored; a
// bad line before the last is an error.
func ParseRuns(r io.Reader, name string) ([]schema.Run, error) {
	var runs []schema.Run
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	var pending error
	for sc.Scan() {
		line++
		if pending != nil {
			return nil, pending
		}
		var run schema.Run
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&run); err != nil {
			pending = fmt.Errorf("%s:%d: %v", name, line, err)
			continue
		}
		runs = append(runs, run)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return runs, nil
}

// ReadRuns reads a runs.jsonl file.
func ReadRuns(path string) ([]schema.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	defer f.Close()
	return ParseRuns(f, path)
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// HashFile returns a file's sha256.
func HashFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return sha(b), nil
}
