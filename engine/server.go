// Package engine drives real inference engines: it starts an engine server
// in its own process group, waits until it is ready, sends it the measured
// request, reads its counters (Prometheus metrics, reply fields, log lines),
// and stops it without leaving a process behind.
package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/scenarios"
)

// Config says how to start one engine server.
type Config struct {
	// Command is the engine command line; ${PORT} is replaced by the port
	// chosen for this start.
	Command []string
	// Executable is the file executed with Command as its arguments (its
	// argv[0] stays Command[0]): the path the engine was identified by
	// (Resolve), so that what runs is what was hashed, whatever a link or
	// PATH says by now. Empty: Command[0] is resolved in the engine's
	// environment at this start.
	Executable string
	// Env is added to decodebench's own environment.
	Env          map[string]string
	Dir          string
	ReadyPath    string
	ReadyTimeout time.Duration
	StopGrace    time.Duration
	// LogPath is where the engine's stdout and stderr go.
	LogPath string
	// Redact, when set, masks secrets in every line written to the log
	// file (decodebench's marker lines, the command line among them, and
	// the engine's output) and in the log lines errors carry. Counters
	// read the engine's lines unredacted.
	Redact func(string) string
	// PIDFiles are written with the engine's pid and start time while it
	// runs (ReapStale reads them after a crash), and removed when it stops.
	PIDFiles []string
	// KeepStartup keeps the lines the engine writes until it is ready,
	// for startup counters (Log.Startup).
	KeepStartup bool
}

// Server is a started engine.
type Server struct {
	Port    int
	BaseURL string
	Argv    []string
	Log     *Log

	cmd      *exec.Cmd
	grace    time.Duration
	done     chan struct{}
	waitErr  error
	stopOnce sync.Once
	stopErr  error
	// pidFiles name the running engine (pid and start time) until it
	// stops; watchdog ends it if decodebench dies without a parent-death
	// signal (watchdog.go).
	pidFiles []string
	watchdog *exec.Cmd
	// tree holds every process the engine starts (tree.go); leftovers
	// are those still running when it stopped, which were killed.
	tree      *tree
	leftovers []Leftover
}

// pickPort chooses the port of each start; tests replace it to hand the
// engine a port that is already taken.
var pickPort = FreePort

// portAttempts bounds how often Start picks a new port when the engine
// reports that its port was taken between the choice and its bind.
const portAttempts = 3

// Start launches the engine and waits until its ready path answers 200.
// On any error the engine has been stopped.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	var lastErr error
	for attempt := 0; attempt < portAttempts; attempt++ {
		s, err := start(ctx, cfg, attempt)
		if err == nil {
			return s, nil
		}
		lastErr = err
		var se *StartError
		if !errors.As(err, &se) || !portConflict(se.LogTail) {
			return nil, err
		}
	}
	return nil, lastErr
}

func portConflict(lines []string) bool {
	for _, l := range lines {
		l = strings.ToLower(l)
		if strings.Contains(l, "address already in use") || strings.Contains(l, "couldn't bind") || strings.Contains(l, "failed to bind") {
			return true
		}
	}
	return false
}

func start(ctx context.Context, cfg Config, attempt int) (*Server, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("engine: empty command")
	}
	port, err := pickPort()
	if err != nil {
		return nil, err
	}
	ps := strconv.Itoa(port)
	argv := make([]string, len(cfg.Command))
	for i, a := range cfg.Command {
		argv[i] = scenarios.ExpandPort(a, ps)
	}
	log, err := NewLog(cfg.LogPath)
	if err != nil {
		return nil, err
	}
	log.redact = cfg.Redact
	if cfg.KeepStartup {
		log.KeepStartup()
	}
	if attempt > 0 {
		log.Mark("port conflict on the previous start; retrying on port %d", port)
	}
	log.Mark("start: %s", strings.Join(argv, " "))
	env := map[string]string{}
	for k, v := range cfg.Env {
		env[k] = scenarios.ExpandPort(v, ps)
	}
	cmd, err := command(cfg.Executable, argv, Environ(env))
	if err != nil {
		log.Close()
		return nil, &StartError{Reason: fmt.Sprintf("cannot start engine %q: %v", argv[0], err)}
	}
	cmd.Dir = cfg.Dir
	out, err := log.Spool()
	if err != nil {
		log.Close()
		return nil, &StartError{Reason: err.Error()}
	}
	cmd.Stdout, cmd.Stderr = out, out
	tr, err := newTree()
	if err != nil {
		log.Close()
		return nil, &StartError{Reason: err.Error()}
	}
	cmd.SysProcAttr = procAttr()
	if cmd, err = tr.start(cmd); err != nil {
		tr.close()
		log.Close()
		return nil, &StartError{Reason: fmt.Sprintf("cannot start engine %q: %v", argv[0], err)}
	}
	s := &Server{
		Port:    port,
		BaseURL: "http://127.0.0.1:" + ps,
		Argv:    argv,
		Log:     log,
		cmd:     cmd,
		grace:   cfg.StopGrace,
		done:    make(chan struct{}),
		tree:    tr,
	}
	if s.grace <= 0 {
		s.grace = 5 * time.Second
	}
	track(s)
	log.OnSpoolOverflow(s.killFlooding)
	s.pidFiles = cfg.PIDFiles
	writePIDFiles(s.pidFiles, cmd.Process.Pid, argv[0])
	if needWatchdog() {
		if wd, err := startWatchdog(cmd.Process.Pid); err == nil {
			s.watchdog = wd
			registerLeader(wd.Process.Pid)
		} else {
			log.Mark("no watchdog: %v", err)
		}
	}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(ctx, cfg.ReadyPath, cfg.ReadyTimeout); err != nil {
		s.Stop()
		return nil, err
	}
	log.EndStartup()
	log.Mark("ready on port %d", port)
	// Again now that it serves: a wrapper script has exec'd the engine by
	// now, and the executable a stale engine is matched by is the
	// engine's, not the wrapper's.
	writePIDFiles(s.pidFiles, cmd.Process.Pid, argv[0])
	return s, nil
}

