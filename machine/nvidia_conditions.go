package machine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// GPUConditions is one NVIDIA GPU's state at one moment.
type GPUConditions struct {
	Index         int      `json:"index"`
	Name          string   `json:"name"`
	UUID          string   `json:"uuid,omitempty"`
	SMClockMHz    *float64 `json:"sm_clock_mhz,omitempty"`
	MemClockMHz   *float64 `json:"mem_clock_mhz,omitempty"`
	MaxSMClockMHz *float64 `json:"max_sm_clock_mhz,omitempty"`
	TempC         *float64 `json:"temp_c,omitempty"`
	PowerW        *float64 `json:"power_w,omitempty"`
	PowerLimitW   *float64 `json:"power_limit_w,omitempty"`
	UtilPct       *float64 `json:"util_pct,omitempty"`
	MemUsedMiB    *float64 `json:"mem_used_mib,omitempty"`
	MemTotalMiB   *float64 `json:"mem_total_mib,omitempty"`
	PState        string   `json:"pstate,omitempty"`
	// ReasonsMask is the active clock-event reasons bitmask
	// (clocks_event_reasons.active); Reasons its decoded names, such as
	// ["gpu_idle"] or ["sw_power_cap", "sw_thermal_slowdown"].
	ReasonsMask *uint64  `json:"reasons_mask,omitempty"`
	Reasons     []string `json:"reasons,omitempty"`
}

// clockEventReasons are NVML's nvmlClocksEventReason bits (nvml.h), in bit
// order, named as nvidia-smi's per-reason query fields are.
var clockEventReasons = []struct {
	bit  uint64
	name string
}{
	{0x1, "gpu_idle"},
	{0x2, "applications_clocks_setting"},
	{0x4, "sw_power_cap"},
	{0x8, "hw_slowdown"},
	{0x10, "sync_boost"},
	{0x20, "sw_thermal_slowdown"},
	{0x40, "hw_thermal_slowdown"},
	{0x80, "hw_power_brake_slowdown"},
	{0x100, "display_clock_setting"},
}

// DecodeClockEventReasons names the bits of a clock-event reasons mask.
// A bit it does not know is named "bit0x…" so that nothing is dropped.
func DecodeClockEventReasons(mask uint64) []string {
	names := []string{}
	known := uint64(0)
	for _, r := range clockEventReasons {
		known |= r.bit
		if mask&r.bit != 0 {
			names = append(names, r.name)
		}
	}
	for rest := mask &^ known; rest != 0; rest &= rest - 1 {
		names = append(names, fmt.Sprintf("bit%#x", rest&-rest))
	}
	return names
}

// ThermalCapped says whether a thermal clock-event reason is active.
// hw_slowdown counts: NVML sets it for thermal slowdown and power brake
// alike, and it halves the clocks either way.
func (g GPUConditions) ThermalCapped() bool {
	return g.hasReason("sw_thermal_slowdown", "hw_thermal_slowdown", "hw_slowdown")
}

// PowerCapped says whether a power clock-event reason is active.
func (g GPUConditions) PowerCapped() bool {
	return g.hasReason("sw_power_cap", "hw_power_brake_slowdown")
}

func (g GPUConditions) hasReason(names ...string) bool {
	for _, r := range g.Reasons {
		for _, n := range names {
			if r == n {
				return true
			}
		}
	}
	return false
}

// nvidiaConditionsFields is the query nvidiaConditions runs, the same as
// the one that captured testdata/nvidia/h200/nvidia-smi-query.csv.
const nvidiaConditionsFields = "index,name,uuid,driver_version,pci.bus_id," +
	"memory.total,memory.used,utilization.gpu,utilization.memory," +
	"temperature.gpu,power.draw,power.limit," +
	"clocks.sm,clocks.mem,clocks.max.sm,clocks_event_reasons.active,pstate"

// nvidiaConditionsArgs asks for a header so that the parser reads columns
// by name, whatever order or spelling (clocks.current.sm for clocks.sm) a
// driver answers in.
var nvidiaConditionsArgs = []string{"--query-gpu=" + nvidiaConditionsFields, "--format=csv"}

// nvidiaConditions reads every NVIDIA GPU's conditions. Without nvidia-smi
// it returns errNotAvailable. Drivers older than the clock "event" naming
// (before 535) know only clocks_throttle_reasons.active: it is asked for
// instead when the first query fails.
func nvidiaConditions(ctx context.Context, run runner) ([]GPUConditions, error) {
	out, err := run(ctx, "nvidia-smi", nvidiaConditionsArgs...)
	if err != nil && !isNotAvailable(err) {
		old := strings.Replace(nvidiaConditionsArgs[0], "clocks_event_reasons", "clocks_throttle_reasons", 1)
		if out2, err2 := run(ctx, "nvidia-smi", old, nvidiaConditionsArgs[1]); err2 == nil {
			out, err = out2, nil
		}
	}
	if err != nil {
		return nil, err
	}
	gpus, err := ParseNvidiaConditions(out)
	if err != nil {
		return nil, fmt.Errorf("nvidia-smi %s: %w", strings.Join(nvidiaConditionsArgs, " "), err)
	}
	return gpus, nil
}

func isNotAvailable(err error) bool { return errors.Is(err, errNotAvailable) }

