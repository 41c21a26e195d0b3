package bisect

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// StateFile is the bisect's resume state in its data folder: everything a
// resume needs (the repository, the scenario, the work folder, the time
// spent) and the summary so far. It changes on every step and is not part
// of the summary's evidence.
const StateFile = "bisect.json"

// maxStateBytes bounds what readState reads.
const maxStateBytes = 16 << 20

type state struct {
	// Source is the repository's folder, absolute.
	Source string `json:"source"`
	// ScenarioPath is absolute (or embedded:NAME).
	ScenarioPath string `json:"scenario_path"`
	// WorkDir holds the worktrees.
	WorkDir string `json:"work_dir"`
	// MaxSeconds is --max-time; Elapsed the seconds spent so far, over
	// every resume.
	MaxSeconds float64 `json:"max_seconds"`
	Elapsed    float64 `json:"elapsed"`
	// BaseRounds is the scenario's rounds per arm; an undecided campaign
	// is followed by one with twice as many.
	BaseRounds int           `json:"base_rounds"`
	Summary    schema.Bisect `json:"summary"`
}

func writeState(dataDir string, st *state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := writeIn(dataDir, StateFile, append(b, '\n')); err != nil {
		return fmt.Errorf("bisect state: %w", err)
	}
	return nil
}

// writeIn writes rel (slash-separated) under dataDir atomically: created
// exclusively beside its target and renamed over it, never through a
// link (safefs).
func writeIn(dataDir, rel string, b []byte) error {
	d, err := safefs.OpenDir(dataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WriteFile(rel, b, 0o644)
}

// readState reads the state strictly (safefs.ReadJSON): a field this
// decodebench does not write is refused, never ignored.
func readState(dataDir string) (*state, error) {
	var st state
	err := safefs.ReadJSON(filepath.Join(dataDir, StateFile), maxStateBytes, &st)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: not a bisect's data folder: %w", dataDir, err)
	}
	if err != nil {
		return nil, err // it names the file
	}
	return &st, nil
}
