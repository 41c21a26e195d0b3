package machine

import (
	"context"
	"slices"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// DefaultDeny names processes that mean the host is not quiet however
// little CPU they use at the moment they are seen: compilers and build
// tools (Go's compiler runs as "compile"), CI workers, and macOS's
// indexing and backup daemons, which come and go in bursts.
var DefaultDeny = []string{
	"cc1", "cc1plus", "cc1obj", "rustc", "compile", "ld", "ld64", "lld", "clang", "clang++", "gcc", "g++",
	"swift-frontend", "swiftc", "javac", "cargo", "bazel", "ninja", "make",
	"Runner.Worker", "gitlab-runner", "buildkite-agent",
	"mds_stores", "mdworker", "mdworker_shared", "backupd",
}

// QuietConfig says what WaitQuiet waits for. Zero fields take defaults.
type QuietConfig struct {
	Window   time.Duration // continuous quiet needed; default 30s
	Interval time.Duration // between samples; default 2s
	MaxWait  time.Duration // give up after; default 10m
	// CPUThreshold is the most CPU any one process outside the excluded
	// set may use, in cores (0.15: 15% of one core). Default 0.15.
	CPUThreshold float64
	// Deny lists process names that must not run; nil means DefaultDeny.
	Deny []string
	// Exclude are pids whose whole descendant trees are the campaign's
	// own. decodebench itself and its ancestors are always excluded.
	Exclude []int
	// IgnorePower and IgnoreThermal turn the power (AC, low-power mode)
	// and thermal conditions off.
	IgnorePower, IgnoreThermal bool
	// GiveUpWhenBusy ends the wait at the first sample that is not quiet
	// (QuietTimedOut): a host found busy for a whole MaxWait before is not
	// waited for again. A quiet sample still waits out the window.
	GiveUpWhenBusy bool
	// Progress, when set, is told after every sample how the wait stands.
	Progress func(QuietProgress)
	// Credit, when set, is quiet seen before the wait began: the wait's
	// first sample runs from the credit's listing, and when it is quiet
	// the window counts from the credit's Since. A credit that ended more
	// than an Interval before the wait began is not counted: that first
	// sample would average over too long a stretch.
	Credit *QuietCredit
	// Hold, when set, keeps a wait that has its window from ending until
	// Hold is closed (the run is ready to measure): it samples on, a
	// block starts the window over, and MaxWait does not end it while the
	// window holds. The window is then the quiet before the measured
	// window, however much of it the credit gave.
	Hold <-chan struct{}

	// For tests: the clock, the process lister and the conditions reader.
	Clock      Clock
	Processes  func(context.Context) ([]Proc, error)
	Conditions func(context.Context) Conditions
}

func (c *QuietConfig) defaults() {
	if c.Window <= 0 {
		c.Window = 30 * time.Second
	}
	if c.Interval <= 0 {
		c.Interval = 2 * time.Second
	}
	if c.MaxWait <= 0 {
		c.MaxWait = 10 * time.Minute
	}
	if c.CPUThreshold <= 0 {
		c.CPUThreshold = 0.15
	}
	if c.Deny == nil {
		c.Deny = DefaultDeny
	}
	if c.Clock == nil {
		c.Clock = realClock{}
	}
	if c.Processes == nil {
		c.Processes = ListProcesses
	}
	if c.Conditions == nil {
		c.Conditions = ReadConditions
	}
}

// A QuietReason is why the host was not quiet.
type QuietReason string

const (
	QuietBusyProcess   QuietReason = "busy_process"   // a process over the CPU threshold
	QuietDeniedProcess QuietReason = "denied_process" // a process on the deny list
	QuietOnBattery     QuietReason = "on_battery"
	QuietLowPowerMode  QuietReason = "low_power_mode"
	QuietThermal       QuietReason = "thermal" // a readable thermal state not nominal
	QuietNoProcesses   QuietReason = "process_list_failed"
)

// A QuietBlock is one thing that kept the host from being quiet.
type QuietBlock struct {
	Reason QuietReason `json:"reason"`
	PID    int         `json:"pid,omitempty"`
	Name   string      `json:"name,omitempty"`
	Cores  float64     `json:"cores,omitempty"` // busy_process: CPU share, 1 = one core
	Value  string      `json:"value,omitempty"` // other reasons: the reading
}

// QuietEnd is how WaitQuiet ended.
type QuietEnd string

const (
	QuietReached  QuietEnd = "quiet"
	QuietTimedOut QuietEnd = "max_wait"
	QuietCanceled QuietEnd = "canceled"
)

// QuietCredit is quiet a wait did not have to watch for itself: by the
// gate's rule, judged as one sample from Since to At (a run's measured
// window, ContentionMeter.QuietCredit), no process outside the campaign
// used more than the threshold and none on the deny list ran at At;
// Procs is the listing at At. The stretch from At to the wait's first
// sample is that sample's, so the quiet counted is continuous.
type QuietCredit struct {
	Since, At time.Time
	Procs     []Proc
}

// QuietResult is what WaitQuiet waited for and how long.
type QuietResult struct {
	EndedBy QuietEnd      `json:"ended_by"`
	Waited  time.Duration `json:"waited_ns"`
	// Credit is the quiet before the wait began that its window counted
	// (QuietConfig.Credit): from the credit's Since to the wait's start.
	Credit  time.Duration `json:"credit_ns,omitempty"`
	Samples int           `json:"samples"`
	// Held counts, per reason, the samples it held the wait.
	Held map[QuietReason]int `json:"held,omitempty"`
	// Culprits are the distinct processes that held the wait, first seen
	// first (at most 10).
	Culprits []QuietBlock `json:"culprits,omitempty"`
	// Last is what blocked the last sample; empty when quiet.
	Last []QuietBlock `json:"last,omitempty"`
}

// QuietProgress is how a wait stands after a sample: how long it has
// waited of its most, how long the host has been quiet of the window
// needed, and what blocked the sample (none when it was quiet).
type QuietProgress struct {
	Waited, MaxWait  time.Duration
	QuietFor, Window time.Duration
	Blocks           []QuietBlock
}

// Quiet says whether the host was found quiet.
func (r QuietResult) Quiet() bool { return r.EndedBy == QuietReached }

// Record is the persisted form: the held counts and culprits by reason.
func (r QuietResult) Record() *schema.QuietWait {
	out := &schema.QuietWait{WaitedS: r.Waited.Seconds(), EndedBy: string(r.EndedBy), CreditS: r.Credit.Seconds()}
	if len(r.Held) > 0 {
		out.Held = map[string]int{}
		for k, v := range r.Held {
			out.Held[string(k)] = v
		}
	}
	for _, c := range r.Culprits {
		out.Culprits = append(out.Culprits, schema.HostProcess{PID: c.PID, Name: c.Name, Reason: string(c.Reason), Cores: c.Cores})
	}
	return out
}

// WaitQuiet waits until the host has been quiet for a continuous
// cfg.Window: no process outside the campaign over cfg.CPUThreshold, none
// on the deny list, on AC power, low-power mode off, and every readable
// thermal state nominal. It gives up after cfg.MaxWait or when ctx ends.
func WaitQuiet(ctx context.Context, cfg QuietConfig) QuietResult {
	cfg.defaults()
	clk := cfg.Clock
	start := clk.Now()
	res := QuietResult{Held: map[QuietReason]int{}}
	end := func(e QuietEnd) QuietResult {
		res.EndedBy, res.Waited = e, clk.Now().Sub(start)
		if len(res.Held) == 0 {
			res.Held = nil
		}
		if e != QuietReached {
			res.Credit = 0
		}
		return res
	}
	prev, err := cfg.Processes(ctx)
	prevT := clk.Now()
	var credit time.Time
	sleep := cfg.Interval
	if c := cfg.Credit; c != nil && !c.At.IsZero() && !c.At.After(prevT) && prevT.Sub(c.At) <= cfg.Interval && c.Since.Before(c.At) {
		// The first sample runs from the credit's end, one interval long
		// as every other, so that nothing between it and the wait's
		// start goes unjudged.
		sleep -= prevT.Sub(c.At)
		prev, prevT, err, credit = c.Procs, c.At, nil, c.Since
	}
	var quietSince time.Time
	// reached: the window holds, and only Hold keeps the wait going;
	// heldSince is when it last came to hold. Time held does not count
	// toward MaxWait: a window lost while held is waited for again.
	reached := false
	var heldSince time.Time
	deadline := start.Add(cfg.MaxWait)
	for {
		var hold <-chan struct{}
		if reached {
			hold = cfg.Hold
		}
		d := sleep
		sleep = cfg.Interval
		if err := sleepOrRelease(ctx, clk, d, hold); err != nil {
			if ctx.Err() == nil {
				return end(QuietReached) // released while the window held
			}
			return end(QuietCanceled)
		}
		cur, lerr := cfg.Processes(ctx)
		now := clk.Now()
		res.Samples++
		var blocks []QuietBlock
		switch {
		case lerr != nil:
			blocks = append(blocks, QuietBlock{Reason: QuietNoProcesses, Value: lerr.Error()})
		case err != nil:
			blocks = append(blocks, QuietBlock{Reason: QuietNoProcesses, Value: err.Error()})
		default:
			blocks = processBlocks(prev, cur, now.Sub(prevT), &cfg)
		}
		blocks = append(blocks, conditionBlocks(cfg.Conditions(ctx), &cfg)...)
		sampleStart, prevBlocked := prevT, len(res.Last) > 0
		prev, prevT, err = cur, now, lerr
		res.Last = blocks
		progress := func(quietFor time.Duration) {
			if cfg.Progress != nil {
				cfg.Progress(QuietProgress{Waited: now.Sub(start), MaxWait: cfg.MaxWait, QuietFor: quietFor, Window: cfg.Window, Blocks: blocks})
			}
		}
		if len(blocks) == 0 {
			if quietSince.IsZero() {
				// The quiet began after the last sample that saw a block:
				// when exactly, a point-in-time check such as the deny list
				// cannot tell, so the window starts now. With no block seen
				// before, it started with the previous sample.
				quietSince = now
				if !prevBlocked {
					quietSince = sampleStart
				}
				if res.Samples == 1 && !credit.IsZero() {
					// The first sample found the host quiet since the
					// credit's end: the quiet runs from its start.
					quietSince = credit
					res.Credit = start.Sub(credit)
				}
			}
			progress(now.Sub(quietSince))
			if now.Sub(quietSince) >= cfg.Window {
				if !reached {
					reached, heldSince = true, now
				}
				if released(cfg.Hold) {
					return end(QuietReached)
				}
			}
		} else {
			if reached {
				deadline = deadline.Add(now.Sub(heldSince))
			}
			quietSince, res.Credit, reached = time.Time{}, 0, false
			progress(0)
			countBlocks(&res, blocks)
			if cfg.GiveUpWhenBusy {
				return end(QuietTimedOut)
			}
		}
		if !reached && !now.Before(deadline) {
			return end(QuietTimedOut)
		}
		if ctx.Err() != nil {
			return end(QuietCanceled)
		}
	}
}

// sleepOrRelease sleeps d on clk, returning early with an error when ctx
// ends or hold (where not nil) is closed.
func sleepOrRelease(ctx context.Context, clk Clock, d time.Duration, hold <-chan struct{}) error {
	if hold == nil {
		return clk.Sleep(ctx, d)
	}
	if released(hold) {
		return context.Canceled
	}
	sleep, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-hold:
			cancel()
		case <-sleep.Done():
		}
	}()
	return clk.Sleep(sleep, d)
}

