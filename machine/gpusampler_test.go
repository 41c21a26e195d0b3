package machine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/internal/anonfile"
	"github.com/decodebench/decodebench/internal/execfile"
)

// The real output of `nvidia-smi --query-gpu=timestamp,… --format=csv
// -lms 200` on an H200 host (one header, then a line per sample): every
// line is a sample, stamped in local time, and a window keeps the samples
// inside it.
func TestGPUSamplerOnRealOutput(t *testing.T) {
	s, data, at := realSamples(t)
	rows := strings.Count(strings.TrimSpace(string(data)), "\n")
	// The fixture's samples run from 20:10:11.240, 200 ms apart.
	in, err := s.Window(at("2026/11/29 20:10:11.400"), at("2026/11/29 20:10:12.100"))
	if err != nil {
		t.Fatal(err)
	}
	if len(in) < 3 || len(in) > 4 {
		t.Fatalf("%d samples in 700 ms of a 200 ms sampler (fixture has %d)", len(in), rows)
	}
	g := in[0]
	if g.Index != 0 || g.SMClockMHz == nil || *g.SMClockMHz != 345 || g.TempC == nil || *g.TempC != 41 || g.PowerW == nil || *g.PowerW != 81.85 ||
		len(g.Reasons) != 1 || g.Reasons[0] != "gpu_idle" || g.At.Before(at("2026/11/29 20:10:11.400")) {
		t.Errorf("first sample in the window: %+v", g)
	}
	// Samples before the window are dropped once read.
	if again, _ := s.Window(at("2026/11/29 20:10:11.000"), at("2026/11/29 20:10:11.300")); len(again) != 0 {
		t.Errorf("an earlier window after a later one: %d samples", len(again))
	}
	if len(s.samples) == 0 || len(s.samples) >= rows {
		t.Errorf("%d samples kept of %d", len(s.samples), rows)
	}
}

