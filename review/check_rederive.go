package review

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// rederiver holds the stored scenario's sources that a log gives, compiled
// as the harness compiles them.
type rederiver struct {
	counters []*engine.Counter
	// json and jsonMetrics are a command engine's json: counters and
	// metrics, read from the last line of its standard output that is a
	// JSON object.
	json        []*engine.Counter
	jsonMetrics []scenarios.MetricPolicy
	logs        []scenarios.MetricPolicy
	logRE       []*regexp.Regexp
	// command engine: its output metrics, token pattern, the most tokens
	// a run asks for, and the delimiters of its generated text.
	command       bool
	output        map[string]*regexp.Regexp
	tokens        *regexp.Regexp
	maxTokens     int
	after, before *regexp.Regexp
	// elsewhere are metrics another source may have written over.
	elsewhere map[string]bool
}

func newRederiver(s *scenarios.Scenario) *rederiver {
	rd := &rederiver{output: map[string]*regexp.Regexp{}, elsewhere: map[string]bool{}, command: s.Engine.IsCommand()}
	for _, cp := range s.Policy.Counters {
		k, err := engine.NewCounter(cp)
		switch {
		case err != nil:
		case cp.Kind == schema.SourceLog && cp.Phase != schema.PhaseStartup:
			rd.counters = append(rd.counters, k)
		case cp.Kind == schema.SourceJSON && rd.command:
			rd.json = append(rd.json, k)
		}
	}
	for _, mp := range s.Policy.Metrics {
		x := mp.Extra
		switch {
		case x == nil:
		case x.JSON != "" && rd.command:
			rd.jsonMetrics, rd.elsewhere[mp.Name] = append(rd.jsonMetrics, mp), true
		case x.Log != "" && x.Expr == "":
			if re, err := regexp.Compile(x.Log); err == nil {
				rd.logs, rd.logRE = append(rd.logs, mp), append(rd.logRE, re)
				continue
			}
			rd.elsewhere[mp.Name] = true
		default:
			rd.elsewhere[mp.Name] = true
		}
	}
	if !rd.command {
		return rd
	}
	o := s.Engine.Output
	for m, expr := range o.Metrics {
		if re, err := regexp.Compile(expr); err == nil && !rd.elsewhere[m] {
			rd.output[m] = re
		}
	}
	if o.Tokens != "" {
		rd.tokens, _ = regexp.Compile(o.Tokens)
	}
	if o.Text.After != "" {
		rd.after, _ = regexp.Compile(o.Text.After)
	}
	if o.Text.Before != "" {
		rd.before, _ = regexp.Compile(o.Text.Before)
	}
	rd.maxTokens = s.Engine.Request.MaxTokens
	return rd
}

func (rd *rederiver) empty() bool {
	return len(rd.counters) == 0 && len(rd.json) == 0 && len(rd.jsonMetrics) == 0 && len(rd.logs) == 0 && !rd.command
}

// mismatch is one stored value and what its log gives instead. holds
// says whether lines give the stored value; subs are the texts of the
// stored value that a redacted line may have hidden.
type mismatch struct {
	stored, derived string
	holds           func(lines []string) bool
	subs            []string
}

// metrics re-derives the run's metrics from the window's lines, in the
// harness's order: the command's metrics, then the scenario's own log
// metrics (which a metric of the same name would write over).
func (rd *rederiver) metrics(lines []string) (map[string]float64, map[string]bool) {
	derived, found := map[string]float64{}, map[string]bool{}
	for m, re := range rd.output {
		v, ok := engine.LastNumber(re, lines)
		if _, bad := engine.Impossible("metric "+m, v, false); ok && !bad {
			derived[m], found[m] = v, true
		}
	}
	for i, mp := range rd.logs {
		v, ok := engine.Aggregate(rd.logRE[i], lines, mp.Extra.Aggregate)
		if _, bad := engine.Impossible("metric "+mp.Name, v, true); ok && !bad {
			derived[mp.Name], found[mp.Name] = v, true
		}
	}
	return derived, found
}

