package machine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// The fixtures: a real powermetrics preamble (machine and boot lines)
// and a real whole gpu_power sample (its header to its "GPU Power" line).
const (
	pmPreamble = "testdata/macos/powermetrics-cpu_power.m1max-mbp18-4-macos14.excerpt.txt"
	pmSample   = "testdata/macos/powermetrics-gpu_power.m1pro-14gpu-on-battery.txt"
)

// fakePowermetrics writes a shell script that stands in for powermetrics
// (the data source's framing and failures are under test; the text it
// prints is real output) and returns its command line. The script's body
// gets $PRE (the preamble file), $SAMPLE (a sample file) and $PIDFILE.
func fakePowermetrics(t *testing.T, body string) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	sample, _ := filepath.Abs(pmSample)
	pidfile := filepath.Join(dir, "pid")
	head, _, _ := strings.Cut(readFixture(t, pmPreamble), "*** Sampled")
	if err := os.WriteFile(filepath.Join(dir, "preamble"), []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\nPRE=%q\nSAMPLE=%q\nPIDFILE=%q\necho $$ > \"$PIDFILE\"\n%s\n", filepath.Join(dir, "preamble"), sample, pidfile, body)
	path := filepath.Join(dir, "powermetrics")
	if err := execfile.Write(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{path}, pidfile
}

func readFixture(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// groupGone waits up to d for every process of the group led by the
// pid in pidfile to be gone (a zombie left to a container's init that
// does not reap counts as gone: it runs nothing).
func groupGone(t *testing.T, pidfile string, d time.Duration) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the fake never ran: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(d)
	for {
		live := liveInGroup(pid)
		if len(live) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("powermetrics' process group %d still runs %v %v later", pid, live, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// liveInGroup lists the processes of group pgid that are not zombies.
func liveInGroup(pgid int) []string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var live []string
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, rest, ok := strings.Cut(string(b), ") ")
		f := strings.Fields(rest)
		if !ok || len(f) < 3 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" {
			continue
		}
		live = append(live, p)
	}
	if len(stats) == 0 && !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
		live = append(live, "pgid "+strconv.Itoa(pgid)) // no /proc (macOS)
	}
	return live
}

