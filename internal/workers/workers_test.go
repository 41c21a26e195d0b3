package workers

import (
	"sync/atomic"
	"testing"
)

// Every job runs exactly once, whatever the number of jobs.
func TestForEachRunsEveryJobOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		counts := make([]int32, n)
		ForEach(n, func(i int) { atomic.AddInt32(&counts[i], 1) })
		for i, c := range counts {
			if c != 1 {
				t.Errorf("n=%d: job %d ran %d times", n, i, c)
			}
		}
	}
}
