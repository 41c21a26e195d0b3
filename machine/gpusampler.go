package machine

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/internal/anonfile"
	"github.com/decodebench/decodebench/schema"
)

// GPUSampler samples every NVIDIA GPU throughout a campaign, so that each
// measured window has the GPU's clocks, temperature, power, utilisation and
// clock-event reasons from inside it, not only around it. One long-lived
// `nvidia-smi --query-gpu=timestamp,… --format=csv -lms N` writes a line
// per GPU per interval into an anonymous file; decodebench reads it after
// each window and keeps the samples stamped inside it. Nothing wakes
// decodebench while the engine runs; nvidia-smi's own CPU (about 10 ms a
// sample on an H200 host with the full query, measured) is read from
// /proc and counted in the footprint.
type GPUSampler struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	out *os.File
	off int64
	// punched is how much of out was freed once read (anonfile.PunchHole).
	punched int64
	partial string
	header  string
	tsCol   int
	samples []GPUSample
	// lostUntil is the stamp of the newest sample dropped to keep
	// MaxGPUSamples; a window from before it lost samples.
	lostUntil time.Time
	// failed is why the sampler was stopped (a bound passed).
	failed   error
	exited   chan struct{}
	interval time.Duration
}

// Bounds on what decodebench reads from the nvidia-smi sampler, checked
// while reading, docs/reference/bounds-and-security.md states them: a line past
// MaxGPUSampleLine stops the sampler (and kills it), and the windows
// after say which bound; past MaxGPUSamples kept, the oldest are dropped,
// and a window that lost its samples to that is refused.
const (
	// MaxGPUSampleLine bounds one line (a sample's is about 150 bytes).
	MaxGPUSampleLine = 64 << 10
	// MaxGPUSamples is how many parsed samples are kept between two
	// windows: 4.5 hours of 8 GPUs at the default interval.
	MaxGPUSamples = 1 << 17
)

// GPUSample is one GPU's state at one instant.
type GPUSample struct {
	At time.Time
	GPUConditions
}

// gpuSampleFields is what the sampler asks for: the state that moves
// during a window. Identity (name, uuid, driver, limits) is read once,
// around the runs.
const gpuSampleFields = "timestamp,index,clocks.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu,memory.used,clocks_event_reasons.active"

// nvidiaTimestamp is nvidia-smi's timestamp, in the machine's local time.
const nvidiaTimestamp = "2006/01/02 15:04:05.000"

// DefaultGPUSampleInterval is how often the sampler samples: every
// measured window of a second or more gets a sample.
const DefaultGPUSampleInterval = time.Second

// StartGPUSampler starts sampling every interval. Without nvidia-smi it
// returns an error wrapping errNotAvailable; a driver that refuses the
// query is an error too (its words quoted), and the campaign goes on
// without in-window samples.
func StartGPUSampler(ctx context.Context, interval time.Duration) (*GPUSampler, error) {
	return startGPUSampler(ctx, "nvidia-smi", interval)
}

func startGPUSampler(ctx context.Context, bin string, interval time.Duration) (*GPUSampler, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", bin, errNotAvailable)
	}
	fields := gpuSampleFields
	// Drivers before the clock "event" naming (535) know only the
	// throttle spelling: a one-shot query finds out which this one takes.
	if _, err := runTool(ctx, path, "--query-gpu="+fields, "--format=csv"); err != nil {
		fields = strings.Replace(fields, "clocks_event_reasons", "clocks_throttle_reasons", 1)
		if _, err2 := runTool(ctx, path, "--query-gpu="+fields, "--format=csv"); err2 != nil {
			return nil, fmt.Errorf("nvidia-smi query: %w", err)
		}
	}
	out, err := anonfile.New("gpu-samples")
	if err != nil {
		return nil, err
	}
	ms := max(interval.Milliseconds(), 100)
	cmd := exec.Command(path, "--query-gpu="+fields, "--format=csv", "-lms", strconv.FormatInt(ms, 10))
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = samplerProcAttr()
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("start nvidia-smi sampler: %w", err)
	}
	s := &GPUSampler{cmd: cmd, out: out, tsCol: -1, exited: make(chan struct{}), interval: time.Duration(ms) * time.Millisecond}
	go func() { cmd.Wait(); close(s.exited) }()
	return s, nil
}

