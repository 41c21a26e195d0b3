package harness

import (
	"fmt"
	"path/filepath"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// prepareDataDir makes the data folder's logs folder and stores the
// scenario, redacted, as the campaign runs it.
func (c *campaign) prepareDataDir() error {
	if err := c.data.Mkdir("logs"); err != nil {
		return err
	}
	b := c.redact.YAML(c.scenario.Source)
	if err := c.data.WriteFile(recorder.ScenarioFile, b, 0o644); err != nil {
		return err
	}
	c.sealBytes(recorder.ScenarioFile, b)
	return nil
}

// holdFolders opens the data folder and the record's folder, never through
// a link, for the rest of the campaign, and locks the data folder (Running
// says so to check); another process holding it is refused.
func (c *campaign) holdFolders() error {
	var err error
	if c.data, err = safefs.OpenDir(c.dataDir); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if ok, err := c.data.Lock(); !ok {
		c.data.Close()
		if err == nil {
			err = fmt.Errorf("%s is in use by a campaign running now; nothing was written", c.dataDir)
		}
		return fmt.Errorf("data folder: %w", err)
	}
	if c.out, err = safefs.OpenDir(filepath.Dir(c.recPath)); err != nil {
		c.data.Close()
		return fmt.Errorf("record folder: %w", err)
	}
	return nil
}

func (c *campaign) releaseFolders() {
	c.data.Close()
	c.out.Close()
}

// checkFolders says whether the data folder, its logs folder and the
// record's folder are still the ones the campaign holds: before each run
// (whose engine log is opened by path) and before the data folder is
// hashed. A swapped folder stops the campaign; nothing more is written.
func (c *campaign) checkFolders() error {
	if err := c.data.Verify(); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	logs, err := c.data.Sub("logs", false)
	if err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	defer logs.Close()
	if err := logs.Verify(); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if err := c.out.Verify(); err != nil {
		return fmt.Errorf("record folder: %w", err)
	}
	return nil
}

// Running reports whether a campaign (a resume among them) is running in
// the data folder dataDir now: its record is rewritten when it ends.
func Running(dataDir string) bool {
	locked, err := safefs.Locked(dataDir)
	return err == nil && locked
}
