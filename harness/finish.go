package harness

import (
	"context"
	"fmt"
	"time"
)

// finish ends the campaign: the diagnosis (unless interrupted), the
// method's account of what ran, indexing restored before the record says
// so, the conclusion, and the record and its files written.
func (c *campaign) finish(ctx context.Context, sch *schedule, interrupted bool, restoreIndexing func()) (*Outcome, error) {
	if !interrupted {
		began := time.Now()
		c.diagnose(ctx)
		if len(c.rec.Method.Diagnosis) > 0 {
			c.rec.Method.DiagnosisS = time.Since(began).Seconds()
		}
	}
	c.progress.Close()
	c.rec.Method.Planned = Arms(sch.plan)
	c.rec.Method.RoundsRun = sch.rounds
	c.rec.Method.Finished = time.Now().Round(0)
	c.rec.Method.Interrupted, c.rec.Method.InterruptedBy = interrupted, ""
	if interrupted {
		c.rec.Method.InterruptedBy = interruptedBy(ctx)
		c.rec.Method.CutOffS = c.cutOff.Seconds()
	}
	restoreIndexing() // before the record says so; the deferred call is then a no-op
	c.hostHistory()
	c.conclude()
	recordLoaded(c.rec)
	if !interrupted {
		c.recordRoofline(ctx)
	}
	c.moveFailed()
	if err := c.writeOutputs(); err != nil {
		return nil, err
	}
	if interrupted {
		fmt.Fprintf(c.opt.Progress, "interrupted: resume with  decodebench run --resume %s\n", c.dataDir)
	}
	return &Outcome{Record: c.rec, RecordPath: c.recPath, DataDir: c.dataDir}, nil
}
