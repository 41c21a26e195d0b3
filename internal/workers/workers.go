// Package workers runs independent jobs on a bounded pool of one worker
// per CPU: checking many records, writing the site's record pages,
// searching a plan's schedules.
package workers

import (
	"runtime"
	"sync"
)

// ForEach runs f(0) … f(n-1) on a bounded pool of one worker per CPU;
// one at a time when there is a single CPU or a single job.
func ForEach(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
