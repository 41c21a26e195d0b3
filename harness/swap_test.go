package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// swapper replaces the data folder with a link to another folder while
// run swapAt is measured, as another local user or a careless script
// might.
type swapper struct {
	fakeEngine
	dataDir, elsewhere string
	swapAt             int
}

func (s *swapper) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	if slot.Seq == s.swapAt {
		if err := os.Rename(s.dataDir, s.dataDir+".moved"); err != nil {
			return err
		}
		if err := os.Symlink(s.elsewhere, s.dataDir); err != nil {
			return err
		}
	}
	return s.fakeEngine.Execute(ctx, slot, run)
}

// A data folder swapped for a link mid-campaign receives nothing more:
// the campaign stops before the next run with the swap named, and the
// link's target stays empty (issue 19 item 8).
func TestSwappedDataFolderStopsCampaign(t *testing.T) {
	src := strings.Replace(testScenario, "rounds: 6", "rounds: 4, cooldown: 0s", 1)
	c := testCampaign(t, src)
	dir, elsewhere := t.TempDir(), t.TempDir()
	c.recPath, c.dataDir = filepath.Join(dir, "t.md"), filepath.Join(dir, "data", "t")
	if err := os.MkdirAll(c.dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.holdFolders(); err != nil {
		t.Fatal(err)
	}
	defer c.releaseFolders()
	if err := c.prepareDataDir(); err != nil {
		t.Fatal(err)
	}
	c.rec = c.newRecord("x", "2026-01-01", schema.MachineInfo{}, time.Now().Round(0))
	c.exec = &swapper{dataDir: c.dataDir, elsewhere: elsewhere, swapAt: 2}
	_, err := c.execute(context.Background())
	if err == nil || !strings.Contains(err.Error(), "was replaced") {
		t.Fatalf("execute: %v, want the swap named", err)
	}
	if left, _ := os.ReadDir(elsewhere); len(left) != 0 {
		t.Errorf("written into the swapped-in link's target: %v", left)
	}
	// What was written before the swap is in the folder that was held.
	if _, err := os.Stat(filepath.Join(c.dataDir+".moved", "runs.jsonl")); err != nil {
		t.Errorf("the held folder lost its journal: %v", err)
	}
}
