// Package schema holds the persisted types of a benchmark record: the data
// block, the runs beside it, the analysis, and the enums they use. It is the
// one place these types live; it imports nothing of the project, so that a
// change in a computation type elsewhere cannot silently change a record.
package schema

import "time"

// The versions of the record's data block. SchemaV5 is what a campaign
// writes now, whose arms ran one engine or several (Engines): its Markdown
// leads with the answer (the results right after the verdict, the
// identity tables after them, long ones folded, a narrower raw table) and
// its analysis states the gates that failed beside the verdict's own
// reasons (Analysis.AlsoFailed). The earlier versions are read and
// re-rendered as they were written: Schema (v3) one engine, SchemaV4
// several, SchemaV2 with its reasons in the legacy generic form (see
// Record.Stored).
const (
	Schema   = "decodebench/record/v3"
	SchemaV2 = "decodebench/record/v2"
	SchemaV4 = "decodebench/record/v4"
	SchemaV5 = "decodebench/record/v5"
)

// AnswerFirst reports whether a record of version v is laid out with its
// answer first (SchemaV5); the earlier versions keep the order they were
// written in.
func AnswerFirst(v string) bool { return v == SchemaV5 }

// KnownSchema reports whether v is a version of the data block this
// decodebench reads.
func KnownSchema(v string) bool {
	return v == Schema || v == SchemaV2 || v == SchemaV4 || v == SchemaV5
}

// Record is everything one campaign produced. The data block holds all of
// it but the runs, which live in the data folder's runs.jsonl (checked by
// hash, see Files).
type Record struct {
	Schema  string  `json:"schema"`
	Verdict Verdict `json:"verdict"`

	Feature  string `json:"feature"`
	Title    string `json:"title"`
	Issue    string `json:"issue,omitempty"`
	Hardware string `json:"hardware"`
	Date     string `json:"date"`

	Scenario ScenarioInfo `json:"scenario"`
	Engine   EngineInfo   `json:"engine"`
	// Engines lists each engine the arms ran and the arms that ran it,
	// when they ran more than one (arms[].engine); Engine is then the
	// baseline's. Empty when every arm ran Engine.
	Engines  []ArmsEngine  `json:"engines,omitempty"`
	Machine  MachineInfo   `json:"machine"`
	Method   Method        `json:"method"`
	Counters []CounterSpec `json:"counters"`
	Analysis Analysis      `json:"analysis"`
	// Plots are image files in the data folder, relative to it.
	Plots []string `json:"plots,omitempty"`
	// Files are the data folder's files with their sha256.
	Files []FileSum `json:"files"`
	// DataDir is the folder of raw data, relative to the record file.
	DataDir string `json:"data_dir"`
	// Places are the machine's folders the record's paths are shown
	// relative to; absent in records from before, whose paths are shown
	// as stored.
	Places *Places `json:"places,omitempty"`
	// Loaded are the shared objects the engine's processes mapped, by
	// the arms that loaded each set (loaded.go); absent in records from
	// before, and for engines that could not be read.
	Loaded []ArmsLoaded `json:"loaded,omitempty"`
	// Roofline is each arm's decode rate as a share of what the memory
	// allows (roofline.go); absent in records from before, and where the
	// model or the bandwidth is unknown.
	Roofline []ArmRoofline `json:"roofline,omitempty"`

	// Runs are read from and written to DataDir/runs.jsonl.
	Runs []Run `json:"-"`
}

// FileSum is one file of the data folder, relative to it, and its sha256.
type FileSum struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// ScenarioInfo identifies the scenario as run.
type ScenarioInfo struct {
	Path string `json:"path"`
	// Hash is the sha256 of the scenario's meaning (not of this machine's
	// paths or environment).
	Hash     string      `json:"hash"`
	Baseline string      `json:"baseline"`
	Primary  string      `json:"primary"`
	Arms     []ArmInfo   `json:"arms"`
	Vars     []VarInfo   `json:"vars,omitempty"`
	Request  RequestInfo `json:"request"`
	// AllowUnverified is the reason the scenario gave for running without
	// a distinguishing counter.
	AllowUnverified string `json:"allow_unverified,omitempty"`
	// Unmeasured is the scenario's own list of what it does not measure.
	Unmeasured []string `json:"unmeasured"`
	// Warnings are the problems validation reported without refusing.
	Warnings []string `json:"warnings,omitempty"`
	// Overrides are the run's --rounds and --set overrides, applied to
	// the stored scenario (re-read it with them).
	Overrides []string `json:"overrides,omitempty"`
}

