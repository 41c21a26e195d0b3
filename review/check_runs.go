package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// readRuns reads the data folder's runs.jsonl for check, within the
// process's budget (runsBudget: runsShare of the file, and the record's
// own recordBytes; release gives the share back once the runs are let
// go). The file is streamed (recorder.EachRun), never held whole; its
// sha256 is taken as it is read and must be the one the record names
// (checkFiles hashed a file that may have been replaced since); each
// run's output is checked against its output_sha256 as the run comes;
// at most recorder.MaxRunCount runs are kept; and each distinct text (an
// output, a reasoning, a stream's or a request's output) is kept once
// however many runs hold it, so a deterministic campaign's runs hold one
// copy of their output.
func readRuns(d *safefs.Dir, rec *schema.Record, recordBytes int64) (runs []schema.Run, release func(), prob *Problem) {
	release = func() {}
	f, err := d.Open(recorder.RunsFile, safefs.MaxRuns)
	if err != nil {
		return nil, release, &Problem{"Raw runs", termsafe.String(err.Error())}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, release, &Problem{"Raw runs", termsafe.String(err.Error())}
	}
	lines, err := lineCount(f)
	if err != nil {
		return nil, release, &Problem{"Raw runs", termsafe.String(err.Error())}
	}
	lines = min(lines+1, recorder.MaxRunCount)
	release = runsBudget.take(recordBytes + runsShare(st.Size(), lines))
	runs = make([]schema.Run, 0, lines)
	h := sha256.New()
	in := io.LimitReader(f, safefs.MaxRuns+1)
	kept := texts{}
	var first *Problem
	keep := recorder.AppendRun(&runs, recorder.RunsFile)
	err = recorder.EachRunExact(io.TeeReader(in, h), recorder.RunsFile, func(r schema.Run) error {
		sum := kept.keepRun(&r)
		if first == nil && r.OutputSHA256 != "" && sum != r.OutputSHA256 {
			msg := fmt.Sprintf("run %d (%s): output_sha256 %.12s does not match its output (%.12s)", r.Seq, termsafe.String(r.Arm), termsafe.String(r.OutputSHA256), sum)
			first = &Problem{"Raw runs", msg}
		}
		return keep(r)
	})
	// What a refused line left unread is hashed too: every byte is.
	_, _ = io.Copy(h, in)
	if got, want := hex.EncodeToString(h.Sum(nil)), rec.FileSum(recorder.RunsFile); want != "" && got != want {
		msg := fmt.Sprintf("%s has sha256 %.12s, the record names %.12s: changed while check read it", recorder.RunsFile, got, termsafe.String(want))
		return nil, release, &Problem{"Raw runs", msg}
	}
	switch {
	case err != nil:
		return nil, release, &Problem{"Raw runs", err.Error()}
	case first != nil:
		return nil, release, first
	}
	return runs, release, nil
}

// texts keeps each distinct text once, by its sha256.
type texts map[string]string

// keepRun keeps a run's texts (keep): its output, its reasoning, its
// streams' and its requests' outputs; it returns its output's sha256.
func (t texts) keepRun(r *schema.Run) string {
	sum := t.keep(&r.Output)
	t.keep(&r.Reasoning)
	for i := range r.Streams {
		t.keep(&r.Streams[i].Output)
	}
	for i := range r.Requests {
		t.keep(&r.Requests[i].Output)
	}
	if sum == "" {
		return emptySHA256
	}
	return sum
}

// keep replaces *s with the copy already kept of the same text, or keeps
// it, and returns its sha256 (hex; "" for an empty text, whose sha256 is
// emptySHA256).
func (t texts) keep(s *string) string {
	if *s == "" {
		return ""
	}
	sum := sha256Hex(*s)
	if k, ok := t[sum]; ok {
		*s = k
	} else {
		t[sum] = *s
	}
	return sum
}

// runsShare is what check takes of the budget for a runs.jsonl of size
// bytes and lines lines: what its runs may hold as they are read
// (recorder.MemoryPerByte a byte, recorder.RunOverhead a line: a file of
// tiny lines, or of small map entries, holds far more than its bytes).
// The analysis' copy of each run (its figures, a new map of its counters
// and of a start's metrics) is counted in neither: a run decodebench
// writes holds at most 2.2 times its line, which leaves it room, but a
// crafted run of a thousand counters near the bound copies about 2.5
// times its line more (a reviewer's estimate, not measured).
func runsShare(size int64, lines int) int64 {
	return recorder.MemoryPerByte*size + int64(lines)*recorder.RunOverhead
}

// lineCount counts the lines of f (its newlines, within the cap of
// runs.jsonl) and rewinds it.
func lineCount(f *os.File) (int, error) {
	buf := make([]byte, 256<<10)
	in := io.LimitReader(f, safefs.MaxRuns+1)
	n := 0
	for {
		k, err := in.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	_, err := f.Seek(0, io.SeekStart)
	return n, err
}

// emptySHA256 is the sha256 of no bytes.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
