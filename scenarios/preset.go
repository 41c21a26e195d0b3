package scenarios

import (
	"sort"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Preset fills in the engine fields a scenario leaves out with the values
// that fit one engine family, so that a scenario for llama-server need not
// repeat its health path and endpoints. Every field it fills can be
// overridden by writing the key in the scenario. Besides the defaults it
// suggests the counters that usually tell a speculative arm from classic
// decode, the engine metrics worth reading, and the command that tells the
// engine's version; `decodebench presets` lists them and `decodebench
// init --preset NAME` writes them into a starter scenario.
type Preset struct {
	Name string `json:"name"`
	// About says which engines the preset is for.
	About       string `json:"about"`
	ReadyPath   string `json:"ready_path"`
	MetricsPath string `json:"metrics_path"`
	Endpoint    string `json:"endpoint"`
	// Command is a typical engine command line, for the starter scenario.
	Command []string `json:"command"`
	// VersionCommand reports the engine's version when the binary's own
	// --version does not (a Python package behind `python -m ...`). Empty:
	// the engine binary's --version, which decodebench always records.
	VersionCommand []string `json:"version_command,omitempty"`
	// Counters are the usual distinguishing counters, with expectations
	// for a classic arm ("classic") and a speculative one ("speculative").
	Counters []Counter `json:"counters,omitempty"`
	// EngineMetrics are the engine's Prometheus metrics worth reading.
	EngineMetrics []string `json:"engine_metrics,omitempty"`
}

var presets = map[string]Preset{
	"llama.cpp": {
		About:       "llama.cpp's llama-server",
		ReadyPath:   "/health",
		MetricsPath: "/metrics",
		Endpoint:    "/completion",
		Command:     []string{"llama-server", "-m", "${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "${PORT}", "--metrics", "-np", "1"},
		Counters: []Counter{
			{Name: "drafts", Metric: "llamacpp:spec_decode_num_drafts_total", Expect: map[string]string{"classic": "== 0", "speculative": "> 0"}},
			{Name: "draft_tokens", JSON: "timings.draft_n", Expect: map[string]string{"classic": "== 0", "speculative": "> 0"}},
		},
		EngineMetrics: []string{"llamacpp:spec_decode_num_drafts_total", "llamacpp:spec_decode_num_draft_tokens_total", "llamacpp:spec_decode_num_accepted_tokens_total", "llamacpp:tokens_predicted_total"},
	},
	"llama-server-spec": {
		About:       "llama-server-compatible engines that log speculative-decoding diagnostics (mlxcel-server and the like)",
		ReadyPath:   "/health",
		MetricsPath: "/metrics",
		Endpoint:    "/completion",
		Command:     []string{"mlxcel-server", "-m", "${MODEL_DIR}/model", "--host", "127.0.0.1", "--port", "${PORT}"},
		Counters: []Counter{
			{Name: "draft_tokens", JSON: "timings.draft_n", Expect: map[string]string{"classic": "== 0", "speculative": "> 0"}},
			{Name: "diag_accepted", Log: `spec diagnostics .*\baccepted=(\d+)`, Expect: map[string]string{"classic": "== 0", "speculative": "> 0"}},
		},
	},
	"openai": {
		About:       "any OpenAI-compatible server",
		ReadyPath:   "/v1/models",
		MetricsPath: "/metrics",
		Endpoint:    "/v1/completions",
		Command:     []string{"my-openai-server", "--host", "127.0.0.1", "--port", "${PORT}"},
	},
	"mlx-lm": {
		About:          "mlx-lm's OpenAI-compatible mlx_lm.server (Apple silicon)",
		ReadyPath:      "/v1/models",
		MetricsPath:    "/metrics",
		Endpoint:       "/v1/completions",
		Command:        []string{"python3", "-m", "mlx_lm.server", "--model", "${MODEL}", "--host", "127.0.0.1", "--port", "${PORT}"},
		VersionCommand: []string{"python3", "-c", "import mlx_lm; print(mlx_lm.__version__)"},
	},
	"vllm": {
		About:          "vLLM's OpenAI-compatible server (vllm serve)",
		ReadyPath:      "/health",
		MetricsPath:    "/metrics",
		Endpoint:       "/v1/completions",
		Command:        []string{"vllm", "serve", "${MODEL}", "--host", "127.0.0.1", "--port", "${PORT}"},
		VersionCommand: []string{"python3", "-c", "import vllm; print(vllm.__version__)"},
		Counters: []Counter{
			{Name: "draft_tokens", Metric: "vllm:spec_decode_num_draft_tokens_total", Expect: map[string]string{"classic": "== 0", "speculative": "> 0"}},
		},
		EngineMetrics: []string{"vllm:spec_decode_num_drafts_total", "vllm:spec_decode_num_draft_tokens_total", "vllm:spec_decode_num_accepted_tokens_total", "vllm:generation_tokens_total", "vllm:prompt_tokens_total"},
	},
}

// Presets returns every preset, sorted by name.
func Presets() []Preset {
	out := make([]Preset, 0, len(presets))
	for name, p := range presets {
		p.Name = name
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupPreset returns the preset of that name.
func LookupPreset(name string) (Preset, bool) {
	p, ok := presets[name]
	p.Name = name
	return p, ok
}

// PresetNames lists the presets' names, sorted.
func PresetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// VersionCommand is the command whose output identifies the engine's
// version beside the binary's own --version: engine.version_command
// (${VAR} resolved) when given, else the preset's, else nil.
func (s *Scenario) VersionCommand() []string {
	if len(s.Engine.VersionCommand) > 0 {
		return s.Engine.VersionCommand
	}
	if p, ok := presets[s.Engine.Preset]; ok {
		return p.VersionCommand
	}
	return nil
}

// Endpoints the request client speaks.
var endpoints = map[string]bool{"/completion": true, "/v1/completions": true, "/v1/chat/completions": true}

// Defaults that hold whatever the preset.
const (
	defaultReadyTimeout   = 120 * time.Second
	defaultStopGrace      = 5 * time.Second
	defaultRequestTimeout = 5 * time.Minute
	defaultRounds         = 5
	defaultWarmup         = 1
)

// applyDefaults fills empty fields from the preset and the global defaults.
// Explicit zero values that mean something (warmup: 0, cooldown: 0s) are
// told apart from absent keys through the recorded positions.
func (s *Scenario) applyDefaults() {
	e := &s.Engine
	if p, ok := presets[e.Preset]; ok {
		if e.Ready.Path == "" {
			e.Ready.Path = p.ReadyPath
		}
		if e.MetricsPath == "" {
			e.MetricsPath = p.MetricsPath
		}
		if e.Request.Endpoint == "" {
			e.Request.Endpoint = p.Endpoint
		}
	}
	if e.MetricsPath == "" {
		e.MetricsPath = "/metrics"
	}
	if e.Ready.Timeout.Duration == 0 {
		e.Ready.Timeout.Duration = defaultReadyTimeout
	}
	if e.StopGrace.Duration == 0 {
		e.StopGrace.Duration = defaultStopGrace
	}
	if e.Request.Timeout.Duration == 0 {
		e.Request.Timeout.Duration = defaultRequestTimeout
	}
	if _, set := s.pos["schedule.rounds"]; !set {
		s.Schedule.Rounds = Rounds{Min: defaultRounds, Max: defaultRounds}
	}
	if r := &s.Schedule.Rounds; r.Max == 0 && r.MaxTime.Duration > 0 {
		r.Max = r.budgetMax()
	}
	if s.Schedule.Rounds.Max == 0 {
		s.Schedule.Rounds.Max = s.Schedule.Rounds.Min
	}
	fraction := func(key string, f *Fraction, def float64) {
		if _, set := s.pos[key]; !set {
			*f = Fraction(def)
		}
	}
	fraction("stats.confidence", &s.Stats.Confidence, DefaultConfidence)
	fraction("stats.alpha", &s.Stats.Alpha, DefaultAlpha)
	fraction("stats.min_effect", &s.Stats.MinEffect, DefaultMinEffect)
	fraction("gates.max_spread", &s.Gates.MaxSpread, DefaultMaxSpread)
	fraction("gates.max_contended", &s.Gates.MaxContended, DefaultMaxContended)
	fraction("gates.contended_cpu", &s.Gates.ContendedCPU, DefaultContendedCPU)
	fraction("gates.max_drift", &s.Gates.MaxDrift, DefaultMaxDrift)
	if s.Outliers == "" {
		s.Outliers = schema.OutliersFlag
	}
	if s.OnFailure == "" {
		s.OnFailure = schema.FailAbort
	}
	if x := s.Exactness; x != nil {
		if x.Against == "" {
			x.Against = s.Baseline
		}
		if x.OnMismatch == "" {
			x.OnMismatch = schema.MismatchFail
		}
	}
	if _, set := s.pos["schedule.warmup"]; !set {
		s.Schedule.Warmup = defaultWarmup
	}
	if s.Schedule.Order == "" {
		s.Schedule.Order = schema.OrderRotate
	}
	if s.Metrics.Primary == "" {
		s.Metrics.Primary = schema.DecodeTokS
	}
	if s.Title == "" {
		s.Title = s.Feature
	}
}
