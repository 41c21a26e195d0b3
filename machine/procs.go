package machine

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// A Proc is one process at one moment.
type Proc struct {
	PID  int     `json:"pid"`
	PPID int     `json:"ppid"`
	Name string  `json:"name"` // the kernel's short name (comm), e.g. "cc1plus"
	CPU  float64 `json:"-"`    // user + system CPU seconds since it started
	// Kernel marks a Linux kernel thread (kthreadd and its children):
	// its work is the kernel's, often done for the campaign itself, and
	// it is never a process to wait for or to blame.
	Kernel bool `json:"kernel,omitempty"`
}

// ListProcesses lists every running process it can read. Processes that
// end while being read, and zombies, are left out. On Linux it reads each
// process's stat file once (procStat, procs_linux.go).
func ListProcesses(ctx context.Context) ([]Proc, error) {
	return listProcesses(ctx)
}

// listLibrary lists the processes through gopsutil, five to six files
// read a process.
func listLibrary(ctx context.Context) ([]Proc, error) {
	ps, err := process.ProcessesWithContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("machine: list processes: %w", err)
	}
	out := make([]Proc, 0, len(ps))
	for _, p := range ps {
		t, err := p.TimesWithContext(ctx)
		if err != nil {
			continue
		}
		name, err := p.NameWithContext(ctx)
		if err != nil {
			continue
		}
		// A zombie has ended; its parent has not yet reaped it.
		if st, err := p.StatusWithContext(ctx); err == nil && slices.Contains(st, process.Zombie) {
			continue
		}
		ppid, _ := p.PpidWithContext(ctx)
		kernel := runtime.GOOS == "linux" && (p.Pid == 2 || ppid == 2)
		out = append(out, Proc{PID: int(p.Pid), PPID: int(ppid), Name: name, CPU: t.User + t.System, Kernel: kernel})
	}
	return out, nil
}

// A Clock tells the time and waits; tests pass a fake one.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time                                   { return time.Now() }
func (realClock) Sleep(ctx context.Context, d time.Duration) error { return sleep(ctx, d) }

// tree returns pids and every descendant of them in procs.
func tree(procs []Proc, pids []int) map[int]bool {
	in := map[int]bool{}
	for _, p := range pids {
		in[p] = true
	}
	for changed := true; changed; {
		changed = false
		for _, p := range procs {
			if !in[p.PID] && in[p.PPID] && p.PPID != 0 {
				in[p.PID] = true
				changed = true
			}
		}
	}
	return in
}

// ancestors returns pid's parent chain in procs (not pid itself), up to
// but not including pid 1.
func ancestors(procs []Proc, pid int) []int {
	parent := map[int]int{}
	for _, p := range procs {
		parent[p.PID] = p.PPID
	}
	var out []int
	seen := map[int]bool{pid: true}
	for p := parent[pid]; p > 1 && !seen[p]; p = parent[p] {
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// A ProcShare is one process's CPU use over an interval.
type ProcShare struct {
	PID  int    `json:"pid"`
	Name string `json:"name"`
	// Cores is the CPU time it used over the wall time: 1 is one core
	// fully busy.
	Cores float64 `json:"cores"`
}

// shares returns the CPU share of each process in cur over the wall time
// since prev, busiest first. A process new in cur counts all its CPU time:
// it started within the interval.
func shares(prev, cur []Proc, wall time.Duration) []ProcShare {
	if wall <= 0 {
		return nil
	}
	before := map[int]Proc{}
	for _, p := range prev {
		before[p.PID] = p
	}
	var out []ProcShare
	for _, p := range cur {
		if p.Kernel {
			continue
		}
		// The same pid with a CPU time that did not go down is the same
		// process, even renamed (a kernel worker's name follows its work
		// item; a process may set its own): only a pid reused by a new
		// process starts its CPU time again from 0.
		d := p.CPU
		if b, ok := before[p.PID]; ok && b.CPU <= p.CPU {
			d = p.CPU - b.CPU
		}
		if d > 0 {
			out = append(out, ProcShare{PID: p.PID, Name: p.Name, Cores: d / wall.Seconds()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Cores > out[j].Cores })
	return out
}

// ownProcesses are the campaign's: decodebench and its descendants (the
// engine it starts), the trees of the pids in exclude, and the processes
// decodebench runs under (its shell, a CI runner's worker) but not their
// other children, which may well be a build running beside it.
func ownProcesses(procs []Proc, exclude []int) map[int]bool {
	self := os.Getpid()
	own := tree(procs, append([]int{self}, exclude...))
	for _, a := range ancestors(procs, self) {
		own[a] = true
	}
	return own
}