// CPU is the sampler process's CPU time so far (every thread, from
// /proc/PID/task/*/schedstat, in nanoseconds); -1 where it cannot be read.
func (s *GPUSampler) CPU() time.Duration {
	return processCPU(s.cmd.Process.Pid)
}

// processCPU sums the run time of every thread of a process on Linux.
func processCPU(pid int) time.Duration {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return -1
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return -1
		}
		sum += n
	}
	return time.Duration(sum)
}

// Window returns each GPU's samples stamped between from and to. The
// sampler writes each line as it samples; Window waits up to one interval
// (and a little) for a sample stamped after to, so that the window's last
// sample is not missed. Samples before from are dropped: windows come in
// order.
func (s *GPUSampler) Window(from, to time.Time) ([]GPUSample, error) {
	deadline := time.Now().Add(s.interval + 500*time.Millisecond)
	for {
		if err := s.read(); err != nil {
			return nil, err
		}
		s.mu.Lock()
		done := len(s.samples) > 0 && !s.samples[len(s.samples)-1].At.Before(to)
		s.mu.Unlock()
		if done || time.Now().After(deadline) || s.stopped() {
			break
		}
		time.Sleep(s.interval / 10)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var in []GPUSample
	keep := s.samples[:0]
	for _, g := range s.samples {
		if !g.At.Before(from) && !g.At.After(to) {
			in = append(in, g)
		}
		if !g.At.Before(to) {
			keep = append(keep, g)
		}
	}
	s.samples = keep
	if !s.lostUntil.IsZero() && !s.lostUntil.Before(from) {
		return nil, fmt.Errorf("nvidia-smi sampler: more than %d samples since the last window; the oldest, this window's among them, were dropped", MaxGPUSamples)
	}
	if len(in) == 0 && s.stopped() {
		return nil, fmt.Errorf("nvidia-smi sampler exited: %s", quoteLine(s.partial))
	}
	return in, nil
}

func (s *GPUSampler) stopped() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// read parses what the sampler wrote since the last call, a chunk at a
// time: what it keeps is bounded (MaxGPUSampleLine, MaxGPUSamples)
// however much the sampler wrote.
func (s *GPUSampler) read() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed != nil {
		return s.failed
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := s.out.ReadAt(buf, s.off)
		s.off += int64(n)
		if perr := s.consume(buf[:n]); perr != nil {
			return perr
		}
		if err == io.EOF || n < len(buf) {
			break
		}
		if err != nil {
			return err
		}
	}
	// What was read is freed: the anonymous file (memory on Linux) holds
	// only what was not read yet.
	if s.off-s.punched >= 1<<20 && anonfile.PunchHole(s.out, s.off) == nil {
		s.punched = s.off
	}
	return nil
}

// consume parses the whole lines of chunk (after what was left of the
// last one).
func (s *GPUSampler) consume(chunk []byte) error {
	lines := strings.Split(s.partial+string(chunk), "\n")
	s.partial = lines[len(lines)-1]
	if len(s.partial) > MaxGPUSampleLine {
		s.partial = ""
		return s.fail(fmt.Errorf("nvidia-smi sampler: a line longer than %d KiB, the most decodebench reads; the sampler was stopped (see docs/reference/bounds-and-security.md)", MaxGPUSampleLine>>10))
	}
	for _, line := range lines[:len(lines)-1] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if s.header == "" || line == s.header {
			if s.header == "" {
				if err := s.takeHeader(line); err != nil {
					return err
				}
			}
			continue
		}
		g, err := s.parseRow(line)
		if err != nil {
			return err
		}
		if len(s.samples) >= MaxGPUSamples {
			drop := len(s.samples) - MaxGPUSamples + 1
			s.lostUntil = s.samples[drop-1].At
			s.samples = append(s.samples[:0], s.samples[drop:]...)
		}
		s.samples = append(s.samples, g)
	}
	return nil
}

