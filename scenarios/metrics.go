package scenarios

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/decodebench/decodebench/schema"
)

// betterLow is an extra metric's declared direction when lower is better.
const betterLow = "lower"

// namesPerTokenMetric reports whether the scenario's primary metric, or an
// expression of its own metrics, uses a per-token metric.
func (s *Scenario) namesPerTokenMetric() bool {
	for _, bm := range schema.Metrics {
		if !bm.PerToken {
			continue
		}
		if s.Metrics.Primary == bm.Name {
			return true
		}
		for _, m := range s.Metrics.Extra {
			if in, err := exprInputs(m.Expr); err == nil && slices.Contains(in, bm.Name) {
				return true
			}
		}
	}
	return false
}

// ExtraMetric is a metric a scenario declares beyond the built-in ones,
// summarised, compared and tabled like them:
//
//	metrics:
//	  primary: decode_tok_s
//	  extra:
//	    - {name: drafted, unit: tok, better: higher, json: timings.draft_n}
//	    - {name: accepted, unit: tok, better: higher, json: timings.draft_n_accepted}
//	    - {name: acceptance, unit: "", better: higher, expr: "accepted / drafted"}
//	    - {name: spec_drafts, metric: "llamacpp:spec_decode_num_drafts_total"}   # delta over the window
//	    - {name: accept_rate, ratio: ["llamacpp:spec_decode_num_accepted_tokens_total", "llamacpp:spec_decode_num_draft_tokens_total"]}
//	    - {name: rounds, log: 'rounds=(\d+)', aggregate: sum}                    # last (default), mean or sum
//	    - {name: gbps, unit: GB/s, expr: "model_bytes * decode_tok_s / 1e9"}
//
// An expression may use every other metric of the run by name, tokens
// (the generated token count) and model_bytes (the first model file the
// command names). A run whose source is absent has no value for the
// metric.
type ExtraMetric struct {
	Name      string   `yaml:"name" json:"name"`
	Unit      string   `yaml:"unit" json:"unit,omitempty"`
	Better    string   `yaml:"better" json:"better,omitempty"`
	JSON      string   `yaml:"json" json:"json,omitempty"`
	Metric    string   `yaml:"metric" json:"metric,omitempty"`
	Ratio     []string `yaml:"ratio" json:"ratio,omitempty"`
	Log       string   `yaml:"log" json:"log,omitempty"`
	Aggregate string   `yaml:"aggregate" json:"aggregate,omitempty"`
	Expr      string   `yaml:"expr" json:"expr,omitempty"`
}

// MetricPolicy is one metric as the analysis and the run loop see it.
type MetricPolicy struct {
	Name           string
	Unit           string
	HigherIsBetter bool
	// Extra is the declaration of a scenario's own metric; nil for a
	// built-in one.
	Extra *ExtraMetric
	// Inputs are the names a derived metric's expression reads, as the
	// expression parser reads them.
	Inputs []string
	prog   *vm.Program
}

// Derived reports whether the metric is an expression of others.
func (m MetricPolicy) Derived() bool { return m.prog != nil }

// Eval computes a derived metric from the run's other values; false when
// a value it needs is missing or the result is not a finite number.
func (m MetricPolicy) Eval(vars map[string]float64) (float64, bool) {
	if m.prog == nil {
		return 0, false
	}
	env := map[string]any{}
	for k, v := range vars {
		env[k] = v
	}
	out, err := expr.Run(m.prog, env)
	if err != nil {
		return 0, false
	}
	var v float64
	switch x := out.(type) {
	case float64:
		v = x
	case int:
		v = float64(x)
	default:
		return 0, false
	}
	return v, !math.IsNaN(v) && !math.IsInf(v, 0)
}

var metricNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// validateExtraMetrics checks the scenario's own metrics.
func (s *Scenario) validateExtraMetrics(p *problems) {
	seen := map[string]bool{}
	for _, m := range schema.Metrics {
		seen[m.Name] = true
	}
	for i, m := range s.Metrics.Extra {
		key := fmt.Sprintf("metrics.extra[%d]", i)
		switch {
		case !metricNameRE.MatchString(m.Name):
			p.at(key+".name", "%q must match [a-z][a-z0-9_]* (it is used by name in expressions)", m.Name)
		case seen[m.Name]:
			p.at(key+".name", "%q is already a metric", m.Name)
		}
		seen[m.Name] = true
		n := 0
		for _, src := range []bool{m.JSON != "", m.Metric != "", len(m.Ratio) > 0, m.Log != "", m.Expr != ""} {
			if src {
				n++
			}
		}
		if n != 1 {
			p.at(key, "give exactly one source: json, metric, ratio, log or expr")
		}
		switch m.Better {
		case "", "higher", betterLow:
		default:
			p.at(key+".better", "%q is not one of higher, lower", m.Better)
		}
		switch m.Aggregate {
		case "", "last", "mean", "sum":
		default:
			p.at(key+".aggregate", "%q is not one of last, mean, sum", m.Aggregate)
		}
		if m.Aggregate != "" && m.Log == "" {
			p.at(key+".aggregate", "only a log source aggregates its matches")
		}
		if len(m.Ratio) > 0 && len(m.Ratio) != 2 {
			p.at(key+".ratio", "give two metric names: [numerator, denominator]")
		}
		for _, sel := range append([]string{m.Metric}, m.Ratio...) {
			if sel == "" {
				continue
			}
			if _, err := ParseMetricSelector(sel); err != nil {
				p.at(key, "%v", err)
			}
		}
		if (m.Metric != "" || len(m.Ratio) > 0) && s.Engine.IsCommand() {
			p.at(key, "a command engine has no metrics endpoint")
		}
		if m.Log != "" {
			checkCapture(p, key+".log", m.Log)
		}
	}
	compiled := true
	for i, m := range s.Metrics.Extra {
		if m.Expr == "" {
			continue
		}
		if _, err := compileExpr(m.Expr, seen); err != nil {
			p.at(fmt.Sprintf("metrics.extra[%d].expr", i), "%v", err)
			compiled = false
		}
	}
	if compiled {
		s.checkExprInputs(p)
	}
}

// compileExpr compiles an expression over metric names, tokens and
// model_bytes.
func compileExpr(src string, names map[string]bool) (*vm.Program, error) {
	env := map[string]any{VarTokens: 0.0, VarModelBytes: 0.0}
	for n := range names {
		env[n] = 0.0
	}
	prog, err := expr.Compile(src, expr.Env(env), expr.AsFloat64())
	if err != nil {
		return nil, fmt.Errorf("expression %q: %s", src, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	return prog, nil
}

// compileMetrics builds the policy's metric list: the primary first, then
// the built-in ones, then the scenario's own.
func (s *Scenario) compileMetrics() []MetricPolicy {
	var all []MetricPolicy
	names := map[string]bool{}
	for _, m := range schema.Metrics {
		all = append(all, MetricPolicy{Name: m.Name, Unit: m.Unit, HigherIsBetter: m.HigherIsBetter})
		names[m.Name] = true
	}
	for i := range s.Metrics.Extra {
		names[s.Metrics.Extra[i].Name] = true
	}
	for i := range s.Metrics.Extra {
		m := s.Metrics.Extra[i]
		mp := MetricPolicy{Name: m.Name, Unit: m.Unit, HigherIsBetter: m.Better != betterLow, Extra: &m}
		if m.Expr != "" {
			mp.prog, _ = compileExpr(m.Expr, names) // validated
			mp.Inputs, _ = exprInputs(m.Expr)
		}
		all = append(all, mp)
	}
	out := []MetricPolicy{}
	for _, m := range all {
		if m.Name == s.Metrics.Primary {
			out = append(out, m)
		}
	}
	for _, m := range all {
		if m.Name != s.Metrics.Primary {
			out = append(out, m)
		}
	}
	return out
}

// Metric returns the policy of a metric by name.
func (p Policy) Metric(name string) (MetricPolicy, bool) {
	for _, m := range p.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return MetricPolicy{}, false
}

// metricNames lists every metric name the scenario can report.
func (s *Scenario) metricNames() []string {
	var out []string
	for _, m := range schema.Metrics {
		out = append(out, m.Name)
	}
	for _, m := range s.Metrics.Extra {
		out = append(out, m.Name)
	}
	return out
}
