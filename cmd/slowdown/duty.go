package main

import (
	"sync"
	"syscall"
	"time"
)

// A duty holds a process group stopped for a fraction of every period.
//
// Each stop is as long as it takes for the total held stopped to reach the
// fraction of the wall time elapsed: a stop that lasted longer than asked
// (slowdown waited for a CPU before it could send SIGCONT) is made good by
// a shorter next one, so the fraction holds on a loaded host too. A stop
// counts from SIGSTOP sent to SIGCONT sent: a command that was waiting for
// a CPU when it was sent stops when it would have run.
type duty struct {
	pgid   int
	frac   float64
	period time.Duration

	mu      sync.Mutex
	halted  bool          // no more stops: the command is ending
	held    bool          // the group is stopped now
	stopped time.Duration // total held stopped, SIGSTOP sent to SIGCONT sent
	begin   time.Time
	end     time.Time
}

func newDuty(pgid int, frac float64, period time.Duration) *duty {
	return &duty{pgid: pgid, frac: frac, period: period, begin: time.Now()}
}

// cycle stops and continues the group until halt is called.
func (d *duty) cycle() {
	if d.frac <= 0 {
		return
	}
	for k := 1; ; k++ {
		end := d.begin.Add(time.Duration(k) * d.period)
		d.mu.Lock()
		owed := time.Duration(d.frac*float64(end.Sub(d.begin))) - d.stopped
		d.mu.Unlock()
		owed = min(owed, d.period)
		if owed <= 0 {
			time.Sleep(time.Until(end))
			continue
		}
		time.Sleep(time.Until(end.Add(-owed)))
		if !d.hold() {
			return
		}
		time.Sleep(time.Until(end))
		if !d.release() {
			return
		}
	}
}

// hold stops the group; false once halted.
func (d *duty) hold() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.halted {
		return false
	}
	d.held = true
	d.end = time.Now()
	_ = syscall.Kill(-d.pgid, syscall.SIGSTOP)
	return true
}

// release continues the group and counts the stop; false once halted
// (halt continued it).
func (d *duty) release() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.halted {
		return false
	}
	d.resume()
	return true
}

// resume continues a held group; d.mu held.
func (d *duty) resume() {
	if !d.held {
		return
	}
	_ = syscall.Kill(-d.pgid, syscall.SIGCONT)
	d.held = false
	d.stopped += time.Since(d.end)
}

// halt ends the stops and leaves the group running.
func (d *duty) halt() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.halted {
		return
	}
	d.resume()
	d.halted = true
	d.end = time.Now()
}

// share is the fraction of wall time the group was held stopped, from the
// start to halt.
func (d *duty) share() (float64, time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	wall := d.end.Sub(d.begin)
	if !d.halted {
		wall = time.Since(d.begin)
	}
	if wall <= 0 {
		return 0, 0
	}
	return d.stopped.Seconds() / wall.Seconds(), wall
}
