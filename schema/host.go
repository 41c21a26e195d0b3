package schema

import "time"

// Host conditions around each run: what the quiet gate waited for, how the
// cooldown before the run ended, the machine's power, thermal and GPU state
// before and after, and decodebench's own CPU during the measured window.
// All optional: records from before these existed, and machines that do not
// expose a reading, leave them out.

// QuietWait is what the quiet gate waited for before a run.
type QuietWait struct {
	WaitedS float64 `json:"waited_s"`
	// EndedBy is "quiet", "max_wait" or "canceled".
	EndedBy string `json:"ended_by"`
	// OnBusy is what the scenario said to do at max_wait; set only when
	// the wait ended by max_wait.
	OnBusy BusyAction `json:"on_busy,omitempty"`
	// Held counts, per reason, the samples in which the host was not
	// quiet: busy_process, denied_process, on_battery, low_power_mode,
	// thermal, process_list_failed.
	Held map[string]int `json:"held,omitempty"`
	// Culprits are the processes that held the wait, first seen first.
	Culprits []HostProcess `json:"culprits,omitempty"`
	// Recheck: an earlier run's wait ran out and no run found the host
	// quiet since, so this one looked once and gave up at a busy sample.
	Recheck bool `json:"recheck,omitempty"`
	// CreditS is the quiet from before the wait began that its window
	// counted: the previous run's measured window, which no process
	// outside the campaign used beyond the gate's limit, and what
	// followed it up to the wait's start.
	CreditS float64 `json:"credit_s,omitempty"`
}

// HostProcess is a process outside the campaign that mattered to a run.
type HostProcess struct {
	PID    int    `json:"pid"`
	Name   string `json:"name"`
	Reason string `json:"reason,omitempty"` // quiet gate: busy_process or denied_process
	// Cores is its CPU share (1 = one core); 0 where not measured.
	Cores float64 `json:"cores,omitempty"`
	// GPUMemMiB is its memory on an NVIDIA GPU, for GPU others.
	GPUMemMiB float64 `json:"gpu_mem_mib,omitempty"`
}

// CooldownWait is how the cooldown before a run went.
type CooldownWait struct {
	Mode    CooldownMode `json:"mode"`
	WaitedS float64      `json:"waited_s"`
	// EndedBy: "fixed" (the fixed time passed), "settled" (load and
	// thermal state back at the baseline), "max" or "canceled".
	EndedBy    string   `json:"ended_by"`
	LastCPUPct float64  `json:"last_cpu_pct,omitempty"`
	Pending    []string `json:"pending,omitempty"`
}

// HostConditions are the machine's power, thermal and GPU state at one
// moment.
type HostConditions struct {
	Time           time.Time `json:"time"`
	Power          string    `json:"power_source,omitempty"`
	BatteryPercent *int      `json:"battery_percent,omitempty"`
	LowPowerMode   *bool     `json:"low_power_mode,omitempty"`
	// PowerMode is macOS's energy mode: "low power", "automatic" or
	// "high power"; "" where not read (and in records from before).
	PowerMode               string     `json:"power_mode,omitempty"`
	ThermalWarningLevel     *int       `json:"thermal_warning_level,omitempty"`
	PerformanceWarningLevel *int       `json:"performance_warning_level,omitempty"`
	CPUSpeedLimit           *int       `json:"cpu_speed_limit_pct,omitempty"`
	MemoryFreePct           *int       `json:"memory_free_pct,omitempty"`
	CPUFreqMeanMHz          *float64   `json:"cpu_freq_mean_mhz,omitempty"`
	MaxThermalZoneC         *float64   `json:"max_thermal_zone_c,omitempty"`
	GPUs                    []GPUState `json:"gpus,omitempty"`
	// Warnings are the conditions that make a measurement less
	// trustworthy, as code[:value] (on_battery, low_power_mode,
	// thermal_warning, cpu_speed_limited, cpu_thermal_trip,
	// gpu_thermal_capping, gpu_power_capping).
	Warnings []HostWarning `json:"warnings,omitempty"`
}

// HostWarning is one machine warning code with the reading behind it.
type HostWarning struct {
	Code  string `json:"code"`
	Value string `json:"value,omitempty"`
}

// GPUState is one NVIDIA GPU's clocks, temperature and power at one moment.
type GPUState struct {
	Index       int      `json:"index"`
	SMClockMHz  *float64 `json:"sm_clock_mhz,omitempty"`
	MemClockMHz *float64 `json:"mem_clock_mhz,omitempty"`
	TempC       *float64 `json:"temp_c,omitempty"`
	PowerW      *float64 `json:"power_w,omitempty"`
	UtilPct     *float64 `json:"util_pct,omitempty"`
	MemUsedMiB  *float64 `json:"mem_used_mib,omitempty"`
	// Reasons are the active clock-event reasons, decoded.
	Reasons []string `json:"reasons,omitempty"`
}

