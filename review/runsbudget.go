package review

import "sync"

// maxRunsInFlight bounds the bytes of runs.jsonl (and of the record's
// Markdown) that the records checked at once, on every worker of this
// process, hold in memory together: 1 GiB (safefs.MaxRuns), so a record
// at the cap is checked alone (docs/reference/bounds-and-security.md).
const maxRunsInFlight = 1 << 30

// runsBudget is the process's budget; tests lower it.
var runsBudget = newBudget(maxRunsInFlight)

// budget is a weighted semaphore, first come first served: a taker
// waits until what is held and what it takes fit in the budget (a taker
// of more than the whole budget takes all of it).
type budget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	limit int64
	held  int64
	peak  int64 // the most held at once (tests look at it)
	// next and serving order the takers: each waits for its turn.
	next, serving uint64
}

func newBudget(limit int64) *budget {
	b := &budget{limit: limit}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// take waits for n bytes of the budget and returns what gives them back.
func (b *budget) take(n int64) (release func()) {
	n = min(max(n, 0), b.limit)
	b.mu.Lock()
	turn := b.next
	b.next++
	for turn != b.serving || b.held+n > b.limit {
		b.cond.Wait()
	}
	b.serving++
	b.held += n
	b.peak = max(b.peak, b.held)
	b.cond.Broadcast()
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.held -= n
			b.cond.Broadcast()
			b.mu.Unlock()
		})
	}
}
