package machine

import (
	"testing"
	"time"
)

// A kernel worker renames itself with each work item and has run for
// hours: taken for a new process, its whole CPU time read as seconds of
// CPU in a 2-second window held the quiet gate forever on a VM. A renamed
// pid whose CPU time did not go down is the same process; kernel threads
// are never counted.
func TestSharesRenamedAndKernelThreads(t *testing.T) {
	prev := []Proc{
		{PID: 33, PPID: 2, Name: "kworker/u8:1-events_unbound", CPU: 5000, Kernel: true},
		{PID: 40, PPID: 1, Name: "old-name", CPU: 100},
		{PID: 41, PPID: 1, Name: "cc1plus", CPU: 300},
	}
	cur := []Proc{
		{PID: 33, PPID: 2, Name: "kworker/u8:1-kvfree_rcu_reclaim", CPU: 5000.2, Kernel: true},
		{PID: 40, PPID: 1, Name: "new-name", CPU: 100.1},
		{PID: 41, PPID: 1, Name: "cc1plus", CPU: 2}, // pid reused: CPU time went down
	}
	got := map[int]float64{}
	for _, s := range shares(prev, cur, 2*time.Second) {
		got[s.PID] = s.Cores
	}
	if _, ok := got[33]; ok {
		t.Errorf("a kernel thread was counted: %v", got)
	}
	if c := got[40]; c < 0.04 || c > 0.06 {
		t.Errorf("renamed process: %.3f cores, want 0.05", c)
	}
	if c := got[41]; c != 1 {
		t.Errorf("reused pid: %.3f cores, want its whole CPU time over the window (1)", c)
	}
}