// A sample every 100 ms: the window's energy is the samples' power over
// the window, named as powermetrics', and nothing is left running after
// Stop.
func TestPowermetricsSamplerWindow(t *testing.T) {
	argv, pidfile := fakePowermetrics(t, `cat "$PRE"; while :; do cat "$SAMPLE"; sleep 0.1; done`)
	s, err := startPowermetrics(argv, 100*time.Millisecond, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Now()
	time.Sleep(1200 * time.Millisecond)
	to := time.Now()
	e := s.Window(from, to)
	if e.Unavailable != "" || e.Source != "powermetrics" || e.Samples < MinEnergySamples || strings.Join(e.Coverage, ",") != "gpu" || e.IntervalS != 0.508 {
		t.Fatalf("energy %+v", e)
	}
	// The fixture's GPU drew 14 mW throughout.
	if want := 0.014 * to.Sub(from).Seconds(); e.Joules < want*0.999 || e.Joules > want*1.001 {
		t.Errorf("%g J, want %g", e.Joules, want)
	}
	// Samples that ended before the window's end are dropped once read.
	s.mu.Lock()
	for _, p := range s.samples {
		if p.At.Before(to) {
			t.Errorf("sample at %v kept after the window ending %v", p.At, to)
		}
	}
	s.mu.Unlock()
	s.Stop()
	groupGone(t, pidfile, time.Second)
	s.Stop() // twice is harmless
}

// A window with fewer samples than MinEnergySamples is refused, saying
// how many it had.
func TestPowermetricsSamplerTooFewSamples(t *testing.T) {
	argv, pidfile := fakePowermetrics(t, `while :; do cat "$SAMPLE"; sleep 0.3; done`)
	s, err := startPowermetrics(argv, 300*time.Millisecond, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Stop(); groupGone(t, pidfile, time.Second) }()
	from := time.Now()
	time.Sleep(700 * time.Millisecond)
	e := s.Window(from, time.Now())
	if e.Joules != 0 || !strings.Contains(e.Unavailable, "powermetrics sample(s) inside the") || !strings.Contains(e.Unavailable, "at least 5 needed") {
		t.Errorf("energy %+v", e)
	}
}

// powermetrics killed mid-line: the samples printed whole are kept, the
// cut one is not, and the windows after say that its output ended.
func TestPowermetricsSamplerKilledMidLine(t *testing.T) {
	argv, pidfile := fakePowermetrics(t, `for i in 1 2 3 4 5 6; do cat "$SAMPLE"; done; head -c 200 "$SAMPLE"; printf 'GPU Power: 1'; kill -9 $$`)
	s, err := startPowermetrics(argv, 100*time.Millisecond, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the output's end was not seen")
	}
	s.mu.Lock()
	n, readErr := len(s.samples), s.err
	for _, p := range s.samples {
		if p.Watts["gpu"] != 0.014 {
			t.Errorf("a sample %+v", p)
		}
	}
	s.mu.Unlock()
	if n != 6 || readErr == nil || !strings.Contains(readErr.Error(), "output ended") {
		t.Fatalf("%d samples kept, reading stopped by %v", n, readErr)
	}
	// A window after it stopped: too few samples, and why.
	e := s.Window(time.Now(), time.Now().Add(time.Second))
	if !strings.Contains(e.Unavailable, "only 0 powermetrics sample(s)") || !strings.Contains(e.Unavailable, "powermetrics stopped: its output ended") {
		t.Errorf("energy %+v", e)
	}
	groupGone(t, pidfile, time.Second)
}

// Output past a bound (one endless line; one sample of endless lines), or
// output that is not powermetrics', stops the sampler and ends
// powermetrics; the windows say why.
func TestPowermetricsSamplerFlood(t *testing.T) {
	tooLarge := "larger than decodebench accepts"
	for _, tc := range []struct{ name, body, why, also string }{
		{"line", `cat "$SAMPLE"; head -c 1 "$SAMPLE"; while :; do printf 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done`, "a line longer than 64 KiB", tooLarge},
		{"sample", `cat "$SAMPLE"; head -n 1 "$SAMPLE"; yes 'CPU 0 frequency: 1608 MHz'`, "a sample longer than 1 MiB", tooLarge},
		{"not powermetrics", `cat "$SAMPLE"; while :; do echo '*** Sampled system activity (yesterday) (5 ms elapsed) ***'; echo 'GPU Power: 1 W'; sleep 0.05; done`, "powermetrics: sample time", "powermetrics stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv, pidfile := fakePowermetrics(t, tc.body)
			s, err := startPowermetrics(argv, 100*time.Millisecond, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			groupGone(t, pidfile, 5*time.Second)
			<-s.done
			e := s.Window(time.Now(), time.Now().Add(time.Second))
			if !strings.Contains(e.Unavailable, tc.why) || !strings.Contains(e.Unavailable, tc.also) || len(e.Unavailable) > 600 {
				t.Errorf("energy %+v", e)
			}
		})
	}
}

// Why powermetrics could not run: sudo would have prompted, powermetrics
// refused without root, or no sample came (the process is ended then).
func TestPowermetricsStartFailures(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		is         error
		says       string
	}{
		{"sudo refused", `echo 'sudo: a password is required' >&2; exit 1`, ErrSudoRefused, "(sudo: a password is required)"},
		{"not root", `echo 'powermetrics must be invoked as the superuser' >&2; exit 1`, nil, "exited before its first sample: exit status 1 (powermetrics must be invoked as the superuser)"},
		{"silent", `cat "$PRE"; sleep 30`, nil, "printed no sample within 300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv, pidfile := fakePowermetrics(t, tc.body)
			s, err := startPowermetrics(argv, 100*time.Millisecond, 300*time.Millisecond)
			if s != nil || err == nil || !strings.Contains(err.Error(), tc.says) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("sampler %v, error %v", s, err)
			}
			groupGone(t, pidfile, time.Second)
		})
	}
}

// powermetrics itself as root; through `sudo -n` (never a prompt)
// otherwise; absent, or no sudo, is said.
func TestPowermetricsCommand(t *testing.T) {
	look := func(have ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, h := range have {
				if h == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	args := strings.Join(PowermetricsArgs, " ")
	for _, tc := range []struct {
		euid int
		have []string
		want string
		err  error
	}{
		{0, []string{"powermetrics", "sudo"}, "/usr/bin/powermetrics " + args, nil},
		{501, []string{"powermetrics", "sudo"}, "/usr/bin/sudo -n /usr/bin/powermetrics " + args, nil},
		{501, []string{"sudo"}, "", ErrPowermetricsAbsent},
		{0, nil, "", ErrPowermetricsAbsent},
		{501, []string{"powermetrics"}, "", ErrNotRootNoSudo},
	} {
		argv, err := PowermetricsCommand(tc.euid, look(tc.have...))
		if strings.Join(argv, " ") != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("euid %d with %v: %q, %v", tc.euid, tc.have, argv, err)
		}
	}
	if args != "--samplers cpu_power,gpu_power -i 200 -b 1" || EnergySampleInterval != 200*time.Millisecond {
		t.Errorf("the sudoers line of docs/reference/host-telemetry.md pins %q every %v", args, EnergySampleInterval)
	}
	// The documented line allows exactly these arguments (sudoers
	// escapes the comma), and the command to check it runs them.
	doc, err := os.ReadFile("../docs/reference/host-telemetry.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"NOPASSWD: /usr/bin/powermetrics " + strings.ReplaceAll(args, ",", `\,`) + "\n",
		"/usr/bin/powermetrics " + args + "`",
	} {
		if !strings.Contains(strings.ReplaceAll(string(doc), "\n/usr/bin", " /usr/bin"), want) {
			t.Errorf("docs/reference/host-telemetry.md does not give %q", want)
		}
	}
}

// The kept samples are bounded: a window whose first samples were dropped
// says so rather than integrate what is left.
func TestPowermetricsSamplerRing(t *testing.T) {
	s := &PowermetricsSampler{interval: 100 * time.Millisecond, maxSamples: 3, first: make(chan struct{}), done: make(chan struct{})}
	close(s.done)
	t0 := time.Unix(1000, 0)
	for i := 1; i <= 8; i++ {
		s.keep(PowermetricsSample{At: t0.Add(time.Duration(i) * 100 * time.Millisecond), Elapsed: 100 * time.Millisecond, Watts: map[string]float64{"gpu": 1}})
	}
	if len(s.samples) != 3 {
		t.Fatalf("%d samples kept", len(s.samples))
	}
	if e := s.Window(t0, t0.Add(800*time.Millisecond)); !strings.Contains(e.Unavailable, "were dropped (decodebench keeps the last 3)") {
		t.Errorf("energy %+v", e)
	}
}

// A decodebench killed outright (SIGKILL, no parent-death signal as on
// macOS) leaves powermetrics writing into a pipe nobody reads: it dies of
// SIGPIPE at its next sample.
func TestPowermetricsOutlivesNoKilledParent(t *testing.T) {
	if os.Getenv("DECODEBENCH_PM_HELPER") != "" {
		powermetricsAttr = func() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
		argv := strings.Split(os.Getenv("DECODEBENCH_PM_HELPER"), "\x00")
		if _, err := startPowermetrics(argv, 100*time.Millisecond, 5*time.Second); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("started")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	// The shell writes each sample itself (printf is built in), as
	// powermetrics does, so SIGPIPE reaches it.
	argv, pidfile := fakePowermetrics(t, `S=$(cat "$SAMPLE"); while :; do printf '%s\n' "$S"; sleep 0.1; done`)
	cmd := exec.Command(os.Args[0], "-test.run=^TestPowermetricsOutlivesNoKilledParent$")
	cmd.Env = append(os.Environ(), "DECODEBENCH_PM_HELPER="+strings.Join(argv, "\x00"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "started") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %q", buf[:n])
	}
	cmd.Process.Kill()
	cmd.Wait()
	groupGone(t, pidfile, 3*time.Second)
}

// Output without a gpu_power section (cpu_power alone, as older macOS
// prints it per cluster): each sample is whole at the next one's header.
func TestPowermetricsSamplerCPUOnly(t *testing.T) {
	argv, pidfile := fakePowermetrics(t, `while :; do cat testdata/macos/powermetrics-cpu_power.m2-air-mac14-2-macos12.excerpt.txt; sleep 0.1; done`)
	s, err := startPowermetrics(argv, 100*time.Millisecond, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Stop(); groupGone(t, pidfile, time.Second) }()
	from := time.Now()
	time.Sleep(time.Second)
	e := s.Window(from, time.Now())
	if e.Unavailable != "" || strings.Join(e.Coverage, ",") != "cpu" || e.Samples < MinEnergySamples {
		t.Fatalf("energy %+v", e)
	}
}

// BenchmarkPowermetricsRead is decodebench's own cost of one powermetrics
// sample (the real gpu_power sample's text through a pipe, framed,
// parsed and kept): what the reader spends inside a measured window per
// sample, five times a second.
func BenchmarkPowermetricsRead(b *testing.B) {
	sample, err := os.ReadFile(pmSample)
	if err != nil {
		b.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	s := &PowermetricsSampler{stdout: r, now: time.Now, maxSamples: MaxPowermetricsSamples, first: make(chan struct{}), done: make(chan struct{})}
	go s.readLoop()
	b.SetBytes(int64(len(sample)))
	b.ResetTimer()
	for range b.N {
		w.Write(sample)
	}
	w.Close()
	<-s.done
	if len(s.samples) != min(b.N, MaxPowermetricsSamples) {
		b.Fatalf("%d samples kept of %d", len(s.samples), b.N)
	}
}
