//go:build unix

package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// WatchdogArg is the hidden command under which decodebench re-executes
// itself as an engine's watchdog: `decodebench __watchdog PARENT PGID`.
const WatchdogArg = "__watchdog"

// watchdogExe is the executable started as the watchdog; empty until the
// program says it handles WatchdogArg (EnableWatchdog).
var watchdogExe string

// EnableWatchdog tells the engine package that this program runs
// RunWatchdog when started with WatchdogArg, so that engines started where
// the kernel has no parent-death signal (macOS) get a watchdog.
func EnableWatchdog() {
	if exe, err := os.Executable(); err == nil {
		watchdogExe = exe
	}
}

// needWatchdog says whether an engine needs a watchdog: where there is no
// parent-death signal, or it was turned off for a test.
func needWatchdog() bool { return watchdogExe != "" && !parentDeathSignal() }

// startWatchdog starts `decodebench __watchdog <this pid> <engine pgid>`
// in its own process group, so that stopping the engine's group does not
// reach it, and nothing of decodebench's reaches it but its death.
func startWatchdog(pgid int) (*exec.Cmd, error) {
	cmd := exec.Command(watchdogExe, WatchdogArg, strconv.Itoa(os.Getpid()), strconv.Itoa(pgid))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go cmd.Wait() // reaped when stopped
	return cmd, nil
}

// watchdogPoll is how often the watchdog looks at its parent where the
// kernel cannot tell it when the parent exits. Where it can (a pidfd on
// Linux, kqueue on macOS), the watchdog sleeps until the parent or the
// engine exits, looking anyway every watchdogSlowPoll: a watchdog that
// woke five times a second cost the engine it guards CPU in every window.
const (
	watchdogPoll     = 200 * time.Millisecond
	watchdogSlowPoll = 5 * time.Second
)

// RunWatchdog is the watchdog process: it polls its parent (decodebench)
// and, once the parent is gone (the watchdog is re-parented, or the pid
// no longer exists), ends the engine's process group: SIGTERM, then
// SIGKILL after two seconds. It exits when the engine group is gone.
func RunWatchdog(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: decodebench __watchdog PARENT_PID ENGINE_PGID")
		return 64
	}
	parent, err1 := strconv.Atoi(args[0])
	pgid, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil || parent <= 1 || pgid <= 1 {
		fmt.Fprintln(os.Stderr, "decodebench __watchdog: bad pids", args)
		return 64
	}
	w := newExitWaiter(parent, pgid)
	for {
		if errors.Is(unix.Kill(-pgid, 0), unix.ESRCH) {
			return 0 // the engine is gone
		}
		if os.Getppid() != parent || errors.Is(unix.Kill(parent, 0), unix.ESRCH) {
			_ = unix.Kill(-pgid, unix.SIGTERM)
			for i := 0; i < 10 && !errors.Is(unix.Kill(-pgid, 0), unix.ESRCH); i++ {
				time.Sleep(watchdogPoll)
			}
			_ = unix.Kill(-pgid, unix.SIGKILL)
			return 0
		}
		if w == nil || !w.wait(watchdogSlowPoll) {
			w = nil
			time.Sleep(watchdogPoll)
		}
	}
}
