package machine

import (
	"context"
	"runtime"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// HostCheck is the host as a campaign finds it before its first run: its
// cores and load, the busiest processes outside the campaign, and what
// the quiet gate's rule (QuietConfig) says of them: the blocks that would
// hold a run.
type HostCheck struct {
	Cores int
	// Load is the load averages and the whole machine's CPU busy share
	// over the check.
	Load *schema.LoadSample
	// Busiest are the processes outside the campaign that used the most
	// CPU over the check, busiest first (at most three, each above 1% of
	// a core).
	Busiest []ProcShare
	// Blocks are what the rule finds: processes over its CPU threshold or
	// on its deny list, battery, low-power mode, a thermal state not
	// nominal; none for a quiet host.
	Blocks []QuietBlock
	// Over is how long the processes were watched.
	Over time.Duration
}

// Quiet reports whether the rule found nothing to wait for.
func (h HostCheck) Quiet() bool { return len(h.Blocks) == 0 }

// busiestShown is how many of the busiest processes a check keeps, and
// the least CPU share one must have to be kept.
const (
	busiestShown = 3
	busiestMin   = 0.01
)

// CheckHost watches the host for over and judges it by cfg's rule, as
// WaitQuiet's samples do: once, without waiting for quiet.
func CheckHost(ctx context.Context, cfg QuietConfig, over time.Duration) HostCheck {
	cfg.defaults()
	h := HostCheck{Cores: runtime.NumCPU(), Over: over}
	load := NewSampler()
	_, loadErr := load.Sample(ctx)
	prev, err := cfg.Processes(ctx)
	t0 := cfg.Clock.Now()
	if cfg.Clock.Sleep(ctx, over) != nil {
		return h
	}
	cur, curErr := cfg.Processes(ctx)
	wall := cfg.Clock.Now().Sub(t0)
	if l, err := load.Sample(ctx); err == nil && loadErr == nil {
		h.Load = &l
	}
	switch {
	case err != nil:
		h.Blocks = append(h.Blocks, QuietBlock{Reason: QuietNoProcesses, Value: err.Error()})
	case curErr != nil:
		h.Blocks = append(h.Blocks, QuietBlock{Reason: QuietNoProcesses, Value: curErr.Error()})
	default:
		own := ownProcesses(cur, cfg.Exclude)
		for _, s := range shares(prev, cur, wall) {
			if len(h.Busiest) == busiestShown || s.Cores < busiestMin {
				break
			}
			if !own[s.PID] {
				h.Busiest = append(h.Busiest, s)
			}
		}
		h.Blocks = processBlocks(prev, cur, wall, &cfg)
	}
	h.Blocks = append(h.Blocks, conditionBlocks(cfg.Conditions(ctx), &cfg)...)
	return h
}
