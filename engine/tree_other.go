//go:build unix && !linux

package engine

import (
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// newTree prepares a tree tracked by process group and parent pid: there
// is no cgroup and no subreaper here, so a descendant that detached and
// whose parent exited is adopted by launchd and can escape.
func newTree() (*tree, error) { return &tree{}, nil }

func (t *tree) join(int)                                                     {}
func (t *tree) cgroupProcs() []int                                           { return nil }
func (t *tree) killCgroup()                                                  {}
func (t *tree) removeCgroup()                                                {}
func (t *tree) cgroupAttr(*syscall.SysProcAttr) (*syscall.SysProcAttr, bool) { return nil, false }

// ReapStaleTrees has no cgroups to reap here.
func ReapStaleTrees() []string { return nil }

func listProcs() ([]proc, error) {
	ps, err := process.Processes()
	if err != nil {
		return nil, err
	}
	out := make([]proc, 0, len(ps))
	for _, p := range ps {
		pid := int(p.Pid)
		ppid, err := p.Ppid()
		if err != nil {
			continue
		}
		pgid, _ := unix.Getpgid(pid)
		sid, _ := unix.Getsid(pid)
		name, _ := p.Name()
		st, _ := p.Status()
		zombie := len(st) > 0 && st[0] == process.Zombie
		out = append(out, proc{pid: pid, ppid: int(ppid), pgid: pgid, sid: sid, name: name, zombie: zombie})
	}
	return out, nil
}
