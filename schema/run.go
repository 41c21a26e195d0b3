package schema

import "time"

// Run is one measured run as runs.jsonl stores it: what was observed, and
// nothing the analysis derives (outlier and contention marks, whether a
// counter met its expectation are in the record's analysis).
type Run struct {
	Seq   int    `json:"seq"` // 1-based position in the plan
	Round int    `json:"round"`
	Arm   string `json:"arm"`
	// Attempt counts tries of this slot under on_failure: retry:N (1 first).
	Attempt int       `json:"attempt,omitempty"`
	Start   time.Time `json:"start"`
	// Seconds is the whole run: engine start, warmups, measured request,
	// stop.
	Seconds float64 `json:"seconds"`
	// CooldownS is the time since the previous run ended.
	CooldownS float64 `json:"cooldown_s"`
	Port      int     `json:"port,omitempty"`
	// ReadyS is the time from the engine's launch to its ready answer.
	ReadyS float64 `json:"ready_s,omitempty"`
	// Phases is where the run's time went (phases.go); nil in runs from
	// before.
	Phases *Phases `json:"phases,omitempty"`
	// Requests are every request the start served, warmups and measured
	// ones, in order (anatomy.go); absent in runs from before.
	Requests []ServedRequest `json:"requests,omitempty"`

	Metrics map[string]float64 `json:"metrics,omitempty"`
	Tokens  int                `json:"tokens,omitempty"`
	// TokenSource says where the token count came from: the engine's own
	// total it was read from (timings.predicted_n, usage.completion_tokens,
	// …), or TokensFromEvents.
	TokenSource   string             `json:"token_source,omitempty"`
	EngineTimings map[string]float64 `json:"engine_timings,omitempty"`
	// Loaded are the shared objects the engine's process tree mapped
	// (after ready, before the measured window, and after it), with
	// their sha256; absent in runs from before and where they could not
	// be read.
	Loaded     []FileSum                 `json:"loaded,omitempty"`
	Counters   map[string]CounterReading `json:"counters,omitempty"`
	LoadBefore *LoadSample               `json:"load_before,omitempty"`
	LoadAfter  *LoadSample               `json:"load_after,omitempty"`
	// Contention is the CPU used during the measured window.
	Contention   *ContentionSample `json:"contention,omitempty"`
	OutputSHA256 string            `json:"output_sha256,omitempty"`
	// Output is the generated text.
	Output string `json:"output,omitempty"`
	// Reasoning is text the engine put in a separate reasoning channel.
	Reasoning string `json:"reasoning,omitempty"`
	// TokenIDs are the generated token ids when all of them are known.
	TokenIDs []int `json:"token_ids,omitempty"`
	// TokenNote says where TokenIDs came from, or why there are none.
	TokenNote string `json:"token_note,omitempty"`
	// Declines are the engine's lines in the measured window that match
	// the scenario's decline pattern.
	Declines []string `json:"declines,omitempty"`
	Error    string   `json:"error,omitempty"`
	// LostCount is the counter whose line a command engine's output
	// lacked although the arm's expectation needs it: the run failed for
	// that (a lost count, not a 0). The analysis bounds how many an arm may
	// have (schema.TooManyLostCounts); absent in runs from before.
	LostCount string `json:"lost_count,omitempty"`
	// Impossible are engine-reported values that could not be true and
	// were recorded as absent instead.
	Impossible []ImpossibleValue `json:"impossible,omitempty"`
	// Leftovers are processes of the engine's tree still running after it
	// stopped (a daemon it forked, a worker that detached); they were
	// killed.
	Leftovers []HostProcess `json:"leftovers,omitempty"`
	// EngineOutput says how much the engine wrote; set when its output
	// flooded the measured window or its log was cut.
	EngineOutput *EngineOutput `json:"engine_output,omitempty"`
	// Log is the engine log of this run, relative to the data folder.
	Log string `json:"log,omitempty"`

	// Host conditions (host.go); absent where not measured.
	Quiet            *QuietWait      `json:"quiet,omitempty"`
	Cooldown         *CooldownWait   `json:"cooldown,omitempty"`
	ConditionsBefore *HostConditions `json:"conditions_before,omitempty"`
	ConditionsAfter  *HostConditions `json:"conditions_after,omitempty"`
	Footprint        *Footprint      `json:"footprint,omitempty"`
	GPUWindow        *GPUWindow      `json:"gpu_window,omitempty"`
	// Energy is the energy the host's best source measured over the
	// measured window, or why none could; nil in runs from before
	// decodebench measured energy.
	Energy *Energy `json:"energy,omitempty"`
	// Streams are the run's concurrent streams, the first included; nil
	// in a scenario where no arm sets concurrency (stream.go).
	Streams []Stream `json:"streams,omitempty"`
}

