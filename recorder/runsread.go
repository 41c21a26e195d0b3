package recorder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/decodebench/decodebench/schema"
)

// maxRunLine bounds one run, a line of runs.jsonl: ParseRuns' scanner
// refuses a line (without its newline) of this many bytes or more.
const maxRunLine = 64 << 20

// MaxRunLine is maxRunLine, for a writer or a repair of the journal.
const MaxRunLine = maxRunLine

// runsChunk is how many bytes of whole lines EachRun decodes at a time
// (one line when a line is longer).
const runsChunk = 4 << 20

// MaxRunCount bounds the runs a reader keeps of one runs.jsonl (AppendRun):
// a run kept costs far more memory than its line (a run's struct is 472
// bytes, and check's analysis copies it; the line of a run that ran
// nothing is a hundred bytes), so a file of tiny lines within the size
// cap would otherwise cost tens of GB. A campaign plans at most 64,000
// runs (1,000 rounds of 64 arms): 200,000 leaves room for two retries of
// every one.
const MaxRunCount = 200_000

// maxRunCount is MaxRunCount; tests lower it.
var maxRunCount = MaxRunCount

// AppendRun is the each of EachRun that keeps the runs in *runs, at
// most MaxRunCount of them (an error past it).
func AppendRun(runs *[]schema.Run, name string) func(schema.Run) error {
	return func(r schema.Run) error {
		if len(*runs) >= maxRunCount {
			return fmt.Errorf("%s holds more than %d runs, the most decodebench reads", name, maxRunCount)
		}
		*runs = append(*runs, r)
		return nil
	}
}

// errLineTooLong: a line of runs.jsonl is maxRunLine bytes or more.
var errLineTooLong = bufio.ErrTooLong

// EachRun reads runs.jsonl from r and calls each with every run, in
// order, until each returns an error (EachRun then returns it): the runs
// and the error ParseRuns gives (a last line cut off by a
// crash is ignored, a bad line before the last is an error, a line of
// maxRunLine bytes or more is too long), but it never holds the file:
// only a chunk of whole lines at a time (runsChunk bytes, or one longer
// line), so what a reader keeps of the runs is up to each. Chunks laid
// out as decodebench writes them are decoded by one decoder for the whole
// file (plainRuns), any other line by line, as ParseRuns does.
func EachRun(r io.Reader, name string, each func(schema.Run) error) error {
	_, err := eachRun(r, name, runsChunk, false, each)
	return err
}

// EachRunExact is EachRun that also refuses a line other JSON readers
// read differently from decodebench (readsAlike): check reads runs.jsonl
// this way.
func EachRunExact(r io.Reader, name string, each func(schema.Run) error) error {
	_, err := eachRun(r, name, runsChunk, true, each)
	return err
}

// eachRun is EachRun with chunks of chunk bytes, exact as EachRunExact
// when asked; it also says how many chunks were read line by line.
func eachRun(r io.Reader, name string, chunk int, exact bool, each func(schema.Run) error) (byLine int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	var plain plainRuns
	lr := lineReader{name: name, exact: exact, limits: &runLimits{name: name}}
	for {
		buf = buf[:0]
		err = nil
		for len(buf) < chunk && err == nil {
			start := len(buf)
			if buf, err = appendLine(br, buf); err != nil && err != io.EOF {
				buf = buf[:start] // the lines before it are read first, as ParseRuns does
			}
		}
		if err := lr.limits.lines(buf, lr.line); err != nil {
			return byLine, err
		}
		if runs, ok := plain.decode(buf); ok && lr.pending == nil {
			rest := buf
			for i, run := range runs {
				var line []byte
				line, rest, _ = bytes.Cut(rest, []byte{'\n'})
				if err := lr.limits.names(lr.line+i+1, &run); err != nil {
					return byLine, err
				}
				if exact {
					if err := readsAlike(line, &run); err != nil {
						return byLine, fmt.Errorf("%s:%d: %v", name, lr.line+i+1, clip(err))
					}
				}
				if err := each(run); err != nil {
					return byLine, err
				}
			}
			lr.line += len(runs)
		} else if len(buf) > 0 {
			byLine++
			if perr := lr.lines(buf, each); perr != nil {
				return byLine, perr
			}
		}
		switch {
		case err == io.EOF:
			return byLine, nil
		case err != nil:
			return byLine, fmt.Errorf("%s: %w", name, err)
		}
	}
}

// lineReader is ParseRuns' reading of lines one by one, carried from a
// chunk to the next.
type lineReader struct {
	name    string
	line    int
	pending error // the last line's error: returned when another follows
	exact   bool  // each decoded line must read alike (readsAlike)
	limits  *runLimits
}

