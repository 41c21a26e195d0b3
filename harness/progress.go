package harness

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// Progress reports a campaign's progress: on a terminal, one line redrawn in
// place (run k of n, arm, phase, ETA); elsewhere (CI logs), one timestamped
// line per event.
type Progress struct {
	mu    sync.Mutex
	w     io.Writer
	live  bool
	total int
	// cooldown is the time between two runs, quiet a quiet gate's window
	// (0 without the gate): a run waits for the window less the quiet
	// time of the run before it, which counts towards it.
	cooldown, quiet time.Duration
	// uncredited: the window is waited in full after the cooldown (an
	// adaptive cooldown's), no run's quiet time counting towards it.
	uncredited bool
	started    time.Time
	done       int
	skipped    int           // runs finished before a resume: not timed here
	spent      time.Duration // time in finished runs, cooldowns excluded
	seq        int
	seqStart   time.Time // when the current run (or its cooldown) began
	// firstStart is when this process's first run began, firstEnd when
	// it ended and lastEnd when the latest ended: the time from firstEnd
	// to lastEnd is whole cycles of a run and what comes before it (its
	// cooldown, a wait for a quiet host, the engine's start).
	firstStart, firstEnd, lastEnd time.Time
	arm                           string
	phase                         string
	stop                          chan struct{}
	wg                            sync.WaitGroup
	now                           func() time.Time
}

// clearLine returns the cursor to the start of the line and clears it:
// the only control sequence decodebench draws itself.
const clearLine = "\r\033[K"

// NewProgress writes to w; live selects the in-place terminal line;
// cooldown is the time between two runs and quiet a quiet gate's window
// (0 without one).
func NewProgress(w io.Writer, live bool, total int, cooldown, quiet time.Duration) *Progress {
	p := &Progress{w: w, live: live, total: total, cooldown: cooldown, quiet: quiet, now: time.Now, stop: make(chan struct{})}
	p.started = p.now()
	if live {
		p.wg.Add(1)
		go p.tick()
	}
	return p
}

func (p *Progress) tick() {
	defer p.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// SetTotal sets the number of planned runs and how many of them were
// already done before this process started (a resumed campaign); adaptive
// schedules grow the total as they add rounds.
func (p *Progress) SetTotal(total, alreadyDone int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
	p.skipped = alreadyDone
}

// Grow sets the number of planned runs as an adaptive schedule adds
// rounds, keeping what SetTotal said was done before this process.
func (p *Progress) Grow(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

// Phase says what run seq (1-based) of arm is doing now.
func (p *Progress) Phase(seq int, arm, phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if seq != p.seq {
		p.seqStart = p.now()
		if p.firstStart.IsZero() {
			p.firstStart = p.seqStart
		}
	}
	p.seq, p.arm, p.phase = seq, arm, phase
	if p.live {
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "%s run %d/%d %s: %s (ETA %s)\n", p.now().UTC().Format(time.RFC3339), seq, p.total, termsafe.String(arm), termsafe.String(phase), p.eta())
}

// RunDone records that a run finished after d, and prints its result line.
func (p *Progress) RunDone(seq int, arm string, d time.Duration, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.spent += d
	if p.lastEnd = p.now(); p.done == 1 {
		p.firstEnd = p.lastEnd
	}
	line := fmt.Sprintf("run %d/%d %s: %s", seq, p.total, termsafe.String(arm), termsafe.Text(result))
	if p.live {
		_ = termsafe.Control(p.w, clearLine)
		fmt.Fprintf(p.w, "%s\n", line)
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "%s %s (ETA %s)\n", p.now().UTC().Format(time.RFC3339), line, p.eta())
}

// Printf writes a message on its own line.
func (p *Progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg := termsafe.Text(strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
	if p.live {
		_ = termsafe.Control(p.w, clearLine)
		fmt.Fprintf(p.w, "%s\n", msg)
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "%s %s\n", p.now().UTC().Format(time.RFC3339), msg)
}

// Close stops the live line.
func (p *Progress) Close() {
	p.mu.Lock()
	if p.live {
		_ = termsafe.Control(p.w, clearLine)
	}
	p.mu.Unlock()
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.wg.Wait()
}

func (p *Progress) draw() {
	if p.seq == 0 {
		return
	}
	elapsed := p.now().Sub(p.started).Round(time.Second)
	_ = termsafe.Control(p.w, clearLine)
	fmt.Fprintf(p.w, "run %d/%d  %s  %s  elapsed %s  ETA %s", p.seq, p.total, termsafe.String(p.arm), termsafe.String(p.phase), elapsed, p.eta())
}

// eta estimates the time left: the mean duration of finished runs times the
// runs left, plus the gaps between them (cooldowns, quiet windows), less the time already spent on the
// current run (at most a run's). Before the first run finishes it is
// unknown.
func (p *Progress) eta() string {
	if p.done == 0 {
		return "unknown"
	}
	left := time.Duration(p.total - p.done - p.skipped)
	per := p.spent / time.Duration(p.done)
	// Between two runs the cooldown, or what is left of a quiet gate's
	// window after the run before (its quiet time counts towards it):
	// short runs wait most of the window (the ETA came in ten times low
	// with a 5 s window), long ones none of it.
	gap := max(p.cooldown, p.quiet-per)
	if p.uncredited {
		gap = p.cooldown + p.quiet
	}
	d := left*per + left*gap
	// The runs' own times and the cooldowns leave out the waits for a
	// quiet host (the ETA came in low by half where they out-ran the
	// cooldown): from the second run on, a cycle's wall time counts them.
	if p.done >= 2 && !p.firstStart.IsZero() {
		d = max(d, left*p.lastEnd.Sub(p.firstEnd)/time.Duration(p.done-1))
	}
	// The current run's time so far, at most a run's: a run still waiting
	// for a quiet host has its measuring ahead of it (the whole wait taken
	// off every run left showed an ETA of 0s with three runs to go).
	if p.seq > p.done+p.skipped {
		d -= min(p.now().Sub(p.seqStart), per)
	}
	return max(d, 0).Round(time.Second).String()
}
