package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A failed try is not a record to publish: with Options.FailedOut set (run
// without --out), a campaign whose verdict is FAILED or REJECTED moves its
// data folder into that folder (the clone's scratch/, which the index
// never reads) before its record is written there, under the first free
// name. Where the move fails, the record is written where it was, and
// says nothing else: nothing is lost.

// failedTry reports whether a verdict is a failed try.
func failedTry(v schema.Verdict) bool { return v == schema.Failed || v == schema.Rejected }

// moveFailed moves a failed try's data folder to opt.FailedOut, when set.
func (c *campaign) moveFailed() {
	if c.opt.FailedOut == "" || !failedTry(c.rec.Verdict) {
		return
	}
	if err := c.moveTo(c.opt.FailedOut); err != nil {
		fmt.Fprintf(c.opt.Progress, "the %s record stays in %s: moving it to %s failed: %v\n", c.rec.Verdict, filepath.Dir(c.recPath), c.opt.FailedOut, err)
		return
	}
	fmt.Fprintf(c.opt.Progress, "the campaign is %s: a failed try, so its record goes to %s, which the index does not read (--out DIR names the folder for it)\n",
		c.rec.Verdict, filepath.Dir(c.recPath))
}

// moveTo moves the data folder to out/data/<a free name of the record's>
// and makes the record go beside it.
func (c *campaign) moveTo(out string) error {
	recPath, dataDir, err := recorder.Reserve(out, c.rec.Feature, c.rec.Hardware, c.rec.Date)
	if err != nil {
		return err
	}
	// Reserve claimed the name with an empty folder: ours takes its place.
	if err := os.Remove(dataDir); err != nil {
		return err
	}
	c.releaseFolders()
	note := ownedEntry(c.dataDir) // before the move: the path is resolved
	if err := os.Rename(c.dataDir, dataDir); err != nil {
		return errors.Join(err, c.holdFolders())
	}
	was, wasRec := c.dataDir, c.recPath
	c.recPath, c.dataDir = recPath, dataDir
	moveOwned(note, dataDir)
	if err := c.holdFolders(); err != nil {
		c.recPath, c.dataDir = wasRec, was
		return errors.Join(err, os.Rename(dataDir, was), c.holdFolders())
	}
	rel, err := filepath.Rel(filepath.Dir(c.recPath), c.dataDir)
	if err != nil {
		rel = c.dataDir
	}
	c.rec.DataDir = filepath.ToSlash(rel)
	return nil
}
