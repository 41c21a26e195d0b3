package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// waitLockFlag is --wait-lock of every command that runs campaigns.
var waitLockFlag = &cli.DurationFlag{Name: "wait-lock", Usage: "wait up to `DURATION` for another campaign on this host to finish (default 0: fail at once, naming its pid and scenario)"}

// A campaign is what run, reproduce and bisect hold while they measure:
// a context that the first SIGINT, SIGTERM or SIGHUP cancels (so that the engine
// is stopped and an INCOMPLETE record written; a second one kills every
// engine and exits), and the host lock, one campaign per host.
type campaign struct {
	ctx  context.Context
	sig  *signalBox
	lock *machine.HostLock
	stop func()
}

// startCampaign takes the host lock for the command cmd, waiting up to
// --wait-lock for another campaign to finish and saying who holds it
// while it waits; holder names what holds it (the scenario) to the
// campaign that finds it held. The lock is held until end, or until
// decodebench dies (the kernel drops it).
func startCampaign(c *cli.Context, cmd, holder string) (*campaign, error) {
	ctx, sig, stop := interruptible(c.Context)
	wait := c.Duration(waitLockFlag.Name)
	info := machine.HolderInfo{PID: os.Getpid(), Start: time.Now(), Scenario: holder}
	lock, err := machine.WaitHostLock(ctx, wait, info, lockWaiting(c.App.ErrWriter, cmd, wait))
	if err != nil {
		stop()
		return nil, &exitError{code: 1, msg: err.Error()}
	}
	return &campaign{ctx: ctx, sig: sig, lock: lock, stop: stop}, nil
}

// end releases the host lock and stops listening for signals.
func (k *campaign) end() {
	k.lock.Release()
	k.stop()
}

// options are the harness options every campaign shares: where its
// record goes, its hardware and date, progress on w (drawn live on a
// terminal), the console taught each scenario's secrets, and
// decodebench's build for the record.
func (k *campaign) options(w io.Writer, out, hw, date string) harness.Options {
	ver, rev, dirty := buildInfo()
	return harness.Options{
		OutDir: out, Hardware: hw, Date: date,
		Progress: w, LearnSecrets: learnSecrets, Live: term.IsTerminal(int(os.Stderr.Fd())),
		Version: ver, Commit: rev, Dirty: dirty,
	}
}

// verdictCode is the exit code of a campaign that ended with verdict v:
// its verdict's code, and 128 plus the signal's number for one
// interrupted by SIGHUP or SIGTERM.
func (k *campaign) verdictCode(v schema.Verdict) int {
	code := v.ExitCode()
	if v == schema.Incomplete {
		code = k.interruptedCode(code)
	}
	return code
}

// interruptedCode is the exit code of an interrupted campaign: 129 after
// SIGHUP, 143 after SIGTERM, else code (130 or the verdict's).
func (k *campaign) interruptedCode(code int) int {
	if s := k.sig.get(); s != nil && s != os.Interrupt {
		return schema.SignalExit[signalName(s)]
	}
	return code
}

// signalBox holds the first signal received, read after the campaign ends.
type signalBox struct {
	mu sync.Mutex
	s  os.Signal
}

func (b *signalBox) set(s os.Signal) { b.mu.Lock(); b.s = s; b.mu.Unlock() }
func (b *signalBox) get() os.Signal  { b.mu.Lock(); defer b.mu.Unlock(); return b.s }

// sameBurst is how soon a repeat of the first signal is the same
// interrupt delivered twice: GNU timeout sends its signal to the command
// and to its own process group, which holds the command too, and the
// second copy stopped the campaign without its record. Ctrl-C pressed
// twice within it stops gracefully; a third press stops at once.
const sameBurst = 250 * time.Millisecond

// interruptible returns a context cancelled by the first SIGINT, SIGTERM
// or SIGHUP, which lets the campaign stop its engine and write an INCOMPLETE record.
// A second signal kills every engine at once and exits; the same one
// again within sameBurst is the first delivered twice.
func interruptible(parent context.Context) (context.Context, *signalBox, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	// SIGHUP too: a closed terminal or a dropped ssh session is an
	// interrupt, not a death that leaves no record and the engine's
	// workers running. Under nohup it stays ignored (Notify would
	// undo that).
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	if !signal.Ignored(syscall.SIGHUP) {
		signal.Notify(ch, syscall.SIGHUP)
	}
	// A console that went away (a pipe to tee or head closed) is not a
	// death either: noticed, SIGPIPE makes a write to it fail instead of
	// killing decodebench before its record (Go's default for stdout and
	// stderr), and the campaign goes on. Noticed, not ignored: an engine
	// started after would inherit an ignored SIGPIPE.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	// SIGQUIT (Ctrl-\) keeps its meaning, a stack dump to debug a hang,
	// but ends the engines first: Go's default left them running.
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGQUIT)
	box := &signalBox{}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-pipe:
			case <-quit:
				engine.KillAll()
				fmt.Fprintln(stderr, "decodebench: SIGQUIT: engines killed; the goroutines, then exiting without a record (the runs journaled so far resume: run --resume)")
				_ = pprof.Lookup("goroutine").WriteTo(stderr, 2)
				os.Exit(128 + int(syscall.SIGQUIT))
			case <-done:
				return
			}
		}
	}()
	go func() {
		var first os.Signal
		var at time.Time
		select {
		case first = <-ch:
			at = time.Now()
			box.set(first)
			fmt.Fprintf(stderr, "\ndecodebench: %s: stopping the engine and writing the record (again to stop at once)\n", first)
			cancel(harness.Interrupt{Signal: signalName(first)})
		case <-done:
			return
		}
		for {
			select {
			case s := <-ch:
				if s == first && time.Since(at) < sameBurst {
					continue // the same interrupt delivered twice, not a second one
				}
				engine.KillAll()
				fmt.Fprintf(stderr, "decodebench: %s again: engines killed; exiting without a record\n", s)
				os.Exit(schema.SignalExit[signalName(s)])
			case <-done:
				return
			}
		}
	}()
	return ctx, box, func() { signal.Stop(ch); signal.Stop(pipe); signal.Stop(quit); close(done); cancel(nil) }
}

// signalName is the record's name of an interrupting signal.
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return "SIGINT"
}

// lockWaiting says, while a command waits for the host lock, who holds it
// and how long it has waited: when the wait starts and every
// machine.LockNotifyEvery after.
func lockWaiting(w io.Writer, cmd string, limit time.Duration) func(*machine.LockHeldError) {
	return func(e *machine.LockHeldError) {
		fmt.Fprintf(w, "decodebench: %s: waiting up to %v for the host lock: %v\n", cmd, limit, e)
	}
}
