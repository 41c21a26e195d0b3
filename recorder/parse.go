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
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// maxRecordBytes bounds what Parse reads: a record is tens of kilobytes.
const maxRecordBytes = safefs.MaxRecord

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
	if err := safefs.TooManyLines(src); err != nil {
		return nil, fmt.Errorf("record of %w", err)
	}
	body, line, err := dataBlock(src)
	if err != nil {
		return nil, err
	}
	var rec schema.Record
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("line %d: data block: %w", line, clip(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: data block: more than one JSON value", line)
	}
	if !schema.KnownSchema(rec.Schema) {
		return nil, fmt.Errorf("line %d: data block schema %q, want %q", line, rec.Schema, schema.SchemaV5)
	}
	return &rec, nil
}

// dataBlock finds the record's one data block: the JSON between its
// fences, and the line of its opening fence (1-based). It walks the
// lines in place: splitting a record of tens of KB into a slice of lines
// cost more than finding the block.
func dataBlock(src []byte) (string, int, error) {
	text := string(src)
	start, bodyFrom := -1, 0
	for i, l := range linesOf(text) {
		if strings.TrimRight(l.text, "\r") == dataFenceStart {
			if start >= 0 {
				return "", 0, fmt.Errorf("line %d: a second data block (the first is at line %d): a record has exactly one", i+1, start+1)
			}
			start, bodyFrom = i, l.next+1
		}
	}
	if start < 0 {
		return "", 0, errors.New("no " + dataFenceStart + " block: not a decodebench record")
	}
	end, bodyTo := -1, 0
	for i, l := range linesOf(text) {
		if i > start && strings.TrimRight(l.text, "\r") == dataFenceEnd {
			end, bodyTo = i, l.off-1 // up to the "\n" before the closing fence
			break
		}
	}
	if end < 0 {
		return "", 0, fmt.Errorf("line %d: data block is not closed", start+1)
	}
	trailer := false
	for i, l := range linesOf(text) {
		if i <= end {
			continue
		}
		switch t := strings.TrimSpace(l.text); {
		case t == "":
		case t == dataTrailer && !trailer:
			trailer = true
		default:
			return "", 0, fmt.Errorf("line %d: text after the data block: the data block must be the last thing in a record", i+1)
		}
	}
	if bodyTo < bodyFrom {
		return "", start + 1, nil // an empty block
	}
	return text[bodyFrom:bodyTo], start + 1, nil
}

// lineSpan is a line of a text and where it is: text[off:next].
type lineSpan struct {
	text      string
	off, next int
}

// linesOf yields each line of text split at "\n" as strings.Split does,
// with its index.
func linesOf(text string) iter.Seq2[int, lineSpan] {
	return func(yield func(int, lineSpan) bool) {
		for i, off := 0, 0; off <= len(text); i++ {
			next := strings.IndexByte(text[off:], '\n')
			if next < 0 {
				next = len(text)
			} else {
				next += off
			}
			if !yield(i, lineSpan{text[off:next], off, next}) {
				return
			}
			off = next + 1
		}
	}
}

// DataDirOf reads only the data folder a record names (relative to the
// record), the paths of the files it names in it and the records its host
// history names, from its data block as Parse finds it, without decoding
// the rest: for callers that need to know which files a record's check
// reads and nothing more.
func DataDirOf(src []byte) (dir string, files, history []string, err error) {
	body, line, err := dataBlock(src)
	if err != nil {
		return "", nil, nil, err
	}
	var only struct {
		DataDir string `json:"data_dir"`
		Files   []struct {
			Path string `json:"path"`
		} `json:"files"`
		Method struct {
			History *struct {
				Records []struct {
					Record string `json:"record"`
				} `json:"records"`
			} `json:"history"`
		} `json:"method"`
	}
	if err := json.Unmarshal([]byte(body), &only); err != nil {
		return "", nil, nil, fmt.Errorf("line %d: data block: %w", line, clip(err))
	}
	for _, f := range only.Files {
		files = append(files, f.Path)
	}
	if h := only.Method.History; h != nil {
		for _, r := range h.Records {
			history = append(history, r.Record)
		}
	}
	return only.DataDir, files, history, nil
}

