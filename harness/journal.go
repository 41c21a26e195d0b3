package harness

import (
	"encoding/json"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
)

// Journal appends finished runs to runs.jsonl, one JSON object a line, and
// syncs the file before the next run starts, so that a crash or a killed
// runner loses at most the run in progress.
type Journal struct {
	f *os.File
	// Redactor, when set, masks secrets in every run written.
	Redactor *redact.Redactor
}

// OpenJournal opens (or creates) the journal for appending; it never
// writes through a symbolic link.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|unix.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{f: f}, nil
}

// Append writes one run and syncs it to disk.
func (j *Journal) Append(r schema.Run) error {
	r, err := redactedRun(j.Redactor, r)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }
