package machine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/internal/capped"
	"github.com/decodebench/decodebench/schema"
)

// PowermetricsArgs are the arguments decodebench runs macOS powermetrics
// with: the CPU (with ANE) and GPU power samplers every
// EnergySampleInterval, line-buffered so each sample arrives when it is
// printed. They are fixed, so that a sudoers line can allow exactly this
// command and nothing else of powermetrics (its -o writes any file as
// root); docs/reference/host-telemetry.md gives the line.
var PowermetricsArgs = []string{"--samplers", "cpu_power,gpu_power", "-i", "200", "-b", "1"}

// Bounds on what decodebench reads from powermetrics, checked while
// reading: passing one stops the sampler (and kills it), and the windows
// after say which bound. The docs/reference/bounds-and-security.md states them.
const (
	// MaxPowermetricsLine bounds one line (a sample's longest, the
	// per-frequency residency list, is about 500 bytes).
	MaxPowermetricsLine = 64 << 10
	// MaxPowermetricsSample bounds one sample's text (about 3 KiB on an
	// M1 Max with both samplers).
	MaxPowermetricsSample = 1 << 20
	// MaxPowermetricsSamples is how many parsed samples are kept: the
	// samples of a measured window are read after it, and those of
	// earlier windows are dropped then; 16384 samples are 55 minutes at
	// 200 ms.
	MaxPowermetricsSamples = 1 << 14
	// maxPowermetricsStderr bounds what is kept of its standard error
	// (quoted when it fails to start).
	maxPowermetricsStderr = 4 << 10
)

// powermetricsAttr is how the sampler's process is started
// (powermetricsProcAttr); a test replaces it to start one as macOS does,
// without a parent-death signal.
var powermetricsAttr = powermetricsProcAttr

// powermetricsStartWait bounds how long StartPowermetrics waits for the
// first sample (or for sudo or powermetrics to refuse) before giving up.
const powermetricsStartWait = 5 * time.Second

// Why powermetrics could not be run; each is wrapped by the error
// StartPowermetrics returns, with the tool's own words where it gave any.
var (
	ErrPowermetricsAbsent = errors.New("powermetrics is not on PATH")
	ErrNotRootNoSudo      = errors.New("decodebench is not root and sudo is not on PATH")
	ErrSudoRefused        = errors.New("decodebench is not root and `sudo -n` refused to run powermetrics without a password")
)

// PowermetricsCommand is the command line that runs powermetrics for a
// campaign: powermetrics itself when decodebench runs as root (euid 0),
// else through `sudo -n`, which never prompts: it runs powermetrics only
// where sudoers lets this user without a password, and otherwise fails
// at once. look finds a program on PATH (exec.LookPath).
func PowermetricsCommand(euid int, look func(string) (string, error)) ([]string, error) {
	pm, err := look("powermetrics")
	if err != nil {
		return nil, ErrPowermetricsAbsent
	}
	if euid == 0 {
		return append([]string{pm}, PowermetricsArgs...), nil
	}
	sudo, err := look("sudo")
	if err != nil {
		return nil, ErrNotRootNoSudo
	}
	return append([]string{sudo, "-n", pm}, PowermetricsArgs...), nil
}

// PowermetricsSampler runs powermetrics for a campaign and keeps its
// samples, so that each measured window's energy is integrated from the
// samples inside it. Its process (and whatever it started: sudo's child)
// runs in a session of its own and is ended on every path by which the
// sampler ends: Stop, a bound passed, a start that failed. Its standard
// output is a pipe only decodebench reads, so a decodebench killed
// outright leaves powermetrics writing into a closed pipe: SIGPIPE ends it
// at its next sample.
type PowermetricsSampler struct {
	cmd      *exec.Cmd
	stdout   *os.File
	stderr   *capped.Buffer
	interval time.Duration
	// now stamps each sample as it arrives: powermetrics' own header
	// time has one-second resolution.
	now func() time.Time

	mu      sync.Mutex
	samples []PowermetricsSample
	// lostUntil is the end of the newest sample dropped to the
	// MaxPowermetricsSamples bound (zero when none was).
	lostUntil time.Time
	// err is why reading stopped: a bound passed, output that is not
	// powermetrics', or the process's end.
	err    error
	first  chan struct{} // closed at the first sample
	done   chan struct{} // closed when reading stopped
	exited chan struct{} // closed when the process was reaped
	stop   sync.Once
	once   sync.Once // closes first
	// maxSamples is MaxPowermetricsSamples; tests lower it.
	maxSamples int
}

// StartPowermetrics starts powermetrics for the campaign (as root, or
// through `sudo -n`) and waits for its first sample. An error says why it
// cannot run: powermetrics absent, not root and sudo refused, or
// powermetrics' own complaint.
func StartPowermetrics() (*PowermetricsSampler, error) {
	argv, err := PowermetricsCommand(os.Geteuid(), exec.LookPath)
	if err != nil {
		return nil, err
	}
	return startPowermetrics(argv, EnergySampleInterval, powermetricsStartWait)
}

// startPowermetrics runs argv (powermetrics, or a test's stand-in) and
// waits up to wait for its first sample.
func startPowermetrics(argv []string, interval, wait time.Duration) (*PowermetricsSampler, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = w
	s := &PowermetricsSampler{cmd: cmd, stdout: r, stderr: &capped.Buffer{Max: maxPowermetricsStderr}, interval: interval, now: time.Now,
		first: make(chan struct{}), done: make(chan struct{}), exited: make(chan struct{}), maxSamples: MaxPowermetricsSamples}
	cmd.Stderr = s.stderr
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = powermetricsAttr()
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("start powermetrics: %w", err)
	}
	w.Close()
	go func() { cmd.Wait(); close(s.exited) }()
	go s.readLoop()
	timedOut := false
	select {
	case <-s.first:
		return s, nil
	case <-s.done:
	case <-time.After(wait):
		timedOut = true
	}
	s.Stop()
	return nil, s.startError(wait, timedOut)
}

// startError says why no sample came.
func (s *PowermetricsSampler) startError(wait time.Duration, timedOut bool) error {
	said := strings.TrimSpace(s.stderr.String())
	quote := ""
	if said != "" {
		quote = " (" + quoteLine(said) + ")"
	}
	s.mu.Lock()
	readErr := s.err
	s.mu.Unlock()
	switch {
	case strings.Contains(said, "password is required") || strings.Contains(said, "terminal is required") || strings.Contains(said, "not allowed to execute") || strings.Contains(said, "may not run sudo"):
		return fmt.Errorf("%w%s", ErrSudoRefused, quote)
	case timedOut:
		return fmt.Errorf("powermetrics printed no sample within %v%s", wait, quote)
	case readErr != nil && !errors.Is(readErr, io.EOF) && !errors.Is(readErr, os.ErrClosed):
		return fmt.Errorf("powermetrics: %w", readErr)
	default:
		return fmt.Errorf("powermetrics exited before its first sample: %s%s", s.cmd.ProcessState, quote)
	}
}

func (s *PowermetricsSampler) exitedNow() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// readLoop reads powermetrics' output line by line, each line and each
// sample within its bound, and keeps each sample once it is whole: at
// the gpu_power sampler's "GPU Power" line (its last), or at the next
// sample's header for output without one. A partial last line (the
// process killed mid-line) and an unfinished last sample are dropped.
func (s *PowermetricsSampler) readLoop() {
	defer close(s.done)
	br := bufio.NewReaderSize(s.stdout, MaxPowermetricsLine)
	var block bytes.Buffer
	var at time.Time
	inSample, inGPU := false, false
	finish := func() error {
		if !inSample {
			return nil
		}
		inSample, inGPU = false, false
		ss, err := ParsePowermetrics(block.String())
		block.Reset()
		if err != nil {
			return errors.New(quoteLine(err.Error())) // it quotes the line
		}
		if len(ss) != 1 {
			return fmt.Errorf("%d samples in one sample's text", len(ss))
		}
		ss[0].At = at
		s.keep(ss[0])
		return nil
	}
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			s.fail(fmt.Errorf("a line longer than %d KiB: %w (see docs/reference/bounds-and-security.md)", MaxPowermetricsLine>>10, errTooLarge))
			return
		}
		if err != nil {
			// io.EOF (a partial line is dropped) or the pipe closed by Stop.
			s.fail(fmt.Errorf("its output ended: %w", err))
			return
		}
		text := strings.TrimSpace(string(line))
		if strings.HasPrefix(text, "*** Sampled system activity (") {
			if err := finish(); err != nil {
				s.fail(err)
				return
			}
			inSample, at = true, s.now()
		}
		if !inSample {
			continue // the machine and boot lines before the first sample
		}
		if block.Len()+len(line) > MaxPowermetricsSample {
			s.fail(fmt.Errorf("a sample longer than %d MiB: %w (see docs/reference/bounds-and-security.md)", MaxPowermetricsSample>>20, errTooLarge))
			return
		}
		block.Write(line)
		switch {
		case text == "**** GPU usage ****":
			inGPU = true
		case inGPU && strings.HasPrefix(text, "GPU Power:"):
			if err := finish(); err != nil {
				s.fail(err)
				return
			}
		}
	}
}

// errTooLarge marks a bound passed.
var errTooLarge = errors.New("larger than decodebench accepts")

// keep adds a sample, dropping the oldest past maxSamples.
func (s *PowermetricsSampler) keep(p PowermetricsSample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.samples) >= s.maxSamples {
		s.lostUntil = s.samples[0].At
		s.samples = append(s.samples[:0], s.samples[1:]...)
	}
	s.samples = append(s.samples, p)
	s.once.Do(func() { close(s.first) })
}

// fail records why reading stopped; a bound passed or output that is not
// powermetrics' also ends the process (its samples could not be read).
func (s *PowermetricsSampler) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
		go s.Stop()
	}
}

// Window is the energy of the measured window [from, to] from the
// samples that overlap it (PowermetricsEnergy). powermetrics prints each
// sample as it ends; Window waits up to two intervals (and a second) for
// one that ends after to, so that the window's end is covered. Samples
// that ended before to are dropped: windows come in order.
func (s *PowermetricsSampler) Window(from, to time.Time) *schema.Energy {
	deadline := time.Now().Add(2*s.interval + time.Second)
	for {
		s.mu.Lock()
		covered := len(s.samples) > 0 && !s.samples[len(s.samples)-1].At.Before(to)
		s.mu.Unlock()
		if covered || time.Now().After(deadline) || s.stoppedReading() {
			break
		}
		time.Sleep(s.interval / 10)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in := append([]PowermetricsSample(nil), s.samples...)
	keep := s.samples[:0]
	for _, p := range s.samples {
		if !p.At.Before(to) {
			keep = append(keep, p)
		}
	}
	s.samples = keep
	if !s.lostUntil.IsZero() && s.lostUntil.After(from) {
		return &schema.Energy{Unavailable: fmt.Sprintf("powermetrics: the window's first samples were dropped (decodebench keeps the last %d)", s.maxSamples)}
	}
	e := PowermetricsEnergy(in, from, to)
	if e.Unavailable != "" && s.err != nil {
		e.Unavailable += fmt.Sprintf("; powermetrics stopped: %v", s.err)
	}
	return e
}

func (s *PowermetricsSampler) stoppedReading() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Stop ends powermetrics and its session: SIGTERM (sudo passes it on to
// powermetrics), SIGKILL after two seconds, and closes its output, so
// that a powermetrics decodebench may not signal (sudo's child, root's)
// dies of SIGPIPE at its next sample. It waits a bounded time for the
// process to be reaped, never longer.
func (s *PowermetricsSampler) Stop() {
	s.stop.Do(func() {
		pid := s.cmd.Process.Pid
		if !s.exitedNow() {
			syscall.Kill(-pid, syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(2 * time.Second):
			}
		}
		// Whatever is left of its session (a child that ignored SIGTERM).
		syscall.Kill(-pid, syscall.SIGKILL)
		s.stdout.Close()
		select {
		case <-s.exited:
		case <-time.After(3 * time.Second):
		}
		<-s.done
	})
}

// quoteLine is a tool's complaint for an error: its first line, at most
// 256 bytes.
func quoteLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	if len(l) > 256 {
		l = l[:256] + "…"
	}
	return strings.TrimSpace(l)
}
