package machine

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Energy from the H200's real in-window samples (nvidia-smi -lms 200, an
// idle GPU at about 81.8 W): the integral over a 3.7 s window is about
// 81.8 W × 3.7 s, from 18 samples; a 0.7 s window holds 3 and is refused.
func TestGPUEnergyOnRealSamples(t *testing.T) {
	s, _, at := realSamples(t)
	from, to := at("2026/11/29 20:10:11.300"), at("2026/11/29 20:10:15.000")
	in, err := s.Window(from, to)
	if err != nil {
		t.Fatal(err)
	}
	e := GPUEnergy(in, from, to, s.interval)
	if e.Unavailable != "" || e.Source != schema.EnergyNvidiaSMI || len(e.Coverage) != 1 || e.Coverage[0] != "gpu" {
		t.Fatalf("energy %+v", e)
	}
	if e.Samples != 18 || e.IntervalS != 0.2 || math.Abs(e.WindowS-3.7) > 1e-9 {
		t.Errorf("samples %d, interval %g, window %g", e.Samples, e.IntervalS, e.WindowS)
	}
	if math.Abs(e.Joules-81.84*3.7) > 0.2 {
		t.Errorf("%.3f J, want about %.3f", e.Joules, 81.84*3.7)
	}
	short := GPUEnergy(in, from, from.Add(700*time.Millisecond), s.interval)
	if short.Joules != 0 || !strings.Contains(short.Unavailable, "only 3 GPU power sample(s)") || !strings.Contains(short.Unavailable, "at least 5") {
		t.Errorf("a 0.7 s window: %+v", short)
	}
}

// Two GPUs are summed, and each is integrated over the whole window: the
// power held from the window's start to the first sample and from the last
// to its end; a GPU with too few samples refuses the window.
func TestGPUEnergySumsGPUs(t *testing.T) {
	t0 := time.Unix(1000, 0)
	w := func(v float64) *float64 { return &v }
	var ss []GPUSample
	for i := 0; i < 6; i++ {
		at := t0.Add(time.Duration(i)*time.Second + 500*time.Millisecond)
		ss = append(ss, GPUSample{At: at, GPUConditions: GPUConditions{Index: 0, PowerW: w(100)}}, GPUSample{At: at, GPUConditions: GPUConditions{Index: 1, PowerW: w(float64(200 + 20*i))}})
	}
	e := GPUEnergy(ss, t0, t0.Add(6*time.Second), time.Second)
	// GPU 0: 100 W × 6 s. GPU 1: 200 W for 0.5 s, trapezoids 200→300 over
	// 5 s (1250 J), 300 W for 0.5 s.
	if want := 600 + 100 + 1250 + 150.0; math.Abs(e.Joules-want) > 1e-9 || e.Samples != 6 {
		t.Errorf("%g J from %d samples, want %g", e.Joules, e.Samples, want)
	}
	if e := GPUEnergy(ss[:8], t0, t0.Add(6*time.Second), time.Second); e.Unavailable == "" {
		t.Errorf("4 samples per GPU gave %+v", e)
	}
}

// RAPL in the kernel's sysfs layout: package and DRAM zones counted, core
// and psys not (a part of the package, the whole platform), and a counter
// that wrapped past max_energy_range_uj undone.
func TestRAPLEnergy(t *testing.T) {
	before, err := ReadRAPL("testdata/rapl/before")
	if err != nil {
		t.Fatal(err)
	}
	after, err := ReadRAPL("testdata/rapl/after")
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 4 {
		t.Fatalf("zones %+v, want two packages and two DRAMs", before)
	}
	e := RAPLEnergy(before, after, 2*time.Second)
	if e.Source != schema.EnergyRAPL || strings.Join(e.Coverage, ",") != "package,dram" || math.Abs(e.Joules-(100+90+4+4)) > 1e-9 {
		t.Errorf("energy %+v, want 198 J over package and dram", e)
	}
	if _, err := ReadRAPL("testdata/rapl/unreadable"); err == nil || !strings.Contains(err.Error(), "unreadable") {
		t.Errorf("a zone without a readable counter: %v", err)
	}
	if _, err := ReadRAPL("testdata/rapl/absent"); err == nil {
		t.Error("no error without RAPL")
	}
}