// compare re-derives the run's values from its window's lines.
func (rd *rederiver) compare(r schema.Run, lines []string) []mismatch {
	var out []mismatch
	derived, found := rd.metrics(lines)
	metric := func(name string) {
		got, has := r.Metrics[name]
		v, ok := derived[name], found[name]
		holds := func(l []string) bool {
			d, f := rd.metrics(l)
			return f[name] == has && (!has || d[name] == got)
		}
		subs := []string{engine.FormatValue(got)}
		switch {
		case ok && !has:
			out = append(out, mismatch{fmt.Sprintf("metrics.%s is absent", name), engine.FormatValue(v), holds, nil})
		case !ok && has:
			out = append(out, mismatch{fmt.Sprintf("metrics.%s is %s", name, engine.FormatValue(got)), "none", holds, subs})
		case ok && got != v:
			out = append(out, mismatch{fmt.Sprintf("metrics.%s is %s", name, engine.FormatValue(got)), engine.FormatValue(v), holds, subs})
		}
	}
	for m := range rd.output {
		metric(m)
	}
	for _, mp := range rd.logs {
		if _, dup := rd.output[mp.Name]; !dup {
			metric(mp.Name)
		}
	}
	if rd.tokens != nil {
		tokens := func(l []string) (int, bool) {
			v, ok := engine.LastNumber(rd.tokens, l)
			_, bad := engine.ImpossibleTokens("tokens", v, rd.maxTokens)
			return int(v), ok && !bad
		}
		if v, ok := tokens(lines); ok && r.Tokens != v {
			holds := func(l []string) bool { v, ok := tokens(l); return !ok || v == r.Tokens }
			out = append(out, mismatch{fmt.Sprintf("tokens is %d", r.Tokens), fmt.Sprint(v), holds, []string{fmt.Sprint(r.Tokens)}})
		}
	}
	for _, k := range rd.counters {
		out = append(out, counterMismatch(k, r, lines, func(l []string) engine.Observation { return engine.Observation{Window: l} })...)
	}
	for _, k := range rd.json {
		out = append(out, counterMismatch(k, r, lines, func(l []string) engine.Observation {
			return engine.Observation{Window: l, Reply: engine.LastJSON(l)}
		})...)
	}
	for _, mp := range rd.jsonMetrics {
		out = append(out, jsonMetricMismatch(mp, r, lines)...)
	}
	if rd.command {
		out = append(out, rd.outputMismatch(r, lines)...)
	}
	return out
}

// jsonMetricMismatch compares a command engine's json: metric with the
// value the last JSON line of the window gives, as the harness reads it
// (kept where it can be true); as for a json: counter (counterMismatch),
// the reading of any JSON line of the window holds.
func jsonMetricMismatch(mp scenarios.MetricPolicy, r schema.Run, lines []string) []mismatch {
	got, has := r.Metrics[mp.Name]
	read := func(reply map[string]any) (float64, bool) {
		v, found, err := engine.JSONPath(reply, mp.Extra.JSON)
		_, bad := engine.Impossible("metric "+mp.Name, v, true)
		return v, found && err == nil && !bad
	}
	same := func(reply map[string]any) bool { v, ok := read(reply); return ok == has && (!ok || v == got) }
	holds := func(l []string) bool {
		if same(engine.LastJSON(l)) {
			return true
		}
		for _, line := range l {
			if v := engine.JSONLine(line); v != nil && same(v) {
				return true
			}
		}
		return false
	}
	if holds(lines) {
		return nil
	}
	v, ok := read(engine.LastJSON(lines))
	name := termsafe.String(mp.Name)
	return []mismatch{{fmt.Sprintf("metrics.%s is %s", name, present(has, got)), present(ok, v), holds, []string{engine.FormatValue(got)}}}
}

// counterMismatch compares a counter's stored reading with the one the
// observation of lines gives. A json: counter reads the last line of
// standard output that is a JSON object, and the log interleaves
// standard error with it: the reading of any JSON line of the window
// holds.
func counterMismatch(k *engine.Counter, r schema.Run, lines []string, obs func([]string) engine.Observation) []mismatch {
	st, has := r.Counters[k.Name]
	same := func(got engine.Reading) bool { return has && st.Value == got.Value && st.Absent == got.Absent }
	holds := func(l []string) bool {
		got, err := k.Read(obs(l))
		if err != nil || same(got) {
			return true // the harness fails a run whose counter it cannot read
		}
		if k.Kind != schema.SourceJSON {
			return false
		}
		for _, line := range l {
			if v := engine.JSONLine(line); v != nil {
				if got, err := k.Read(engine.Observation{Reply: v}); err == nil && same(got) {
					return true
				}
			}
		}
		return false
	}
	got, err := k.Read(obs(lines))
	if err != nil || holds(lines) {
		return nil
	}
	name := termsafe.String(k.Name)
	subs := []string{engine.FormatValue(st.Value)}
	if st.Text != "" {
		subs = append(subs, st.Text)
	}
	if !has {
		return []mismatch{{fmt.Sprintf("counters.%s is absent", name), engine.FormatValue(got.Value), holds, nil}}
	}
	return []mismatch{{fmt.Sprintf("counters.%s.value is %s%s", name, engine.FormatValue(st.Value), absentText(st.Absent)),
		engine.FormatValue(got.Value) + absentText(got.Absent), holds, subs}}
}

// outputMismatch compares a command engine's stored output with the text
// the harness delimits in the window's lines (engine.CommandText); where
// standard error interleaved with standard output the two differ, and
// the stored text must still be one the window holds (engine.StdoutFits).
func (rd *rederiver) outputMismatch(r schema.Run, lines []string) []mismatch {
	holds := func(l []string) bool {
		return engine.CommandText(strings.Join(l, "\n"), rd.after, rd.before) == r.Output || engine.StdoutFits(r.Output, l)
	}
	if holds(lines) {
		return nil
	}
	derived := engine.CommandText(strings.Join(lines, "\n"), rd.after, rd.before)
	return []mismatch{{fmt.Sprintf("output is %q", clip(r.Output)), fmt.Sprintf("%q", clip(derived)), holds, nil}}
}

// clip shortens a text named in a problem.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func absentText(absent bool) string {
	if absent {
		return " (absent)"
	}
	return ""
}