// TokensFromEvents is the TokenSource of a count of stream events, used
// when the engine returned no totals: it undercounts when the engine merges
// tokens into one event.
const TokensFromEvents = "stream events"

// OK reports whether the run finished without error.
func (r Run) OK() bool { return r.Error == "" }

// CounterReading is a counter's value in one run.
type CounterReading struct {
	Value float64 `json:"value"`
	// Text is what a text source (props, version) read; Value is its
	// number when it is one.
	Text string `json:"text,omitempty"`
	// Absent is set when the source did not appear and was read as 0.
	Absent bool   `json:"absent,omitempty"`
	Note   string `json:"note,omitempty"`
	// Impossible is set when the source reported a value that cannot be
	// true (NaN, ±Inf): recorded as absent, it meets no expectation.
	Impossible bool `json:"impossible,omitempty"`
}

// LoadSample is the machine's load at one moment.
type LoadSample struct {
	Time time.Time `json:"time"`
	// Load1, Load5 and Load15 are the 1, 5 and 15 minute load averages:
	// they lag, but also count threads waiting for a CPU.
	Load1  float64 `json:"load1"`
	Load5  float64 `json:"load5"`
	Load15 float64 `json:"load15"`
	// CPUBusyPct is the whole machine's busy share of CPU time, 0 to 100,
	// since the sampler's previous sample.
	CPUBusyPct        float64 `json:"cpu_busy_pct"`
	MemAvailableBytes uint64  `json:"mem_available_bytes"` // memory that can be had without swapping
	SwapUsedBytes     uint64  `json:"swap_used_bytes"`
}

// ContentionSample is the CPU used during a measured window: by all, by the
// engine and decodebench, and by the others.
type ContentionSample struct {
	Busy     float64 `json:"busy"`
	Measured float64 `json:"measured"`
	Others   float64 `json:"others"`
	// EngineProcesses counts the processes counted as the engine's.
	EngineProcesses int `json:"engine_processes,omitempty"`
	// Culprit is the busiest process outside the engine's tree.
	Culprit *HostProcess `json:"culprit,omitempty"`
	// Next are the next busiest processes outside the engine's tree (at
	// most two), busiest first: a load that shares the blame is named too.
	Next []HostProcess `json:"next,omitempty"`
	// GPUOthers are processes outside the engine's tree on an NVIDIA GPU.
	GPUOthers []HostProcess `json:"gpu_others,omitempty"`
}

// EngineOutput is what an engine wrote to its standard output and error in
// one run, where that matters to a reader.
type EngineOutput struct {
	// WindowBytes is what it wrote during the measured window.
	WindowBytes int64 `json:"window_bytes"`
	// Flood is set when WindowBytes passed the flood limit: writing that
	// much competed with decoding, a contention warning for the run.
	Flood bool `json:"flood,omitempty"`
	// LogCutBytes is how much of the run's log was left out of its file
	// (which keeps its head and tail).
	LogCutBytes int64 `json:"log_cut_bytes,omitempty"`
}
