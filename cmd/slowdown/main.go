// Command slowdown runs a command and holds it stopped a fixed fraction of
// wall time: every period it stops the command's whole process group
// (SIGSTOP) for the fraction's share of the period and lets it go on
// (SIGCONT). A CPU-bound engine that has its cores does the same work in
// 1/(1-fraction) of the time: this is the known slowdown with which a
// campaign's sensitivity is measured on a quiet host. On an overloaded one
// (more runnable threads than cores) it is no slowdown: the scheduler
// serves each resumed process first, and llama-server held stopped 40% of
// the time decoded faster than without.
//
//	slowdown [-stop 5%] [-period 20ms] [-v] [--] command [args...]
//
// It forwards SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 to the
// command's group (a terminating signal also ends the stops, so the
// command shuts down at full speed), exits with the command's exit status
// (dying by the same signal when the command died by one), and kills what
// is left of the group when the command exits.
//
// What it cannot contain: a process the command starts in a new session
// or group (setsid) is not stopped and not killed by it; if slowdown is
// itself killed with SIGKILL, Linux kills the command (parent-death
// signal) and the kernel sends SIGHUP and SIGCONT to the rest of the group,
// now orphaned; elsewhere the command is left running. Whoever ran
// slowdown contains the rest (decodebench's engine tree does).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// exitUsage is the exit status of a bad command line (BSD's EX_USAGE).
const exitUsage = 64

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("slowdown", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stop := fs.String("stop", "5%", "share of wall time the command is held stopped: 5% or 0.05, at least 0 and below 90%")
	period := fs.Duration("period", 20*time.Millisecond, "length of one stop-and-run cycle")
	verbose := fs.Bool("v", false, "print the share of wall time actually held stopped when the command ends")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: slowdown [-stop 5%] [-period 20ms] [-v] [--] command [args...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	frac, err := parseFraction(*stop)
	if err == nil && (*period < time.Millisecond || *period > time.Minute) {
		err = fmt.Errorf("-period %s: want 1ms to 1m", *period)
	}
	if err == nil && fs.NArg() == 0 {
		err = errors.New("no command to run")
	}
	if err != nil {
		fmt.Fprintln(stderr, "slowdown:", err)
		fs.Usage()
		return exitUsage
	}
	return supervise(fs.Args(), frac, *period, *verbose, stderr)
}

// parseFraction reads "5%" or "0.05".
func parseFraction(s string) (float64, error) {
	v, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("-stop %q: not a number or a percentage", s)
	}
	if pct {
		f /= 100
	}
	if !(f >= 0 && f < 0.9) {
		return 0, fmt.Errorf("-stop %q: want at least 0%% and below 90%%", s)
	}
	return f, nil
}
