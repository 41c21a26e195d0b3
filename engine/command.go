package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/internal/capped"
)

// CommandConfig says how to run a command-line engine once: a CLI that
// loads the model, generates and exits (llama-completion,
// llama-speculative, mlx_lm.generate).
type CommandConfig struct {
	Command []string
	// Executable is the file executed, as Config's.
	Executable string
	Env        map[string]string
	Dir        string
	// Timeout bounds the whole run; StopGrace is the time between SIGTERM
	// and SIGKILL when it is exceeded or the campaign is interrupted.
	Timeout   time.Duration
	StopGrace time.Duration
	LogPath   string
	Redact    func(string) string
	// Label names the run in the log's marker lines ("warmup 1",
	// "measured").
	Label string
	// Append adds to the log file instead of starting it afresh, so that
	// warmups and the measured run share one log.
	Append bool
	// OnStart, when set, is called with the command's pid (its process
	// group's id) once it has started: the run loop starts watching the
	// machine's CPU there.
	OnStart func(pid int)
}

// CommandResult is what one run of a command printed.
type CommandResult struct {
	// Stdout is everything the command wrote to standard output, up to
	// maxStdout bytes.
	Stdout []byte
	// Lines are its stdout and stderr lines in the order they ended (each
	// stream's lines whole, Log.Stdout), unredacted: what counters and
	// metric patterns read.
	Lines []string
	Wall  time.Duration
	// CPU is the CPU time (user and system) the command used, with the
	// processes it waited for, from its rusage.
	CPU time.Duration
	// Leftovers are processes the command left running, killed when it
	// exited.
	Leftovers []Leftover
	// Window is what the command wrote (its run is the window); LogCut
	// how much of it the log file left out.
	Window WindowOutput
	LogCut int64
}

// maxStdout bounds the standard output kept for the generated text.
const maxStdout = 16 << 20

// RunCommand runs the command in its own process group (killed whole on
// every path out, as a server is), writing both streams into the log file,
// and returns what it printed. A non-zero exit, a timeout or an
// interruption is an error carrying the log's last lines.
func RunCommand(ctx context.Context, cfg CommandConfig) (*CommandResult, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("engine: empty command")
	}
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if cfg.Append {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	log, err := openLog(cfg.LogPath, flags)
	if err != nil {
		return nil, err
	}
	log.redact = cfg.Redact
	log.Mark("%s: %s", cfg.Label, strings.Join(cfg.Command, " "))
	cmd, err := command(cfg.Executable, cfg.Command, Environ(cfg.Env))
	if err != nil {
		log.Close()
		return nil, &StartError{Reason: fmt.Sprintf("cannot start engine %q: %v", cfg.Command[0], err)}
	}
	cmd.Dir = cfg.Dir
	stdout := &capped.Buffer{Max: maxStdout}
	cmd.Stdout = io.MultiWriter(stdout, log.Stdout())
	cmd.Stderr = log
	tr, err := newTree()
	if err != nil {
		log.Close()
		return nil, err
	}
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 2 * time.Second
	log.BeginWindow()
	start := time.Now()
	if cmd, err = tr.start(cmd); err != nil {
		tr.close()
		log.Close()
		return nil, &StartError{Reason: fmt.Sprintf("cannot start engine %q: %v", cfg.Command[0], err)}
	}
	if cfg.OnStart != nil {
		cfg.OnStart(cmd.Process.Pid)
	}
	s := &Server{Argv: cfg.Command, Log: log, cmd: cmd, grace: cfg.StopGrace, done: make(chan struct{}), tree: tr}
	if s.grace <= 0 {
		s.grace = 5 * time.Second
	}
	track(s)
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	var failure error
	select {
	case <-s.done:
	case <-ctx.Done():
		failure = ctx.Err()
	case <-time.After(timeout):
		failure = fmt.Errorf("the command did not finish within %s", timeout)
	}
	wall := time.Since(start)
	if failure != nil {
		log.Mark("stopping: %v", failure)
		s.Stop() // closes the log
		if errors.Is(failure, context.Canceled) {
			return nil, failure
		}
		return nil, &StartError{Reason: failure.Error(), LogTail: log.Tail()}
	}
	lines := log.EndWindow(0, 0)
	// What the command left running ends with it.
	signalGroup(cmd.Process.Pid, syscall.SIGKILL)
	s.endTree()
	untrack(s)
	log.Mark("exited (%s)", exitText(s.waitErr))
	tail := log.Tail()
	if err := log.Close(); err != nil {
		return nil, err
	}
	// A command that exited well but left a process holding its output
	// open is not a failure: that process was killed above, and is named.
	if s.waitErr != nil && !errors.Is(s.waitErr, exec.ErrWaitDelay) {
		return nil, &StartError{Reason: "the command failed (" + exitText(s.waitErr) + ")", LogTail: tail}
	}
	var used time.Duration
	if ps := cmd.ProcessState; ps != nil {
		used = ps.UserTime() + ps.SystemTime()
	}
	return &CommandResult{Stdout: stdout.Bytes(), Lines: lines, Wall: wall, CPU: used, Leftovers: s.leftovers, Window: log.Window(), LogCut: log.Cut()}, nil
}

// command is the process that runs argv: executable when given (the
// identified file), else argv[0] resolved in env, as Identify resolves it.
// argv[0] is passed as it is either way.
func command(executable string, argv, env []string) (*exec.Cmd, error) {
	if executable == "" {
		p, err := lookPath(argv[0], env)
		if err != nil {
			return nil, err
		}
		executable = p
	}
	return &exec.Cmd{Path: executable, Args: slices.Clone(argv), Env: env}, nil
}
