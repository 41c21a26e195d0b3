package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// forwarded are the signals passed on to the command's group.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}

// terminating says whether a forwarded signal asks the command to end:
// it also ends the stops, so that the command shuts down at full speed.
func terminating(s os.Signal) bool { return s != syscall.SIGUSR1 && s != syscall.SIGUSR2 }

// supervise runs argv in a process group of its own under the duty
// cycle, forwards signals to the group, and returns the exit status to
// exit with (after dying by the command's signal, if it died by one).
func supervise(argv []string, frac float64, period time.Duration, verbose bool, stderr io.Writer) int {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, forwarded...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "slowdown:", err)
		return 127
	}
	pgid := cmd.Process.Pid
	d := newDuty(pgid, frac, period)
	go d.cycle()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		select {
		case s := <-sigs:
			if terminating(s) {
				d.halt()
			}
			_ = syscall.Kill(-pgid, s.(syscall.Signal))
			continue
		case <-exited:
		}
		break
	}
	d.halt()
	// Nothing of the group outlives the command.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if verbose {
		share, wall := d.share()
		fmt.Fprintf(stderr, "slowdown: held %s stopped %.2f%% of %.1f s (asked %.2f%%)\n", argv[0], 100*share, wall.Seconds(), 100*frac)
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		dieBy(ws.Signal())
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// dieBy ends slowdown by sig, as the command ended, so that whoever ran it
// sees the same wait status.
func dieBy(sig syscall.Signal) {
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second) // a signal whose default is not to terminate falls through
}
