package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// stateFile is written into the data folder when a campaign starts, so an
// interrupted campaign can be resumed: it names the record, the scenario
// and the semantic hash the scenario must still have.
const stateFile = "campaign.json"

type state struct {
	ScenarioPath string    `json:"scenario_path"`
	ScenarioHash string    `json:"scenario_hash"`
	RecordPath   string    `json:"record_path"`
	Hardware     string    `json:"hardware"`
	Date         string    `json:"date"`
	Started      time.Time `json:"started"`
	EngineSHA256 string    `json:"engine_sha256"`
	// Resumed lists every earlier resumption.
	Resumed []time.Time `json:"resumed,omitempty"`
}

func writeState(dataDir string, st state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dataDir, stateFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("campaign state: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dataDir, stateFile))
}

// ReadState returns the scenario path recorded in a campaign's data folder,
// for `run --resume DIR` without a scenario argument.
func ReadState(dataDir string) (scenarioPath string, err error) {
	st, err := readState(dataDir)
	return st.ScenarioPath, err
}

func readState(dataDir string) (state, error) {
	var st state
	b, err := os.ReadFile(filepath.Join(dataDir, stateFile))
	if err != nil {
		return st, fmt.Errorf("resume %s: not a campaign data folder: %w", dataDir, err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("resume %s: %s: %w", dataDir, stateFile, err)
	}
	return st, nil
}
