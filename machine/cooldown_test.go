package machine

import (
	"context"
	"reflect"
	"testing"
	"time"
)

func TestCoolDownScripted(t *testing.T) {
	run := func(cpu func(time.Duration) float64, cond func(time.Duration) Conditions, cfg CooldownConfig) CooldownResult {
		clk := &fakeClock{time.Unix(1_000_000, 0)}
		start := clk.t
		cfg.Clock = clk
		cfg.CPUBusy = func(context.Context) (float64, error) { return cpu(clk.t.Sub(start)), nil }
		cfg.Conditions = func(context.Context) Conditions { return cond(clk.t.Sub(start)) }
		return CoolDown(context.Background(), cfg)
	}
	idle := func(time.Duration) Conditions { return Conditions{} }
	decaying := func(e time.Duration) float64 { return max(80-10*e.Seconds(), 3) } // back at 3% after 8 s

	// Settles when the load is back near the baseline, after Min.
	r := run(decaying, idle, CooldownConfig{Min: 5 * time.Second, Max: time.Minute, BaselineCPUPct: 2})
	if r.EndedBy != CooldownSettled || r.Waited != 8*time.Second || r.Pending != nil {
		t.Errorf("decaying load: %+v", r)
	}
	// Never before Min.
	r = run(func(time.Duration) float64 { return 1 }, idle, CooldownConfig{Min: 5 * time.Second, Max: time.Minute})
	if r.EndedBy != CooldownSettled || r.Waited != 5*time.Second {
		t.Errorf("idle at once: %+v", r)
	}
	// Max when the load stays (a background process the baseline did not have).
	r = run(func(time.Duration) float64 { return 50 }, idle, CooldownConfig{Min: time.Second, Max: 10 * time.Second, BaselineCPUPct: 2})
	if r.EndedBy != CooldownMax || r.Waited != 10*time.Second || !reflect.DeepEqual(r.Pending, []string{"cpu"}) || r.LastCPUPct != 50 {
		t.Errorf("busy: %+v", r)
	}
	// A hot GPU holds it until within tolerance of its idle reading, and a
	// thermal clock-event reason until it clears.
	hot := func(e time.Duration) Conditions {
		temp := max(60-2*e.Seconds(), 36)          // 38 (idle 35 + 3) at 11 s
		reasons := []string{"sw_thermal_slowdown"} // until 15 s
		if e >= 15*time.Second {
			reasons = []string{"gpu_idle"}
		}
		return Conditions{GPUs: []GPUConditions{{Index: 0, TempC: &temp, Reasons: reasons}}}
	}
	cfg := CooldownConfig{Min: time.Second, Max: time.Minute, BaselineCPUPct: 5, BaselineGPUTempC: map[int]float64{0: 35}}
	r = run(func(time.Duration) float64 { return 0 }, hot, cfg)
	if r.EndedBy != CooldownSettled || r.Waited != 15*time.Second {
		t.Errorf("hot GPU: %+v", r)
	}
	cfg.Max = 12 * time.Second
	r = run(func(time.Duration) float64 { return 0 }, hot, cfg)
	if r.EndedBy != CooldownMax || !reflect.DeepEqual(r.Pending, []string{"thermal"}) {
		t.Errorf("hot GPU, short max: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := CoolDown(ctx, CooldownConfig{Clock: &fakeClock{}, CPUBusy: func(context.Context) (float64, error) { return 0, nil }}); r.EndedBy != CooldownCanceled {
		t.Errorf("canceled: %+v", r)
	}
}

// TestCoolDownReal ends early on a machine whose load is at its baseline:
// the baseline is measured first, then nothing runs.
func TestCoolDownReal(t *testing.T) {
	s := NewSampler()
	l, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Other builds share this machine: tolerate anything up to full load,
	// so that what is tested is the early end, not this VM's quiet.
	r := CoolDown(context.Background(), CooldownConfig{Min: 300 * time.Millisecond, Max: 5 * time.Second, BaselineCPUPct: l.CPUBusyPct, CPUTolerancePct: 100, Interval: 100 * time.Millisecond})
	t.Logf("%+v", r)
	if r.EndedBy != CooldownSettled || r.Waited >= 5*time.Second || r.Waited < 300*time.Millisecond {
		t.Errorf("%+v", r)
	}
}