// ParseNvidiaConditions reads `nvidia-smi --query-gpu=... --format=csv`
// output with its header line (units, "[MiB]", may be on or off). Columns
// are found by the header's names; a value nvidia-smi cannot give
// ("[N/A]", "[Not Supported]") is left nil. A missing index or name
// column, or a row whose field count differs from the header's, is an
// error: the query and the parser disagree.
func ParseNvidiaConditions(out []byte) ([]GPUConditions, error) {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, nil
	}
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], ",") {
		h = strings.TrimSpace(h)
		if j := strings.Index(h, " ["); j >= 0 {
			h = h[:j]
		}
		col[canonicalField(h)] = i
	}
	if _, ok := col["index"]; !ok {
		return nil, fmt.Errorf("line 1: header has no index column: %q", quoteLine(lines[0]))
	}
	var gpus []GPUConditions
	for n, line := range lines[1:] {
		f := strings.Split(line, ",")
		if len(f) != len(col) {
			return nil, fmt.Errorf("line %d: %d comma-separated fields, header has %d: %q", n+2, len(f), len(col), quoteLine(line))
		}
		get := func(name string) (string, bool) {
			i, ok := col[name]
			if !ok {
				return "", false
			}
			v := strings.TrimSpace(f[i])
			if strings.HasPrefix(v, "[") || v == "N/A" {
				return "", false
			}
			return v, true
		}
		num := func(name string) (*float64, error) {
			v, ok := get(name)
			if !ok {
				return nil, nil
			}
			// Strip a unit: "143771 MiB", "88.92 W", "0 %".
			if i := strings.IndexByte(v, ' '); i >= 0 {
				v = v[:i]
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s %q is not a number", n+2, name, quoteLine(v))
			}
			return &x, nil
		}
		var g GPUConditions
		idx, ok := get("index")
		if i, err := strconv.Atoi(idx); !ok || err != nil {
			return nil, fmt.Errorf("line %d: index %q is not a number", n+2, quoteLine(idx))
		} else {
			g.Index = i
		}
		g.Name, _ = get("name")
		g.UUID, _ = get("uuid")
		g.PState, _ = get("pstate")
		for _, p := range []struct {
			dst  **float64
			name string
		}{
			{&g.SMClockMHz, "clocks.sm"}, {&g.MemClockMHz, "clocks.mem"}, {&g.MaxSMClockMHz, "clocks.max.sm"},
			{&g.TempC, "temperature.gpu"}, {&g.PowerW, "power.draw"}, {&g.PowerLimitW, "power.limit"},
			{&g.UtilPct, "utilization.gpu"}, {&g.MemUsedMiB, "memory.used"}, {&g.MemTotalMiB, "memory.total"},
		} {
			v, err := num(p.name)
			if err != nil {
				return nil, err
			}
			*p.dst = v
		}
		if v, ok := get("clocks_event_reasons.active"); ok {
			mask, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(v), "0x"), 16, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: clocks_event_reasons.active %q is not a hex mask", n+2, quoteLine(v))
			}
			g.ReasonsMask = &mask
			g.Reasons = DecodeClockEventReasons(mask)
		}
		gpus = append(gpus, g)
	}
	return gpus, nil
}

// canonicalField maps the header spellings of nvidia-smi to the field
// names of the query: the header says clocks.current.sm for clocks.sm,
// and older drivers clocks_throttle_reasons for clocks_event_reasons.
func canonicalField(h string) string {
	switch h {
	case "clocks.current.sm":
		return "clocks.sm"
	case "clocks.current.memory", "clocks.memory":
		return "clocks.mem"
	case "clocks.max.sm", "clocks.max.streaming_multiprocessor":
		return "clocks.max.sm"
	case "power.draw.instant", "power.draw.average":
		// Either serves when power.draw itself was not asked for.
		return "power.draw"
	}
	return strings.Replace(h, "clocks_throttle_reasons.", "clocks_event_reasons.", 1)
}

// A GPUProcess is a process with a compute context on an NVIDIA GPU.
type GPUProcess struct {
	PID        int     `json:"pid"`
	Name       string  `json:"name"`
	UsedMemMiB float64 `json:"used_mem_mib"`
}

var nvidiaAppsArgs = []string{"--query-compute-apps=pid,process_name,used_memory", "--format=csv,noheader,nounits"}

// NvidiaProcesses lists the processes using an NVIDIA GPU. Without
// nvidia-smi it returns an error wrapping "not available".
func NvidiaProcesses(ctx context.Context) ([]GPUProcess, error) {
	return nvidiaProcesses(ctx, runTool)
}

func nvidiaProcesses(ctx context.Context, run runner) ([]GPUProcess, error) {
	out, err := run(ctx, "nvidia-smi", nvidiaAppsArgs...)
	if err != nil {
		return nil, err
	}
	return parseNvidiaApps(out)
}

// parseNvidiaApps reads `nvidia-smi --query-compute-apps=pid,process_name,
// used_memory --format=csv,noheader,nounits`: "1234, /usr/bin/python3, 1024"
// a line; nothing when no process uses a GPU. The process name may hold
// commas, so pid is the first field and memory the last.
func parseNvidiaApps(out []byte) ([]GPUProcess, error) {
	var ps []GPUProcess
	for i, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "No running") {
			continue
		}
		first, rest, ok1 := strings.Cut(line, ",")
		j := strings.LastIndex(rest, ",")
		if !ok1 || j < 0 {
			return nil, fmt.Errorf("line %d: want pid, process_name, used_memory: %q", i+1, quoteLine(line))
		}
		pid, err := strconv.Atoi(strings.TrimSpace(first))
		if err != nil {
			return nil, fmt.Errorf("line %d: pid %q is not a number", i+1, quoteLine(first))
		}
		p := GPUProcess{PID: pid, Name: strings.TrimSpace(rest[:j])}
		if m := strings.TrimSpace(rest[j+1:]); !strings.HasPrefix(m, "[") {
			if p.UsedMemMiB, err = strconv.ParseFloat(m, 64); err != nil {
				return nil, fmt.Errorf("line %d: used_memory %q is not a MiB count", i+1, quoteLine(m))
			}
		}
		ps = append(ps, p)
	}
	return ps, nil
}