// ParseFile reads a record file's data block, through the guarded reader:
// a link, a device, a FIFO or a file over safefs.MaxRecord is refused.
func ParseFile(path string) (*schema.Record, error) {
	f, err := safefs.Open(path, maxRecordBytes)
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
// runs.jsonl is streamed (EachRun) and hashed as it is read: what Load
// holds is the runs, never the file too.
func Load(path string) (*schema.Record, error) {
	var runs []schema.Run
	rec, err := LoadEach(path, AppendRun(&runs, path+": "+RunsFile))
	if err != nil {
		return nil, err
	}
	rec.Runs = runs
	return rec, nil
}

// LoadEach is Load that hands each run to each instead of keeping it
// (rec.Runs stays empty), runs.jsonl's sha256 checked all the same.
func LoadEach(path string, each func(schema.Run) error) (*schema.Record, error) {
	return LoadWith(path, func(*schema.Record, *os.File) (func(schema.Run) error, error) { return each, nil })
}

// LoadWith is LoadEach whose each is made by begin once the data block
// is read and runs.jsonl is open: begin may read the file (its size, its
// lines) but must leave it at its start.
func LoadWith(path string, begin func(rec *schema.Record, runs *os.File) (func(schema.Run) error, error)) (*schema.Record, error) {
	rec, err := ParseFile(path)
	if err != nil {
		return nil, err
	}
	runsPath, err := DataPath(path, rec, RunsFile)
	if err != nil {
		return nil, err
	}
	d, err := OpenData(path, rec)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := d.Open(RunsFile, safefs.MaxRuns)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	each, err := begin(rec, f)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	in := &io.LimitedReader{R: f, N: safefs.MaxRuns + 1}
	err = EachRun(io.TeeReader(in, h), runsPath, each)
	if _, cerr := io.Copy(h, in); cerr != nil && err == nil {
		err = cerr
	}
	switch got := hex.EncodeToString(h.Sum(nil)); {
	case in.N == 0:
		return nil, fmt.Errorf("%s: %w", path, &safefs.TooLargeError{Path: d.Path() + "/" + RunsFile, Limit: safefs.MaxRuns})
	case rec.FileSum(RunsFile) != "" && got != rec.FileSum(RunsFile):
		return nil, &IntegrityError{Record: path, File: RunsFile, Got: got, Want: rec.FileSum(RunsFile)}
	case err != nil:
		return nil, err
	}
	return rec, nil
}

// WriteIn renders the record into name under a folder held open,
// atomically and never through a link (see safefs.Dir.WriteFile).
func WriteIn(d *safefs.Dir, name string, r *schema.Record) error {
	var b bytes.Buffer
	if err := Markdown(&b, r); err != nil {
		return err
	}
	if err := d.WriteFile(name, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}

// IntegrityError says a data folder's file is not the one its record names.
type IntegrityError struct {
	Record, File, Got, Want string
}

func (e *IntegrityError) Error() string {
	return fmt.Sprintf("%s: %s has sha256 %.12s, the record names %.12s: changed after the record was written", e.Record, e.File, e.Got, e.Want)
}

// OpenData holds the record's data folder open: resolved against the
// record file's folder, and never reached through a link.
func OpenData(recordPath string, rec *schema.Record) (*safefs.Dir, error) {
	if _, err := DataPath(recordPath, rec); err != nil {
		return nil, err
	}
	top, err := safefs.OpenDir(filepath.Dir(recordPath))
	if err != nil {
		return nil, err
	}
	defer top.Close()
	d, err := top.Sub(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rec.DataDir))), false)
	if err != nil {
		return nil, fmt.Errorf("%s: data folder: %w", recordPath, err)
	}
	return d, nil
}

// ReadDataFile reads a file of the record's data folder through the
// guarded reader (at most limit bytes) and, when the record names its
// sha256, refuses it unless the sha256 matches.
func ReadDataFile(recordPath string, rec *schema.Record, name string, limit int64) ([]byte, error) {
	d, err := OpenData(recordPath, rec)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	b, err := d.ReadFile(name, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", recordPath, err)
	}
	if want := rec.FileSum(name); want != "" && want != sha(b) {
		return nil, &IntegrityError{Record: recordPath, File: name, Got: sha(b), Want: want}
	}
	return b, nil
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
	// The buffer grows to the longest line; a run's line is a few KB.
	sc.Buffer(make([]byte, 0, 64<<10), maxRunLine)
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
			pending = fmt.Errorf("%s:%d: %v", name, line, clip(err))
			continue
		}
		runs = append(runs, run)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return runs, nil
}

// ReadRuns reads a runs.jsonl file, through the guarded reader, as
// ParseRuns reads it (EachRun).
func ReadRuns(path string) ([]schema.Run, error) {
	f, err := safefs.Open(path, safefs.MaxRuns)
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	defer f.Close()
	var runs []schema.Run
	if err := EachRun(io.LimitReader(f, safefs.MaxRuns), path, AppendRun(&runs, path)); err != nil {
		return nil, err
	}
	return runs, nil
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// HashFile returns a file's sha256, read through the guarded reader.
func HashFile(path string) (string, error) {
	return hashOpened(safefs.Open(path, safefs.MaxDataFile))
}

// HashFileIn is HashFile of rel under a folder held open, never through a
// link.
func HashFileIn(d *safefs.Dir, rel string) (string, error) {
	return hashOpened(d.Open(rel, safefs.MaxDataFile))
}

// hashOpened is the sha256 of f, which it closes, up to a data file's cap.
func hashOpened(f *os.File, err error) (string, error) {
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, safefs.MaxDataFile+1)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
