package scenarios

import "time"

// A preset fills in the engine fields a scenario leaves out with the values
// that fit one engine family, so that a scenario for llama-server need not
// repeat its health path and endpoints.
type preset struct {
	readyPath   string
	metricsPath string
	endpoint    string
}

var presets = map[string]preset{
	// llama.cpp's llama-server, and servers that mirror its HTTP surface
	// (mlxcel-server).
	"llama.cpp": {readyPath: "/health", metricsPath: "/metrics", endpoint: "/completion"},
	// Any OpenAI-compatible server (vLLM, mlx_lm.server).
	"openai": {readyPath: "/v1/models", metricsPath: "/metrics", endpoint: "/v1/completions"},
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
	defaultOrder          = "rotate"
)

// Orders the harness can run.
var orders = map[string]bool{"rotate": true, "abba": true, "random": true}

// applyDefaults fills empty fields from the preset and the global defaults.
// Explicit zero values that mean something (warmup: 0, cooldown: 0s) are
// told apart from absent keys through the recorded positions.
func (s *Scenario) applyDefaults() {
	e := &s.Engine
	if p, ok := presets[e.Preset]; ok {
		if e.Ready.Path == "" {
			e.Ready.Path = p.readyPath
		}
		if e.MetricsPath == "" {
			e.MetricsPath = p.metricsPath
		}
		if e.Request.Endpoint == "" {
			e.Request.Endpoint = p.endpoint
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
		s.Outliers = "flag"
	}
	if s.OnFailure == "" {
		s.OnFailure = "abort"
	}
	if x := s.Exactness; x != nil {
		if x.Against == "" {
			x.Against = s.Baseline
		}
		if x.OnMismatch == "" {
			x.OnMismatch = "fail"
		}
	}
	if _, set := s.pos["schedule.warmup"]; !set {
		s.Schedule.Warmup = defaultWarmup
	}
	if s.Schedule.Order == "" {
		s.Schedule.Order = defaultOrder
	}
	if s.Metrics.Primary == "" {
		s.Metrics.Primary = DecodeTokS
	}
	if s.Title == "" {
		s.Title = s.Feature
	}
}
