package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/decodebench/decodebench/review"
)

// A batch of records (check, index, site, history) says how far it has
// come once it has taken progressAfter, then every progressEvery: a cold
// check of three thousand records takes minutes on two cores, and was
// silent until its end.
const (
	progressAfter = 3 * time.Second
	progressEvery = 10 * time.Second
)

// recordsProgress writes those lines to w, each naming the command.
type recordsProgress struct {
	mu          sync.Mutex
	w           io.Writer
	command     string
	now         func() time.Time
	start, last time.Time
}

// newRecordsProgress is a Progress for command's batch, started now.
func newRecordsProgress(w io.Writer, command string, now func() time.Time) review.Progress {
	t := now()
	p := &recordsProgress{w: w, command: command, now: now, start: t, last: t}
	return p.report
}

// report writes a line when it is time for one: the records done, the
// time so far and, from the rate so far, the time left. The last record
// writes nothing (the command's own output follows).
func (p *recordsProgress) report(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	since := t.Sub(p.start)
	if done <= 0 || done >= total || since < progressAfter || (p.last != p.start && t.Sub(p.last) < progressEvery) {
		return
	}
	p.last = t
	left := time.Duration(float64(since) * float64(total-done) / float64(done))
	fmt.Fprintf(p.w, "%s: %d of %d records read and checked, %s so far, about %s left\n",
		p.command, done, total, since.Round(time.Second), left.Round(time.Second))
}