func (s *Server) waitReady(ctx context.Context, path string, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	deadline := time.Now().Add(timeout)
	client := httpClient()
	client.Timeout = 2 * time.Second
	url := s.BaseURL + path
	for {
		select {
		case <-s.done:
			return &StartError{Reason: fmt.Sprintf("engine exited while starting (%s)", s.exitHow()), LogTail: s.Log.Tail()}
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return &StartError{Reason: fmt.Sprintf("engine ready check: GET %s: %v", path, err), LogTail: s.Log.Tail()}
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return &StartError{Reason: fmt.Sprintf("engine not ready: GET %s did not answer 200 within %s", path, timeout), LogTail: s.Log.Tail()}
		}
		select {
		case <-s.done:
		case <-ctx.Done():
		case <-time.After(readyPoll(time.Until(deadline), timeout)):
		}
	}
}

// readyPoll is how long the ready check waits before asking again: 20ms
// in the first two seconds, where a small model's engine is ready (at a
// tenth of a second's poll a run waited 50ms on average past the engine's
// readiness), 100ms after.
func readyPoll(left, timeout time.Duration) time.Duration {
	if timeout-left < 2*time.Second {
		return 20 * time.Millisecond
	}
	return 100 * time.Millisecond
}

// Pid is the engine's process id (also its process group id).
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Exited reports whether the engine process has exited, and how.
func (s *Server) Exited() (bool, string) {
	select {
	case <-s.done:
		return true, s.exitHow()
	default:
		return false, ""
	}
}

// kill sends SIGKILL to the engine's group and to every process of its
// tree, without waiting.
func (s *Server) kill() {
	signalGroup(s.cmd.Process.Pid, syscall.SIGKILL)
	if s.tree != nil {
		s.tree.killCgroup()
		for _, p := range s.tree.members() {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}

// Stop sends SIGTERM to the engine's process group, SIGKILL after the grace
// period, and waits for the engine to exit. It is safe to call more than
// once and from several goroutines.
func (s *Server) Stop() error { return s.stop(context.Background(), nil) }

// stop is Stop; an interrupt (ctx done, before or while it waits)
// bounds the wait (awaitExit).
func (s *Server) stop(ctx context.Context, say io.Writer) error {
	s.stopOnce.Do(func() {
		defer untrack(s)
		forgetHeaders(s.BaseURL)
		pgid := s.cmd.Process.Pid
		signalGroup(pgid, syscall.SIGTERM)
		s.awaitExit(ctx, pgid, say)
		// Children that outlived the leader are still in the group; those
		// that left it are still in its tree.
		signalGroup(pgid, syscall.SIGKILL)
		s.endTree()
		if s.watchdog != nil {
			_ = s.watchdog.Process.Kill()
			unregisterLeader(s.watchdog.Process.Pid)
		}
		removePIDFiles(s.pidFiles)
		s.Log.Mark("stopped (%s)", exitText(s.waitErr))
		s.stopErr = s.Log.Close()
	})
	return s.stopErr
}

// endTree kills what is left of the engine's tree, and says so in the log.
func (s *Server) endTree() {
	if s.tree == nil {
		return
	}
	if l := s.tree.kill(); len(l) > 0 {
		s.leftovers = append(s.leftovers, l...)
		s.Log.Mark("killed %d process(es) the engine left running: %s", len(l), leftoversText(l))
	}
	s.tree.close()
}

// Leftovers are the processes of the engine's tree that were still
// running after it stopped, and were killed.
func (s *Server) Leftovers() []Leftover { return s.leftovers }

func signalGroup(pgid int, sig syscall.Signal) {
	if err := syscall.Kill(-pgid, sig); err != nil {
		// Not a group leader (should not happen): signal the process alone.
		syscall.Kill(pgid, sig)
	}
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
		}
		return ee.Error()
	}
	return err.Error()
}

// live holds every started and not yet stopped server, so that StopAll can
// clean up from a signal handler or a deferred path after a panic.
var live = struct {
	sync.Mutex
	m map[*Server]bool
}{m: map[*Server]bool{}}

func track(s *Server) {
	live.Lock()
	live.m[s] = true
	live.Unlock()
}

func untrack(s *Server) {
	live.Lock()
	delete(live.m, s)
	live.Unlock()
}

// StopAll stops every engine this process started and has not stopped yet.
func StopAll() {
	live.Lock()
	servers := make([]*Server, 0, len(live.m))
	for s := range live.m {
		servers = append(servers, s)
	}
	live.Unlock()
	for _, s := range servers {
		s.Stop()
	}
}

// KillAll sends SIGKILL to every live engine group at once, and to every
// tree RunTree runs, without waiting: for a second Ctrl-C.
func KillAll() {
	liveTrees.killAll()
	live.Lock()
	defer live.Unlock()
	for s := range live.m {
		s.kill()
	}
}
