package scenarios

import (
	"fmt"
	"sort"

	"github.com/decodebench/decodebench/schema"
)

// EngineKind says how decodebench drives the engine.
type EngineKind string

// Engine kinds.
const (
	// KindServer (the default) starts a server per measured run and sends
	// it the measured request.
	KindServer EngineKind = "server"
	// KindCommand runs a command-line engine once per measured run (and
	// once per warmup): it loads the model, generates and exits. Metrics,
	// counters and the generated text are read from what it prints.
	KindCommand EngineKind = "command"
)

// Output says how to read a command engine's results from its output.
//
//	output:
//	  metrics:                        # metric → regular expression with one capture group
//	    decode_tok_s: ': +eval time = .*, +([0-9.]+) tokens per second'
//	  tokens: ': +eval time = .* / +([0-9]+) runs'   # optional: generated tokens
//	  text: {stream: stdout, after: '', before: ''} # the generated text, for output identity
//
// Patterns apply to every line the command wrote, stdout and stderr; the
// last match counts. wall_s is always the command's own wall time.
type Output struct {
	Metrics map[string]string `yaml:"metrics" json:"metrics,omitempty"`
	Tokens  string            `yaml:"tokens" json:"tokens,omitempty"`
	Text    TextSpec          `yaml:"text" json:"text,omitempty"`
}

// TextSpec delimits the generated text in a command's standard output:
// what follows the first match of After (the start when empty) up to the
// next match of Before (the end when empty), trimmed of surrounding
// whitespace.
type TextSpec struct {
	After  string `yaml:"after" json:"after,omitempty"`
	Before string `yaml:"before" json:"before,omitempty"`
}

// IsCommand reports whether the engine is a command-line engine.
func (e Engine) IsCommand() bool { return e.Kind == KindCommand }

// validateCommandEngine checks what a command engine needs instead of the
// server's ready path, endpoint and request.
func (s *Scenario) validateCommandEngine(p *problems) {
	o := s.Engine.Output
	if len(o.Metrics) == 0 && s.Metrics.Primary != schema.WallS {
		p.at("engine.output.metrics", "a command engine needs a pattern for its primary metric %q (e.g. decode_tok_s: ': +eval time = .*, +([0-9.]+) tokens per second'), or metrics.primary: wall_s", s.Metrics.Primary)
	}
	names := make([]string, 0, len(o.Metrics))
	for m := range o.Metrics {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		key := "engine.output.metrics." + m
		if bm := schema.MetricOf(m); bm.Name == "" || bm.Stream || m == schema.WallS {
			p.at(key, "%q is not a metric a command can report (known: %s, %s, %s; wall_s is measured by decodebench)", m, schema.DecodeTokS, schema.E2ETokS, schema.TTFTms)
			continue
		}
		checkCapture(p, key, o.Metrics[m])
		warnPromptLine(p, key, o.Metrics[m])
	}
	if s.Metrics.Primary != schema.WallS && len(o.Metrics) > 0 {
		if _, ok := o.Metrics[s.Metrics.Primary]; !ok {
			p.at("engine.output.metrics", "no pattern for the primary metric %q", s.Metrics.Primary)
		}
	}
	if o.Tokens != "" {
		checkCapture(p, "engine.output.tokens", o.Tokens)
		warnPromptLine(p, "engine.output.tokens", o.Tokens)
	}
	for _, x := range []struct{ key, re string }{{"engine.output.text.after", o.Text.After}, {"engine.output.text.before", o.Text.Before}} {
		if x.re == "" {
			continue
		}
		p.pattern(x.key, x.re)
	}
	for i, c := range s.Counters {
		if c.Metric != "" {
			p.at(fmt.Sprintf("counters[%d].metric", i), "a command engine has no metrics endpoint: read the counter from its output with log: (a pattern with one capture group) or json: (a field of the last JSON line it prints)")
		}
	}
}

// validateDecline checks the decline pattern.
func (s *Scenario) validateDecline(p *problems) {
	if s.Engine.Decline == "" {
		return
	}
	p.pattern("engine.decline", s.Engine.Decline)
}

func checkCapture(p *problems, key, expr string) {
	if re, ok := p.pattern(key, expr); ok && re.NumSubexp() != 1 {
		p.at(key, "the regular expression needs exactly one capture group for the number (has %d)", re.NumSubexp())
	}
}

// llama.cpp's CLIs end with their timing lines, the prompt's just before
// the decode's (llama-completion, build 11669; harness/testdata).
const (
	llamaPromptLine = "0.00.178.322 I common_perf_print: prompt eval time =      16.03 ms /     5 tokens (    3.21 ms per token,   311.84 tokens per second)"
	llamaEvalLine   = "0.00.178.324 I common_perf_print:        eval time =     105.41 ms /    15 runs   (    7.03 ms per token,   142.30 tokens per second)"
)

// warnPromptLine warns of a pattern that reads llama.cpp's decode line
// and its prompt line alike: a run whose output lost its last lines (the
// CLIs do not always flush their log before they exit) would be read at
// the prompt's figures instead of failing.
func warnPromptLine(p *problems, key, expr string) {
	re, err := compilePattern(expr)
	if err != nil || re.NumSubexp() != 1 {
		return
	}
	if re.MatchString(llamaEvalLine) && re.MatchString(llamaPromptLine) {
		p.warn(key, "%q also matches llama.cpp's \"prompt eval time\" line, printed just before the \"eval time\" one: "+
			"a run that lost its last lines would be read at the prompt's figures; anchor it to its own line (': +eval time = …')", expr)
	}
}
