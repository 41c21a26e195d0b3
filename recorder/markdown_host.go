package recorder

import (
	"fmt"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// The host columns of the raw table: each only where some run has the
// reading, so that records without them stay as they were.

// hostColumns are the raw table's columns of the host's readings.
var hostColumns = []column[runRow]{
	left("quiet wait", quietCell).optional(),
	left("cooldown ended by", func(r runRow) string {
		if r.Cooldown == nil {
			return "—"
		}
		s := r.Cooldown.EndedBy
		if len(r.Cooldown.Pending) > 0 {
			s += " (pending " + strings.Join(r.Cooldown.Pending, ", ") + ")"
		}
		return cellText(s)
	}).when(func(r runRow) bool { return r.Cooldown != nil && r.Cooldown.Mode != schema.CooldownFixed }),
	left("busiest other process", culpritCell).optional(),
	left("thermal before→after", func(r runRow) string { return beforeAfter(r, thermalState) }).optional(),
	left("GPU SM MHz, °C, W before→after", func(r runRow) string { return beforeAfter(r, gpuState) }).optional(),
	left("GPU in window: SM MHz min–max, max °C, max W, max util", gpuWindowCell).optional(),
	right("decodebench CPU in window", func(r runRow) string {
		if r.Footprint == nil {
			return "—"
		}
		return pct.Fixed(r.Footprint.Share(), 2)
	}).when(func(r runRow) bool { return r.Footprint != nil }),
}

func quietCell(r runRow) string {
	q := r.Quiet
	if q == nil {
		return "—"
	}
	s := num(q.WaitedS, 3) + "s " + q.EndedBy
	if q.CreditS > 0 {
		s += " (+" + num(q.CreditS, 3) + "s from the last window)"
	}
	if q.Recheck {
		s += " (still busy: one look)"
	}
	if q.OnBusy != "" {
		s += ", " + string(q.OnBusy)
	}
	var held []string
	for k, n := range q.Held {
		held = append(held, fmt.Sprintf("%s×%d", k, n))
	}
	sort.Strings(held)
	if len(held) > 0 {
		s += "; " + strings.Join(held, " ")
	}
	var names []string
	for _, c := range q.Culprits {
		if len(names) == 3 {
			break
		}
		names = append(names, fmt.Sprintf("%s (%d)", c.Name, c.PID))
	}
	if len(names) > 0 {
		s += "; " + strings.Join(names, ", ")
	}
	return cellText(s)
}

func culpritCell(r runRow) string {
	c := r.Contention
	if c == nil {
		return "—"
	}
	var parts []string
	if p := c.Culprit; p != nil {
		parts = append(parts, fmt.Sprintf("%s (%d) %s of a core", p.Name, p.PID, pct.Fixed(p.Cores, 2)))
	}
	for _, p := range c.Next {
		parts = append(parts, fmt.Sprintf("then %s (%d) %s", p.Name, p.PID, pct.Fixed(p.Cores, 2)))
	}
	for _, g := range c.GPUOthers {
		parts = append(parts, fmt.Sprintf("on GPU: %s (%d)", g.Name, g.PID))
	}
	if len(parts) == 0 {
		return "—"
	}
	return cellText(strings.Join(parts, "; "))
}

// thermalState is one moment's thermal reading, short.
func thermalState(c *schema.HostConditions) string {
	if c == nil {
		return ""
	}
	var parts []string
	if c.ThermalWarningLevel != nil {
		parts = append(parts, fmt.Sprintf("level %d", *c.ThermalWarningLevel))
	}
	if c.CPUSpeedLimit != nil {
		parts = append(parts, fmt.Sprintf("CPU limit %d%%", *c.CPUSpeedLimit))
	}
	if c.MaxThermalZoneC != nil {
		parts = append(parts, num(*c.MaxThermalZoneC, 3)+"°C")
	}
	if c.Power == "battery" {
		parts = append(parts, "battery")
	}
	if c.LowPowerMode != nil && *c.LowPowerMode {
		parts = append(parts, "low power")
	}
	return strings.Join(parts, " ")
}

// beforeAfter is a reading of the host before and after the run.
func beforeAfter(r runRow, state func(*schema.HostConditions) string) string {
	b, a := state(r.ConditionsBefore), state(r.ConditionsAfter)
	if b == "" && a == "" {
		return "—"
	}
	return cellText(dash(b) + "→" + dash(a))
}

func gpuState(c *schema.HostConditions) string {
	if c == nil {
		return ""
	}
	var parts []string
	for _, g := range c.GPUs {
		s := fmt.Sprintf("%s/%s/%s", reading(g.SMClockMHz), reading(g.TempC), reading(g.PowerW))
		if len(g.Reasons) > 0 {
			s += " " + strings.Join(g.Reasons, "+")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func gpuWindowCell(r runRow) string {
	w := r.GPUWindow
	if w == nil {
		return "—"
	}
	if len(w.GPUs) == 0 {
		return "no sample"
	}
	var parts []string
	for _, g := range w.GPUs {
		s := fmt.Sprintf("%s–%s, %s, %s, %s%% (%d)", reading(g.SMClockMinMHz), reading(g.SMClockMaxMHz), reading(g.TempMaxC), reading(g.PowerMaxW), reading(g.UtilMaxPct), g.Samples)
		if len(g.Reasons) > 0 {
			s += " " + strings.Join(g.Reasons, "+")
		}
		parts = append(parts, s)
	}
	return cellText(strings.Join(parts, "; "))
}

// reading is a GPU reading, or ? where it was not readable.
func reading(p *float64) string {
	if p == nil {
		return "?"
	}
	return num(*p, 3)
}