// VarFromEnvironment is a VarInfo's value where the environment gave the
// variable (its value is not recorded).
const VarFromEnvironment = "(from the environment)"

// VarInfo is one variable the scenario substituted and the value it
// resolved to on this machine.
type VarInfo struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// FromEnv is set when the environment, not the scenario, gave it.
	FromEnv bool `json:"from_env,omitempty"`
}

// ArmInfo is one arm's full command line and environment.
type ArmInfo struct {
	Name    string            `json:"name"`
	Command []string          `json:"command"`
	Env     map[string]string `json:"env,omitempty"`
	Control bool              `json:"control,omitempty"`
}

// RequestInfo describes the measured request.
type RequestInfo struct {
	Endpoint    string  `json:"endpoint"`
	Prompt      string  `json:"prompt"`
	MaxTokens   int     `json:"max_tokens"`
	Temperature float64 `json:"temperature"`
	Seed        int     `json:"seed"`
	IgnoreEOS   bool    `json:"ignore_eos"`
}

// EngineInfo says exactly which engine binary and model files ran.
type EngineInfo struct {
	Command      string `json:"command"`
	Path         string `json:"path"`
	SHA256       string `json:"sha256"`
	Version      string `json:"version"`
	RealBinary   string `json:"real_binary,omitempty"`
	RealSHA256   string `json:"real_sha256,omitempty"`
	SourceDir    string `json:"source_dir,omitempty"`
	SourceCommit string `json:"source_commit,omitempty"`
	SourceDirty  *bool  `json:"source_dirty,omitempty"`
	// BinaryOlderThanSource is set when the binary (the wrapped one, for
	// a wrapper script) was modified before the source's last commit: it
	// was not built from that commit.
	BinaryOlderThanSource bool `json:"binary_older_than_source,omitempty"`
	// AllowDirty is the scenario's reason to run although the source was
	// dirty or newer than the binary; set only when one of them was.
	AllowDirty string      `json:"allow_dirty,omitempty"`
	Models     []ModelFile `json:"models,omitempty"`
	// Libraries are the engine's own shared libraries (libllama, libggml
	// and its backends), where its kernels live, with their sha256.
	Libraries []FileSum `json:"libraries,omitempty"`
	Problems  []string  `json:"problems,omitempty"`
}

// ArmsEngine is one engine of a record whose arms ran several, and the
// arms that ran it.
type ArmsEngine struct {
	Arms []string `json:"arms"`
	EngineInfo
}

