package planner

import (
	"runtime"
	"sync"
)

// each is f of every element of xs, in their order, computed on the
// machine's cores: a plan evaluates each number of measured requests a
// start on its own (about a hundred MDEs, each a bisection over the t
// law), and plan does not run beside an engine it would slow.
func each[T, R any](xs []T, f func(T) R) []R {
	out := make([]R, len(xs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(xs), runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = f(xs[i])
			}
		}()
	}
	for i := range xs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