// released reports whether hold is nil or closed.
func released(hold <-chan struct{}) bool {
	if hold == nil {
		return true
	}
	select {
	case <-hold:
		return true
	default:
		return false
	}
}

// countBlocks adds a sample's blocks to the result: per reason, and each
// distinct process that held the wait (at most 10).
func countBlocks(res *QuietResult, blocks []QuietBlock) {
	for _, b := range blocks {
		res.Held[b.Reason]++
		if b.PID != 0 && len(res.Culprits) < 10 && !slices.ContainsFunc(res.Culprits, func(c QuietBlock) bool { return c.PID == b.PID && c.Reason == b.Reason }) {
			res.Culprits = append(res.Culprits, b)
		}
	}
}

func processBlocks(prev, cur []Proc, wall time.Duration, cfg *QuietConfig) []QuietBlock {
	own := ownProcesses(cur, cfg.Exclude)
	var blocks []QuietBlock
	for _, p := range cur {
		if !own[p.PID] && slices.Contains(cfg.Deny, p.Name) {
			blocks = append(blocks, QuietBlock{Reason: QuietDeniedProcess, PID: p.PID, Name: p.Name})
		}
	}
	for _, s := range shares(prev, cur, wall) {
		if s.Cores < cfg.CPUThreshold {
			break // busiest first
		}
		if !own[s.PID] {
			blocks = append(blocks, QuietBlock{Reason: QuietBusyProcess, PID: s.PID, Name: s.Name, Cores: s.Cores})
		}
	}
	return blocks
}

func conditionBlocks(c Conditions, cfg *QuietConfig) []QuietBlock {
	var blocks []QuietBlock
	if !cfg.IgnorePower {
		if c.Power == PowerBattery {
			blocks = append(blocks, QuietBlock{Reason: QuietOnBattery})
		}
		if c.LowPowerMode != nil && *c.LowPowerMode {
			blocks = append(blocks, QuietBlock{Reason: QuietLowPowerMode})
		}
	}
	if !cfg.IgnoreThermal {
		if nominal, readable := c.ThermalNominal(); readable && !nominal {
			v := ""
			for _, w := range c.Warnings() {
				if w.Code != WarnOnBattery && w.Code != WarnLowPowerMode {
					v += string(w.Code) + ":" + w.Value + " "
				}
			}
			blocks = append(blocks, QuietBlock{Reason: QuietThermal, Value: v})
		}
	}
	return blocks
}
