package scenarios

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// Concurrency is how many identical requests an arm sends at once in each
// measured run (arms[].concurrency): its streams, released together and
// each timed on its own. A matrix sweeps it like any value:
//
//	arms:
//	  - matrix: {streams: [1, 2, 4]}
//	    name: "streams${streams}"
//	    concurrency: "${streams}"
//	    args: [-np, "${streams}"]
//
// Only a server engine can take concurrent requests. llama-server needs a
// slot per stream: decodebench does not add -np; it refuses at load an arm
// whose command gives fewer slots than streams, or none (validateSlots). A
// run whose streams never all decoded at once fails the counter gate
// (analysis.StreamOverlap), whatever the engine.
type Concurrency int

// MaxConcurrency is the most streams an arm may send at once.
const MaxConcurrency = 64

// UnmarshalText reads a whole number; a matrix parameter gives it as text
// ("${streams}").
func (c *Concurrency) UnmarshalText(b []byte) error {
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("not a whole number of streams")
	}
	*c = Concurrency(v)
	return nil
}

// Concurrent reports whether some arm sets concurrency: then every run
// records its streams and the concurrent-stream metrics.
func (s *Scenario) Concurrent() bool {
	for _, a := range s.Arms {
		if a.Concurrency != nil {
			return true
		}
	}
	return false
}

// Streams is how many requests arm sends at once: its concurrency, or 1.
func (s *Scenario) Streams(arm string) int {
	if a, ok := s.Arm(arm); ok && a.Concurrency != nil {
		return int(*a.Concurrency)
	}
	return 1
}

// validateConcurrency checks each arm's concurrency and that a
// concurrent-stream metric is measured at all.
func (s *Scenario) validateConcurrency(p *problems) {
	for i, a := range s.Arms {
		if a.Concurrency == nil {
			continue
		}
		key := fmt.Sprintf("arms[%d].concurrency", i)
		switch n := int(*a.Concurrency); {
		case n < 1 || n > MaxConcurrency:
			p.at(key, "%d streams: concurrency is 1 to %d", n, MaxConcurrency)
		case s.Engine.IsCommand() && n > 1:
			p.at(key, "a command engine runs one process per measured run and cannot take %d requests at once; concurrency needs a server engine", n)
		case n == 1 && s.Schedule.Requests > 1:
			// Above 1, schedule.requests says so (requests.go).
			p.at(key, "concurrent streams are measured once per engine start: give schedule.requests 1 (it is %d)", s.Schedule.Requests)
		}
	}
	switch bm := schema.MetricOf(s.Metrics.Primary); {
	case bm.Concurrent && s.Engine.IsCommand():
		p.at("metrics.primary", "%q is measured on a server engine's concurrent streams only", s.Metrics.Primary)
	case bm.Concurrent && !s.Concurrent():
		p.at("metrics.primary", "%q is measured only when an arm sets concurrency (arms[].concurrency)", s.Metrics.Primary)
	}
}

// validateSlots refuses, on the resolved command lines, a llama-server arm
// with fewer slots than streams: it would queue the extra requests and
// serve the streams one after another. decodebench does not add -np
// itself (the default, auto, picks a build-dependent number of slots and
// a unified cache): the record's command line shows the slots it ran.
// llama-server also splits -c across its slots; each must hold the
// generated tokens.
func (s *Scenario) validateSlots(p *problems) {
	for i, a := range s.Arms {
		n := s.Streams(a.Name)
		if n < 2 || n > MaxConcurrency {
			continue
		}
		l := s.Launch(a.Name)
		if s.Engine.Preset != "llama.cpp" && filepath.Base(l.Binary()) != "llama-server" {
			continue
		}
		key := fmt.Sprintf("arms[%d].concurrency", i)
		np, npOK, npRaw := flagValue(l.Command, l.Env, "LLAMA_ARG_N_PARALLEL", "-np", "--parallel")
		switch {
		case npRaw == "":
			p.at(key, "%d streams need llama-server started with at least %d slots: add -np %d (--parallel) to the command or the arm's args (decodebench does not add it)", n, n, n)
			continue
		case !npOK:
			continue // unresolved (a stored scenario read offline)
		case np < n:
			p.at(key, "%d streams, but the command gives llama-server -np %d slots: the other requests would wait, serialising the streams; give -np %d or more", n, np, n)
			continue
		}
		ctx, ctxOK, _ := flagValue(l.Command, l.Env, "LLAMA_ARG_CTX_SIZE", "-c", "--ctx-size")
		if need := s.Engine.Request.MaxTokens + 1; ctxOK && ctx > 0 && ctx/np < need {
			p.at(key, "llama-server splits -c %d across its %d slots: %d tokens each, fewer than max_tokens (%d) plus the prompt; raise -c to at least %d", ctx, np, ctx/np, s.Engine.Request.MaxTokens, need*np)
		}
	}
}

// flagValue is the last value the command gives one of flags (as "-f N"
// or "-f=N"), else the environment variable's; raw is it as written ("" when
// neither gives one), ok whether it is a number.
func flagValue(cmd []string, env map[string]string, envVar string, flags ...string) (v int, ok bool, raw string) {
	raw = env[envVar]
	for i, w := range cmd {
		for _, f := range flags {
			switch {
			case w == f && i+1 < len(cmd):
				raw = cmd[i+1]
			case strings.HasPrefix(w, f+"="):
				raw = strings.TrimPrefix(w, f+"=")
			}
		}
	}
	v, err := strconv.Atoi(strings.TrimSpace(raw))
	return v, err == nil, raw
}
