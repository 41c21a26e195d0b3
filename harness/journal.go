package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
)

// Journal appends finished runs to runs.jsonl, one JSON object a line, and
// syncs the file before the next run starts, so that a crash or a killed
// runner loses at most the run in progress. Each run is one write of its
// whole line; a write or sync that fails (a full disk) cuts the file back
// to its last whole run, so the journal never holds half a line that a
// later run would be appended onto.
type Journal struct {
	f journalFile
	// size is the length of the journal's whole runs.
	size int64
	// Redactor, when set, masks secrets in every run written.
	Redactor *redact.Redactor
	// sum hashes the journal's whole runs as written (sealed.go): what
	// the file held when it was opened, then each line appended.
	sum hash.Hash
}

// journalFile is what the journal needs of its file; tests inject one
// that fails part-way.
type journalFile interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// OpenJournalIn opens (or creates) the journal name in a data folder held
// open, never through a symbolic link, and only a regular file.
func OpenJournalIn(d *safefs.Dir, name string) (*Journal, error) {
	f, err := d.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, size: fi.Size(), sum: sha256.New()}
	if fi.Size() > 0 {
		r, err := d.Open(name, safefs.MaxDataFile)
		if err == nil {
			_, err = io.Copy(j.sum, io.LimitReader(r, fi.Size()))
			r.Close()
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	return j, nil
}

// SHA256 is the sha256 of the journal's whole runs as written.
func (j *Journal) SHA256() string { return hex.EncodeToString(j.sum.Sum(nil)) }

// Append writes one run and syncs it to disk. On any failure the journal
// is as it was before the call.
func (j *Journal) Append(r schema.Run) error {
	finiteRun(&r)
	r, err := redactedRun(j.Redactor, r)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	line := append(b, '\n')
	n, err := j.f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		if terr := j.f.Truncate(j.size); terr != nil {
			return fmt.Errorf("journal: writing run %d: %w; cutting the journal back to its last whole run also failed: %v", r.Seq, err, terr)
		}
		return fmt.Errorf("journal: writing run %d: %w (the journal was cut back to its last whole run)", r.Seq, err)
	}
	j.size += int64(len(line))
	if j.sum != nil {
		j.sum.Write(line)
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }

// RepairJournal cuts a torn last line (one without its newline, left by a
// crash or a full disk) off the journal at path, and returns how many
// bytes it cut. A journal that does not exist, or ends in a whole line,
// is left alone.
func RepairJournal(path string) (int64, error) {
	// Never through a link, never blocking on a FIFO, only a regular file.
	f, err := safefs.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("journal %s: not a regular file", path)
	}
	end := fi.Size()
	// The last whole line ends at the last newline: search back from
	// the end, a block at a time, no further than a run's longest line
	// (a torn tail longer than that is no run the campaign wrote).
	buf := make([]byte, 64<<10)
	keep := int64(0)
	for off := end; off > 0; {
		if end-off > recorder.MaxRunLine {
			return 0, fmt.Errorf("journal %s: its last %d bytes hold no line's end, more than a run's line may be (%d): not a journal a campaign wrote", path, end-off, recorder.MaxRunLine)
		}
		n := min(int64(len(buf)), off)
		off -= n
		if _, err := f.ReadAt(buf[:n], off); err != nil {
			return 0, fmt.Errorf("journal: %w", err)
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep = off + int64(i) + 1
			break
		}
	}
	if keep == end {
		return 0, nil
	}
	if err := f.Truncate(keep); err != nil {
		return 0, fmt.Errorf("journal: cutting its torn last line: %w", err)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	return end - keep, nil
}

// openJournal opens the data folder's runs.jsonl for appending, redacting
// every run written.
func (c *campaign) openJournal() error {
	if err := c.data.Mkdir("logs"); err != nil {
		return err
	}
	journal, err := OpenJournalIn(c.data, recorder.RunsFile)
	if err != nil {
		return err
	}
	journal.Redactor = c.redact
	c.journal = journal
	return nil
}