// ModelFile is a file the engine command names, with its size and hash.
type ModelFile struct {
	Arg    string `json:"arg"`
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// MachineInfo says which machine the record was measured on.
type MachineInfo struct {
	Hostname        string    `json:"hostname"`
	OS              string    `json:"os"`               // runtime.GOOS spelling: "linux", "darwin"
	Platform        string    `json:"platform"`         // distribution or product: "ubuntu", "darwin"
	PlatformVersion string    `json:"platform_version"` // "24.04", "15.1"
	Kernel          string    `json:"kernel"`           // kernel release, e.g. "6.8.0-45-generic"
	Arch            string    `json:"arch"`             // as uname -m says it: "x86_64", "aarch64", "arm64"
	CPUModel        string    `json:"cpu_model"`        // brand string, e.g. "Apple M1 Ultra"
	Cores           int       `json:"cores"`            // physical cores
	Threads         int       `json:"threads"`          // logical CPUs
	MemoryBytes     uint64    `json:"memory_bytes"`     // installed memory as the OS sees it
	GPUs            []GPUInfo `json:"gpus,omitempty"`   // NVIDIA GPUs as nvidia-smi lists them; none on Apple Silicon
	Slug            string    `json:"slug"`
	// Platform is the platform telemetry (host.go); absent in records
	// from before it was read.
	Telemetry *PlatformInfo `json:"telemetry,omitempty"`
}

// GPUInfo is one accelerator as its driver reports it.
type GPUInfo struct {
	Name   string `json:"name"`   // as the driver spells it, e.g. "NVIDIA H200"
	Driver string `json:"driver"` // driver version, e.g. "580.159.04"
	// MemoryMiB is the device's own memory; 0 where the driver reports
	// none, as on unified-memory parts such as the NVIDIA GB10.
	MemoryMiB int64 `json:"memory_mib"`
}

// Method says how the campaign was run.
type Method struct {
	// EngineKind is "command" for a command-line engine, run once per
	// measured run; empty for a server.
	EngineKind string `json:"engine_kind,omitempty"`
	Rounds     int    `json:"rounds"`
	Warmup     int    `json:"warmup"`
	// Requests is the number of measured requests per engine start; 0 in
	// records from before, which kept no served requests (and have no
	// noise anatomy or prefix-cache states).
	Requests int    `json:"requests,omitempty"`
	Order    Order  `json:"order"`
	Seed     int64  `json:"seed"`
	Cooldown string `json:"cooldown"`
	// Planned is the arm order of the plan; each run's Seq indexes it.
	Planned  []string  `json:"planned"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Interrupted is set when a signal stopped the campaign.
	Interrupted bool `json:"interrupted,omitempty"`
	// InterruptedBy names the signal that stopped it ("SIGINT",
	// "SIGTERM"); absent where a busy host stopped it and in records
	// written before it was stored (read as SIGINT).
	InterruptedBy string `json:"interrupted_by,omitempty"`
	// CutOffS is, in an interrupted campaign, the time of the run the stop
	// cut off: from its span's start (the cooldown before it) to the
	// stop, its work lost, as it was never journaled; 0 where the stop
	// came between runs, and in records from before it was stored (their
	// time table counts it as decodebench's own outside the runs).
	CutOffS float64 `json:"cut_off_s,omitempty"`
	// Version and Commit identify decodebench itself.
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Dirty   bool   `json:"dirty,omitempty"`
	// Resumed lists when an interrupted campaign was continued.
	Resumed []time.Time `json:"resumed,omitempty"`
	// Rule is the statistical rule of the analysis (see Rule); absent in
	// records written before it was stored, which keep the first rule.
	Rule Rule `json:"rule,omitempty"`
	// PoolControl is set when the negative controls were pooled into the
	// reference of every test arm (stats.pool_control).
	PoolControl bool `json:"pool_control,omitempty"`
	// StoppedBy says what ended the schedule.
	StoppedBy string `json:"stopped_by,omitempty"`
	// RoundsRun is the number of rounds actually run.
	RoundsRun int `json:"rounds_run"`
	// MaxTime is a sequential schedule's budget (schedule.rounds.max_time),
	// and PlannedRounds, at each look taken, the most rounds the budget
	// allowed then at the time a round had taken so far: the information
	// the look's alpha spending is planned for (the last look spends the
	// rest). Both empty without a budget.
	MaxTime       string `json:"max_time,omitempty"`
	PlannedRounds []int  `json:"planned_rounds,omitempty"`
	// The scenario's policies and thresholds, as applied.
	OnFailure    OnFailure   `json:"on_failure,omitempty"`
	Outliers     OutlierMode `json:"outliers,omitempty"`
	Confidence   float64     `json:"confidence"`
	Alpha        float64     `json:"alpha"`
	MinEffect    float64     `json:"min_effect"`
	MaxSpread    float64     `json:"max_spread"`
	MaxContended float64     `json:"max_contended"`
	ContendedCPU float64     `json:"contended_cpu"`
	MaxDrift     float64     `json:"max_drift"`
	Resamples    int         `json:"resamples"`
	// Quiet is the quiet gate as applied ("window 30s, ..."); empty when
	// off.
	Quiet string `json:"quiet,omitempty"`
	// Indexing says what host.pause_indexing did: paused and restored,
	// or why nothing was paused; "" when the scenario did not ask.
	Indexing string `json:"indexing,omitempty"`
	// Footprint is decodebench's own CPU over all measured windows.
	Footprint *Footprint `json:"footprint,omitempty"`
	// Diagnosis holds the raw divergence diagnosis probes, made after the
	// measured windows for each divergent arm; nil when none was made.
	Diagnosis []DiagnosisProbe `json:"diagnosis,omitempty"`
	// DiagnosisS is how long the diagnosis took, its engines' starts
	// included; 0 when none was made, and in records from before.
	DiagnosisS float64 `json:"diagnosis_s,omitempty"`
	// PrefixCache is each arm's prefix-cache state; absent in records
	// from before.
	PrefixCache []ArmPrefixCache `json:"prefix_cache,omitempty"`
	// History is this host's own earlier records of the scenario that the
	// baseline was compared with (HostHistory); absent when the records
	// folder held fewer than analysis.HistoryMinRecords of them, and in
	// records from before.
	History *HostHistory `json:"history,omitempty"`
}

// CounterSpec is a counter as the scenario declared it.
type CounterSpec struct {
	Name   string            `json:"name"`
	Kind   SourceKind        `json:"kind"`
	Expr   string            `json:"expr"`
	Expect map[string]string `json:"expect"`
	// Phase is PhaseStartup for a log counter that read the engine's
	// start-up lines; empty for one that read the measured window (and
	// in records from before).
	Phase LogPhase `json:"phase,omitempty"`
}

// Result returns the analysis' result for metric, if any.
func (r *Record) Result(metric string) (MetricResult, bool) {
	for _, m := range r.Analysis.Results {
		if m.Metric == metric {
			return m, true
		}
	}
	return MetricResult{}, false
}

// HigherIsBetter is a metric's direction as the record's analysis recorded
// it, else as the built-in registry knows it.
func (r *Record) HigherIsBetter(metric string) bool {
	if res, ok := r.Result(metric); ok {
		return res.HigherIsBetter
	}
	return MetricOf(metric).HigherIsBetter
}

// RunCounts reports whether the record's run i counts toward its numbers:
// it finished, and the analysis did not drop it as an outlier.
func (r *Record) RunCounts(i int) bool {
	dropped := i < len(r.Analysis.Marks) && r.Analysis.Marks[i].Dropped
	return r.Runs[i].OK() && !dropped
}

// FileSum returns the sha256 the record names for a data-folder file, or "".
func (r *Record) FileSum(path string) string {
	for _, f := range r.Files {
		if f.Path == path {
			return f.SHA256
		}
	}
	return ""
}

// EngineOf returns the identity of the engine arm ran: its entry in
// Engines when the arms ran several, else Engine.
func (r *Record) EngineOf(arm string) EngineInfo {
	for _, e := range r.Engines {
		for _, a := range e.Arms {
			if a == arm {
				return e.EngineInfo
			}
		}
	}
	return r.Engine
}

// ModelBytes is the size of the first model file arm's engine command
// names, as an expression's model_bytes reads it; 0 when it names none
// decodebench found.
func (r *Record) ModelBytes(arm string) float64 {
	e := r.EngineOf(arm)
	if len(e.Models) == 0 || e.Models[0].Bytes <= 0 {
		return 0
	}
	return float64(e.Models[0].Bytes)
}

// Places are the folders of the machine a record was made on: its Markdown
// shows a path under Repo relative to it and one under Home as ~/…; the
// data block keeps every path absolute.
type Places struct {
	// Repo is the repository (or, outside one, the folder) decodebench
	// ran in.
	Repo string `json:"repo,omitempty"`
	Home string `json:"home,omitempty"`
	// Command: the engine's command is shown relative like the other
	// paths; records from before show it as written.
	Command bool `json:"command,omitempty"`
}
