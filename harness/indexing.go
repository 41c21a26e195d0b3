package harness

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/decodebench/decodebench/machine"
)

// pauseIndexing first restores what a campaign that died left paused (its
// marker), then, when the scenario asks (host.pause_indexing), pauses
// Spotlight indexing and Time Machine for this campaign. It returns the
// restore, which the caller defers: it runs on every way out of the
// campaign, an interrupt or a panic included; a SIGKILL leaves the marker
// for the next campaign.
func (c *campaign) pauseIndexing(ctx context.Context) (restore func()) {
	marker := machine.IndexingMarker()
	if st, err := machine.RestoreIndexing(context.WithoutCancel(ctx), marker); err != nil {
		c.progress.Printf("an earlier campaign left Spotlight/Time Machine paused and they could not be restored: %v", err)
	} else if st.Spotlight || st.TimeMachine {
		c.progress.Printf("restored Spotlight indexing/Time Machine that an earlier campaign left paused (%+v)", st)
	}
	if !c.policy.PauseIndexing {
		return func() {}
	}
	if runtime.GOOS != "darwin" {
		c.rec.Method.Indexing = "not paused: this is not macOS"
		return func() {}
	}
	st, err := machine.PauseIndexing(ctx, marker)
	if err != nil {
		c.rec.Method.Indexing = "not paused: " + err.Error()
		c.progress.Printf("host.pause_indexing: %v; the campaign runs with indexing as it was", err)
		return func() {}
	}
	c.rec.Method.Indexing = fmt.Sprintf("paused for the campaign (Spotlight was on: %v; Time Machine automatic backups were on: %v) and restored after it", st.Spotlight, st.TimeMachine)
	var once sync.Once
	return func() {
		once.Do(c.restoreIndexing(ctx, marker))
	}
}

// restoreIndexing is the restore pauseIndexing returns.
func (c *campaign) restoreIndexing(ctx context.Context, marker string) func() {
	return func() {
		if _, err := machine.RestoreIndexing(context.WithoutCancel(ctx), marker); err != nil {
			c.progress.Printf("host.pause_indexing: restore failed: %v (the next campaign tries again; or run mdutil -a -i on and tmutil enable)", err)
			c.rec.Method.Indexing += "; the restore failed: " + err.Error()
		}
	}
}