// fail stops the sampler for err, which every later read returns.
func (s *GPUSampler) fail(err error) error {
	s.failed = err
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
	return err
}

func (s *GPUSampler) takeHeader(line string) error {
	for i, h := range strings.Split(line, ",") {
		if strings.TrimSpace(h) == "timestamp" {
			s.tsCol = i
		}
	}
	if s.tsCol < 0 {
		return fmt.Errorf("nvidia-smi sampler: header has no timestamp column: %q", quoteLine(line))
	}
	s.header = line
	return nil
}

// parseRow reads one sample line against the header.
func (s *GPUSampler) parseRow(line string) (GPUSample, error) {
	gs, err := ParseNvidiaConditions([]byte(s.header + "\n" + line + "\n"))
	if err != nil {
		return GPUSample{}, fmt.Errorf("nvidia-smi sampler: %w", err)
	}
	if len(gs) != 1 {
		return GPUSample{}, fmt.Errorf("nvidia-smi sampler: %q is not one sample", quoteLine(line))
	}
	f := strings.Split(line, ",")
	at, err := time.ParseInLocation(nvidiaTimestamp, strings.TrimSpace(f[s.tsCol]), time.Local)
	if err != nil {
		return GPUSample{}, fmt.Errorf("nvidia-smi sampler: timestamp %q is not one (%s)", quoteLine(f[s.tsCol]), nvidiaTimestamp)
	}
	return GPUSample{At: at, GPUConditions: gs[0]}, nil
}

// Stop ends the sampler.
func (s *GPUSampler) Stop() error {
	if !s.stopped() {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(2 * time.Second):
			s.cmd.Process.Kill()
			<-s.exited
		}
	}
	return s.out.Close()
}

// WindowSummary summarises each GPU's samples stamped between from and to,
// in index order, with the warnings (thermal or power capping in any
// sample) they raise, and integrates their power into the window's energy
// (GPUEnergy).
func (s *GPUSampler) WindowSummary(from, to time.Time) (*schema.GPUWindow, *schema.Energy) {
	samples, err := s.Window(from, to)
	energy := GPUEnergy(samples, from, to, s.interval)
	if err != nil {
		energy = &schema.Energy{Unavailable: err.Error()}
	}
	out := &schema.GPUWindow{IntervalS: s.interval.Seconds()}
	at := map[int]int{}
	for _, g := range samples {
		i, ok := at[g.Index]
		if !ok {
			i = len(out.GPUs)
			at[g.Index] = i
			out.GPUs = append(out.GPUs, schema.GPUWindowState{Index: g.Index})
		}
		w := &out.GPUs[i]
		w.Samples++
		minOf(&w.SMClockMinMHz, g.SMClockMHz)
		maxOf(&w.SMClockMaxMHz, g.SMClockMHz)
		maxOf(&w.TempMaxC, g.TempC)
		maxOf(&w.PowerMaxW, g.PowerW)
		maxOf(&w.UtilMaxPct, g.UtilPct)
		maxOf(&w.MemUsedMaxMiB, g.MemUsedMiB)
		for _, r := range g.Reasons {
			if !slices.Contains(w.Reasons, r) {
				w.Reasons = append(w.Reasons, r)
			}
		}
	}
	slices.SortFunc(out.GPUs, func(a, b schema.GPUWindowState) int { return a.Index - b.Index })
	var c Conditions
	for _, w := range out.GPUs {
		c.GPUs = append(c.GPUs, GPUConditions{Index: w.Index, Reasons: w.Reasons})
	}
	out.Warnings = hostWarnings(c.Warnings())
	switch {
	case err != nil:
		out.Unavailable = err.Error()
	case len(samples) == 0:
		out.Unavailable = "no sample fell inside the window (shorter than the sampling interval)"
	}
	return out, energy
}

func minOf(dst **float64, v *float64) {
	if v != nil && (*dst == nil || *v < **dst) {
		x := *v
		*dst = &x
	}
}

func maxOf(dst **float64, v *float64) {
	if v != nil && (*dst == nil || *v > **dst) {
		x := *v
		*dst = &x
	}
}