// The sampler's process: started with the query the driver accepts,
// read after each window, ended by Stop. The nvidia-smi here is a script
// replaying the H200's real lines with fresh timestamps: there is no
// NVIDIA GPU on this machine (the H200 check ran the real one).
func TestGPUSamplerProcess(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/nvidia-h200-device/sampler/nvidia-smi-lms200.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	header, row := lines[0], lines[1]
	rest := row[strings.Index(row, ","):]
	script := "#!/bin/sh\n" +
		"case \"$*\" in *-lms*) ;; *) echo '" + header + "'; echo \"$(date '+%Y/%m/%d %H:%M:%S.000')" + rest + "\"; exit 0;; esac\n" +
		"echo '" + header + "'\n" +
		"while true; do echo \"$(date '+%Y/%m/%d %H:%M:%S.%N' | cut -c1-23)" + rest + "\"; sleep 0.2; done\n"
	bin := filepath.Join(dir, "nvidia-smi")
	if err := execfile.Write(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := startGPUSampler(context.Background(), bin, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Now()
	time.Sleep(700 * time.Millisecond)
	to := time.Now()
	in, err := s.Window(from, to)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) < 2 {
		t.Errorf("%d samples in 700 ms", len(in))
	}
	for _, g := range in {
		if g.At.Before(from.Truncate(time.Millisecond)) || g.At.After(to) || g.SMClockMHz == nil {
			t.Errorf("sample %+v outside [%v, %v]", g, from, to)
		}
	}
	if c := s.CPU(); c <= 0 {
		t.Errorf("sampler CPU %v", c)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if !s.stopped() {
		t.Error("sampler still running after Stop")
	}

	if _, err := startGPUSampler(context.Background(), filepath.Join(dir, "absent"), time.Second); err == nil || !isNotAvailable(err) {
		t.Errorf("missing nvidia-smi: %v", err)
	}
}

// realSamples is a sampler that has read the H200's real `nvidia-smi
// -lms 200` output (testdata) and ended, the output itself, and a parser
// of that output's local-time stamps.
func realSamples(t *testing.T) (*GPUSampler, []byte, func(string) time.Time) {
	t.Helper()
	data, err := os.ReadFile("testdata/nvidia-h200-device/sampler/nvidia-smi-lms200.csv")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(t.TempDir(), "lms")
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data)
	done := make(chan struct{})
	close(done)
	s := &GPUSampler{out: f, tsCol: -1, exited: done, interval: 200 * time.Millisecond}
	return s, data, func(v string) time.Time {
		x, err := time.ParseInLocation(nvidiaTimestamp, v, time.Local)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

// samplerOver is a sampler (ended) that has written data.
func samplerOver(t *testing.T, data []byte) *GPUSampler {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "lms")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	close(done)
	return &GPUSampler{out: f, tsCol: -1, exited: done, interval: 200 * time.Millisecond}
}

// A sampler line past MaxGPUSampleLine stops the sampler with an error
// naming the bound, read a chunk at a time: neither the line nor the
// error grows with it.
func TestGPUSamplerLineIsBounded(t *testing.T) {
	data, err := os.ReadFile("testdata/nvidia-h200-device/sampler/nvidia-smi-lms200.csv")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, strings.Repeat("x", 8<<20)...) // a line that never ends
	s := samplerOver(t, data)
	_, err = s.Window(time.Now().Add(-time.Hour), time.Now())
	if err == nil || !strings.Contains(err.Error(), "a line longer than 64 KiB") {
		t.Fatalf("Window = %.300v, want the line bound", err)
	}
	if len(err.Error()) > 512 || len(s.partial) > MaxGPUSampleLine {
		t.Errorf("error of %d bytes, %d bytes of line kept", len(err.Error()), len(s.partial))
	}
	if _, err2 := s.Window(time.Now(), time.Now()); err2 == nil {
		t.Error("a stopped sampler's next window has no error")
	}
}

// Past MaxGPUSamples between two windows the oldest samples are dropped,
// and a window that lost its own to that is refused rather than
// summarised from what is left.
func TestGPUSamplerSamplesAreBounded(t *testing.T) {
	data, err := os.ReadFile("testdata/nvidia-h200-device/sampler/nvidia-smi-lms200.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	header, row := lines[0], lines[1]
	rest := row[strings.Index(row, ","):]
	start := time.Date(2026, 11, 29, 20, 0, 0, 0, time.Local)
	var b strings.Builder
	b.WriteString(header + "\n")
	n := MaxGPUSamples + 1000
	for i := range n {
		b.WriteString(start.Add(time.Duration(i)*time.Millisecond).Format(nvidiaTimestamp) + rest + "\n")
	}
	s := samplerOver(t, []byte(b.String()))
	_, err = s.Window(start, start.Add(time.Duration(n)*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "were dropped") {
		t.Errorf("a window that lost its first samples: %v", err)
	}
	if len(s.samples) > MaxGPUSamples {
		t.Errorf("%d samples kept", len(s.samples))
	}
}

// What the sampler read is freed from its anonymous file (memory on
// Linux): a campaign's hours of samples are not all held.
func TestGPUSamplerFreesWhatItRead(t *testing.T) {
	f, err := anonfile.New("gpu-samples-test")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/nvidia-h200-device/sampler/nvidia-smi-lms200.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	header, row := lines[0], lines[1]
	rest := row[strings.Index(row, ","):]
	start := time.Date(2026, 11, 29, 20, 0, 0, 0, time.Local)
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range 40000 {
		b.WriteString(start.Add(time.Duration(i)*time.Millisecond).Format(nvidiaTimestamp) + rest + "\n")
	}
	f.WriteString(b.String())
	done := make(chan struct{})
	close(done)
	s := &GPUSampler{out: f, tsCol: -1, exited: done, interval: 200 * time.Millisecond}
	defer s.Stop()
	if _, err := s.Window(start, start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && st.Blocks*512 > 1<<20 {
		t.Errorf("the sampler's file still holds %d KiB of the %d KiB it read", st.Blocks*512>>10, b.Len()>>10)
	}
}
