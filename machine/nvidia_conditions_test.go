package machine

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func fp(x float64) *float64 { return &x }

func TestParseNvidiaConditionsH200(t *testing.T) {
	gpus, err := ParseNvidiaConditions(readFile(t, "testdata/nvidia/h200/nvidia-smi-query.csv"))
	if err != nil {
		t.Fatal(err)
	}
	mask := uint64(1)
	want := []GPUConditions{{
		Index: 0, Name: "NVIDIA H200", UUID: "GPU-8ae6270d-b271-b0d9-765c-38bfd47b6c53",
		SMClockMHz: fp(345), MemClockMHz: fp(3201), MaxSMClockMHz: fp(1980), TempC: fp(35),
		PowerW: fp(88.92), PowerLimitW: fp(700), UtilPct: fp(0), MemUsedMiB: fp(0), MemTotalMiB: fp(143771),
		PState: "P0", ReasonsMask: &mask, Reasons: []string{"gpu_idle"},
	}}
	if !reflect.DeepEqual(gpus, want) {
		t.Errorf("got  %s\nwant %s", dumpGPUs(gpus), dumpGPUs(want))
	}
	c := Conditions{GPUs: gpus}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("idle GPU raised %v", w)
	}
	if n, r := c.ThermalNominal(); !n || !r {
		t.Errorf("ThermalNominal = %v, %v", n, r)
	}
}

func dumpGPUs(gs []GPUConditions) string {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "{%d %q %q", g.Index, g.Name, g.UUID)
		for _, p := range []*float64{g.SMClockMHz, g.MemClockMHz, g.MaxSMClockMHz, g.TempC, g.PowerW, g.PowerLimitW, g.UtilPct, g.MemUsedMiB, g.MemTotalMiB} {
			if p == nil {
				b.WriteString(" nil")
			} else {
				fmt.Fprintf(&b, " %v", *p)
			}
		}
		fmt.Fprintf(&b, " %s %v}", g.PState, g.Reasons)
	}
	return b.String()
}

func TestParseNvidiaConditionsVariants(t *testing.T) {
	// Throttle spelling of old drivers, nounits header, N/A power, a
	// thermal and power capped second GPU.
	out := "index, name, temperature.gpu, power.draw [W], clocks.current.sm [MHz], clocks_throttle_reasons.active\n" +
		"0, Tesla T4, 40, [N/A], 300, 0x0000000000000001\n" +
		"1, Tesla T4, 91, 70.00, 900, 0x0000000000000024\n"
	gpus, err := ParseNvidiaConditions([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(gpus) != 2 || gpus[0].PowerW != nil || *gpus[1].SMClockMHz != 900 ||
		!reflect.DeepEqual(gpus[1].Reasons, []string{"sw_power_cap", "sw_thermal_slowdown"}) {
		t.Fatalf("got %s", dumpGPUs(gpus))
	}
	w := Conditions{GPUs: gpus}.Warnings()
	want := []Warning{{WarnGPUThermalCap, "gpu1:sw_power_cap+sw_thermal_slowdown"}, {WarnGPUPowerCap, "gpu1:sw_power_cap+sw_thermal_slowdown"}}
	if !reflect.DeepEqual(w, want) {
		t.Errorf("warnings %+v, want %+v", w, want)
	}

	for name, bad := range map[string]string{
		"no header":    "0, NVIDIA H200, 143771, 0, 0, 35, 87.10, 345, 0x0000000000000001\n",
		"short row":    "index, name, temperature.gpu\n0, NVIDIA H200\n",
		"not a number": "index, temperature.gpu\n0, hot\n",
		"bad mask":     "index, clocks_event_reasons.active\n0, zz\n",
		"bad index":    "index, name\nx, NVIDIA H200\n",
	} {
		if _, err := ParseNvidiaConditions([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestDecodeClockEventReasons(t *testing.T) {
	tests := []struct {
		mask uint64
		want []string
	}{
		{0, []string{}},
		{0x1, []string{"gpu_idle"}},
		{0x4 | 0x40, []string{"sw_power_cap", "hw_thermal_slowdown"}},
		{0x8 | 0x80, []string{"hw_slowdown", "hw_power_brake_slowdown"}},
		{0x1000, []string{"bit0x1000"}},
	}
	for _, tt := range tests {
		if got := DecodeClockEventReasons(tt.mask); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%#x: %v, want %v", tt.mask, got, tt.want)
		}
	}
}

func TestNvidiaConditionsRunner(t *testing.T) {
	var calls []string
	run := func(_ context.Context, name string, args ...string) ([]byte, error) {
		calls = append(calls, strings.Join(args, " "))
		if strings.Contains(args[0], "clocks_event_reasons") {
			return nil, fmt.Errorf("exit status 2: Field \"clocks_event_reasons.active\" is not a valid field to query.")
		}
		return []byte("index, clocks_throttle_reasons.active\n0, 0x0000000000000001\n"), nil
	}
	gpus, err := nvidiaConditions(context.Background(), run)
	if err != nil || len(gpus) != 1 || len(calls) != 2 || !reflect.DeepEqual(gpus[0].Reasons, []string{"gpu_idle"}) {
		t.Errorf("fallback: %v %v calls %q", gpus, err, calls)
	}
	absent := func(context.Context, string, ...string) ([]byte, error) {
		return nil, fmt.Errorf("nvidia-smi: %w", errNotAvailable)
	}
	if _, err := nvidiaConditions(context.Background(), absent); !isNotAvailable(err) {
		t.Errorf("absent: %v", err)
	}
	c := readConditions(context.Background(), "linux-test", absent)
	if len(c.Unavailable) != 1 || c.Unavailable[0].Source != "nvidia-smi" || !strings.Contains(c.Unavailable[0].Reason, "not available") {
		t.Errorf("unavailable %+v", c.Unavailable)
	}
}

func TestParseNvidiaApps(t *testing.T) {
	got, err := parseNvidiaApps([]byte("1234, /usr/bin/python3, 1024\n5678, vllm, worker, [N/A]\n\n"))
	want := []GPUProcess{{1234, "/usr/bin/python3", 1024}, {5678, "vllm, worker", 0}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v %v", got, err)
	}
	if ps, err := parseNvidiaApps(nil); err != nil || ps != nil {
		t.Errorf("empty: %v %v", ps, err)
	}
	if _, err := parseNvidiaApps([]byte("pid, process_name, used_gpu_memory [MiB]\n")); err == nil {
		t.Error("header line accepted")
	}
}
