package review

import "sync/atomic"

// Progress is told, after each record of a batch is read and checked,
// how many are done of how many: done counts 1 to total, once each, in
// the order the workers finish them (so from several goroutines at
// once: a Progress must be safe for concurrent use). Nil reports
// nothing.
type Progress func(done, total int)

// counter is a batch's count of records done, reported to p.
type counter struct {
	p     Progress
	total int
	done  atomic.Int64
}

func newCounter(p Progress, total int) *counter { return &counter{p: p, total: total} }

// one counts a record done.
func (c *counter) one() {
	if c == nil || c.p == nil {
		return
	}
	c.p(int(c.done.Add(1)), c.total)
}