// GPUWindow is what the in-window sampler (one nvidia-smi process for the
// campaign) saw of each GPU during a run's measured window.
type GPUWindow struct {
	IntervalS float64          `json:"interval_s"`
	GPUs      []GPUWindowState `json:"gpus,omitempty"`
	// Warnings are the capping seen in any sample (gpu_thermal_capping,
	// gpu_power_capping), as in HostConditions.
	Warnings []HostWarning `json:"warnings,omitempty"`
	// Unavailable says why there are no samples.
	Unavailable string `json:"unavailable,omitempty"`
}

// GPUWindowState is one GPU's samples inside a window.
type GPUWindowState struct {
	Index         int      `json:"index"`
	Samples       int      `json:"samples"`
	SMClockMinMHz *float64 `json:"sm_clock_min_mhz,omitempty"`
	SMClockMaxMHz *float64 `json:"sm_clock_max_mhz,omitempty"`
	TempMaxC      *float64 `json:"temp_max_c,omitempty"`
	PowerMaxW     *float64 `json:"power_max_w,omitempty"`
	UtilMaxPct    *float64 `json:"util_max_pct,omitempty"`
	MemUsedMaxMiB *float64 `json:"mem_used_max_mib,omitempty"`
	// Reasons are the clock-event reasons active in any sample.
	Reasons []string `json:"reasons,omitempty"`
}

// Footprint is decodebench's own CPU time (user + system, from its
// rusage) during a run's measured window, telemetry sampling included.
type Footprint struct {
	CPUS    float64 `json:"cpu_s"`
	WindowS float64 `json:"window_s"`
	// Reads is how the stream was read: "ends" (first token event and
	// end of stream) or "every event"; empty in records made before
	// decodebench said.
	Reads string `json:"reads,omitempty"`
	// Note says why the stream was read otherwise than the scenario asked.
	Note string `json:"note,omitempty"`
	// SamplerS is the part of CPUS that the GPU sampler (nvidia-smi)
	// used during the window.
	SamplerS float64 `json:"sampler_cpu_s,omitempty"`
}

// Share is the footprint as a share of one core.
func (f Footprint) Share() float64 {
	if f.WindowS <= 0 {
		return 0
	}
	return f.CPUS / f.WindowS
}

// PlatformInfo is the platform telemetry of the machine section: facts
// that do not change during a campaign.
type PlatformInfo struct {
	// Mac.
	Chip             string `json:"chip,omitempty"`
	ModelIdentifier  string `json:"model_identifier,omitempty"`
	ModelName        string `json:"model_name,omitempty"`
	PerformanceCores int    `json:"performance_cores,omitempty"`
	EfficiencyCores  int    `json:"efficiency_cores,omitempty"`
	GPUCores         int    `json:"gpu_cores,omitempty"`
	GPUGeneration    int    `json:"gpu_generation,omitempty"`
	GPUArchitecture  string `json:"gpu_architecture,omitempty"`
	// GPUGenerationSource says where the generation came from: "ioreg"
	// (the GPU's own accelerator class, GPUClass) or "chip" (inferred from
	// the chip's name, a fallback); "" in records from before it was said.
	GPUGenerationSource string `json:"gpu_generation_source,omitempty"`
	GPUClass            string `json:"gpu_class,omitempty"`
	OSName              string `json:"os_name,omitempty"`
	OSVersion           string `json:"os_version,omitempty"`
	OSBuild             string `json:"os_build,omitempty"`
	// Linux.
	Governors []string `json:"governors,omitempty"`
	// Conditions are the machine's state before the campaign.
	Conditions *HostConditions `json:"conditions,omitempty"`
	// Unavailable lists what could not be read, as "source: reason".
	Unavailable []string `json:"unavailable,omitempty"`
}

// QuietMaxWait is QuietWait.EndedBy when the gate gave up.
const QuietMaxWait = "max_wait"

// FootprintTotal sums decodebench's own CPU over the runs' windows
// (method.footprint): the harness writes it, check derives it again.
func FootprintTotal(runs []Run) *Footprint {
	var f Footprint
	n := 0
	for _, r := range runs {
		if r.Footprint != nil {
			f.CPUS += r.Footprint.CPUS
			f.WindowS += r.Footprint.WindowS
			f.SamplerS += r.Footprint.SamplerS
			switch {
			case n == 0:
				f.Reads = r.Footprint.Reads
			case f.Reads != r.Footprint.Reads:
				f.Reads = "mixed"
			}
			if f.Note == "" {
				f.Note = r.Footprint.Note
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return &f
}
