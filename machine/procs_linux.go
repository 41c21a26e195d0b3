package machine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/cpu"
)

// listProcesses reads /proc/PID/stat once a process, and its cmdline only
// where the short name fills the kernel's 15 bytes. gopsutil read five to
// six files a process for the same fields (comm, stat twice, status,
// with a priority syscall each time): 19ms a listing of 66 processes on
// the 2-core VM, and a listing is taken at both ends of every measured
// window and at each look of the quiet gate, beside the engine.
func listProcesses(ctx context.Context) ([]Proc, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("machine: list processes: %w", err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("machine: list processes: %w", err)
	}
	out := make([]Proc, 0, len(names))
	for _, n := range names {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", n, "stat"))
		if err != nil {
			continue // ended while being read
		}
		p, zombie, ok := procStat(b, cpu.ClocksPerSec)
		if !ok || zombie || p.PID != pid {
			continue
		}
		if len(p.Name) >= 15 {
			p.Name = longName(p.Name, filepath.Join("/proc", n, "cmdline"))
		}
		p.Kernel = p.PID == 2 || p.PPID == 2
		out = append(out, p)
	}
	return out, nil
}

// procStat parses a /proc/PID/stat line (proc_pid_stat(5)): "pid (comm)
// state ppid ...", utime and stime the 14th and 15th fields, in clock
// ticks. comm may hold spaces and parentheses, so it ends at the last ')'.
func procStat(b []byte, ticks float64) (p Proc, zombie, ok bool) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return Proc{}, false, false
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return Proc{}, false, false
	}
	f := strings.Fields(string(b[end+1:])) // f[0] is field 3, the state
	if len(f) < 13 || ticks <= 0 {
		return Proc{}, false, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	utime, err2 := strconv.ParseFloat(f[11], 64)
	stime, err3 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return Proc{}, false, false
	}
	return Proc{PID: pid, PPID: ppid, Name: string(b[open+1 : end]), CPU: (utime + stime) / ticks}, f[0] == "Z", true
}

// longName is a short name that fills the kernel's 15 bytes, made whole
// from the base of the process's first argument where that begins with
// it, as gopsutil names it ("ld-linux-x86-64" → "ld-linux-x86-64.so.2").
func longName(short, cmdline string) string {
	b, err := os.ReadFile(cmdline)
	if err != nil {
		return short
	}
	arg0, _, _ := bytes.Cut(b, []byte{0})
	if base := filepath.Base(string(arg0)); len(arg0) > 0 && strings.HasPrefix(base, short) {
		return base
	}
	return short
}