// lines decodes each line of b: every line ended by "\n", and the last
// one when it is not empty, each without its "\n" and one "\r" before it
// (bufio.ScanLines).
func (lr *lineReader) lines(b []byte, each func(schema.Run) error) error {
	for len(b) > 0 {
		l, rest, _ := bytes.Cut(b, []byte{'\n'})
		b = rest
		l = bytes.TrimSuffix(l, []byte{'\r'})
		lr.line++
		if lr.pending != nil {
			return lr.pending
		}
		var run schema.Run
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&run); err != nil {
			lr.pending = fmt.Errorf("%s:%d: %v", lr.name, lr.line, clip(err))
			continue
		}
		if err := lr.limits.names(lr.line, &run); err != nil {
			return err
		}
		if lr.exact {
			if err := readsAlike(l, &run); err != nil {
				return fmt.Errorf("%s:%d: %v", lr.name, lr.line, clip(err))
			}
		}
		if err := each(run); err != nil {
			return err
		}
	}
	return nil
}

// appendLine appends br's next line to buf, with its "\n" when it has one:
// io.EOF when the input ended (buf may then end with a line without
// "\n"), errLineTooLong when the line, without its "\n", is maxRunLine
// bytes or more (ParseRuns' scanner refuses it).
func appendLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	start := len(buf)
	for {
		frag, err := br.ReadSlice('\n')
		buf = append(buf, frag...)
		n := len(buf) - start
		switch {
		case err == nil:
			n-- // the "\n"
		case err == bufio.ErrBufferFull:
			if n >= maxRunLine {
				return buf, errLineTooLong
			}
			continue
		}
		if n >= maxRunLine {
			return buf, errLineTooLong
		}
		return buf, err
	}
}

// plainRuns decodes the chunks of a runs.jsonl laid out as decodebench
// writes it (each line one JSON object from its first byte to its last,
// no carriage return, a newline after the last) with one decoder for the
// whole file: its buffer grows to the longest line once, where a decoder
// for each line or chunk would grow one from nothing every time (three
// times a long line's size, for every run).
type plainRuns struct {
	dec  *json.Decoder
	feed feed
	fed  int64        // the bytes given to dec so far
	runs []schema.Run // the last chunk's, whose room the next reuses
}

// decode decodes a chunk of whole lines: false when it is not laid out as
// decodebench writes (then the next chunk starts a decoder of its own).
// The runs it returns are good until the next call.
func (p *plainRuns) decode(b []byte) ([]schema.Run, bool) {
	if len(b) == 0 || b[len(b)-1] != '\n' || bytes.IndexByte(b, '\r') >= 0 {
		p.dec = nil
		return nil, false
	}
	if p.dec == nil {
		p.feed, p.fed = feed{}, 0
		p.dec = json.NewDecoder(&p.feed)
		p.dec.DisallowUnknownFields()
	}
	// What the decoder has not read of the chunk before is its last
	// newline at most (its last value ended there): dropped, since the
	// buffer it is in is the one b is read into.
	p.fed -= p.feed.drop()
	at := p.fed
	p.feed.add(b)
	p.fed += int64(len(b))
	// The chunk's runs are decoded in place into a slice made for as many
	// as it has lines and reused for the next chunk: no run is copied
	// while the slice grows.
	if n := bytes.Count(b, []byte{'\n'}); cap(p.runs) < n {
		p.runs = make([]schema.Run, 0, n)
	}
	runs := p.runs[:0]
	for start := 0; start < len(b); {
		end := start + bytes.IndexByte(b[start:], '\n') // b ends with '\n'
		runs = append(runs, schema.Run{})
		if b[start] != '{' || p.dec.Decode(&runs[len(runs)-1]) != nil || p.dec.InputOffset() != at+int64(end) {
			p.dec = nil
			return nil, false
		}
		start = end + 1
	}
	return runs, true
}

// feed is what a chunk's decoder reads: the chunks given to it, in turn
// (the end of one the decoder has not read yet, then the next).
type feed struct{ parts [][]byte }

func (f *feed) add(b []byte) { f.parts = append(f.parts, b) }

// drop forgets what was not read and says how many bytes that was.
func (f *feed) drop() int64 {
	n := 0
	for _, p := range f.parts {
		n += len(p)
	}
	f.parts = f.parts[:0]
	return int64(n)
}

func (f *feed) Read(p []byte) (int, error) {
	for len(f.parts) > 0 && len(f.parts[0]) == 0 {
		f.parts = f.parts[1:]
	}
	if len(f.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.parts[0])
	f.parts[0] = f.parts[0][n:]
	return n, nil
}