// powermetrics' real output: the newer total lines and the older
// per-cluster ones (summed as the CPU), GPU power, and the sample's
// elapsed time.
func TestParsePowermetricsRealOutput(t *testing.T) {
	for _, tc := range []struct {
		file    string
		part    string
		watts   float64
		elapsed time.Duration
	}{
		{"powermetrics-gpu_power.m1pro-14gpu-on-battery.txt", "gpu", 0.014, 507810 * time.Microsecond},
		{"powermetrics-cpu_power.m2-air-mac14-2-macos12.excerpt.txt", "cpu", -1, 1002800 * time.Microsecond},
	} {
		b, err := os.ReadFile("testdata/macos/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		ss, err := ParsePowermetrics(string(b))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if len(ss) != 1 || ss[0].Elapsed != tc.elapsed {
			t.Fatalf("%s: samples %+v", tc.file, ss)
		}
		w, ok := ss[0].Watts[tc.part]
		if !ok || (tc.watts >= 0 && w != tc.watts) || w <= 0 {
			t.Errorf("%s: %s power %g W (%v)", tc.file, tc.part, w, ss[0].Watts)
		}
		t.Logf("%s: %v", tc.file, ss[0].Watts)
	}
	// Six one-second samples of 5 W CPU and 10 W GPU inside the window.
	var ss []PowermetricsSample
	t0 := time.Unix(0, 0)
	for i := 1; i <= 6; i++ {
		ss = append(ss, PowermetricsSample{At: t0.Add(time.Duration(i) * time.Second), Elapsed: time.Second, Watts: map[string]float64{"cpu": 5, "gpu": 10}})
	}
	e := PowermetricsEnergy(ss, t0, t0.Add(6*time.Second))
	if e.Joules != 90 || e.Samples != 6 || strings.Join(e.Coverage, ",") != "cpu,gpu" || e.IntervalS != 1 {
		t.Errorf("energy %+v", e)
	}
	if e := PowermetricsEnergy(ss[:3], t0, t0.Add(6*time.Second)); e.Unavailable == "" {
		t.Errorf("three samples gave %+v", e)
	}
}

// Both samplers' output in one sample (the M2 Air's per-cluster CPU lines,
// then the M1 Pro's gpu_power section, both real): the clusters sum to the
// CPU and the GPU section's power is the GPU's. Power lines of parts that
// are not summed (DRAM, package: forms older macOS prints) are skipped
// whatever their unit; an impossible power of a summed part is an error.
func TestParsePowermetricsBothSamplers(t *testing.T) {
	cpu, err := os.ReadFile("testdata/macos/powermetrics-cpu_power.m2-air-mac14-2-macos12.excerpt.txt")
	if err != nil {
		t.Fatal(err)
	}
	gpu, err := os.ReadFile("testdata/macos/powermetrics-gpu_power.m1pro-14gpu-on-battery.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, gpuSection, _ := strings.Cut(string(gpu), "***\n")
	text := string(cpu) + "\nDRAM Power: 12 mW\nPackage Power: 1.2 W\n" + gpuSection
	ss, err := ParsePowermetrics(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Watts["cpu"] != 0.006 || ss[0].Watts["gpu"] != 0.014 || len(ss[0].Watts) != 2 {
		t.Fatalf("samples %+v", ss)
	}
	for _, bad := range []string{"CPU Power: NaN mW", "GPU Power: -3 mW", "ANE Power: 2 W", "P0-Cluster Power: Inf mW"} {
		if _, err := ParsePowermetrics(string(gpu) + bad + "\n"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
