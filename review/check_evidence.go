package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkEvidence re-derives, with the harness's own readers, every value of
// a run that its stored log gives, and reports each that runs.jsonl
// states otherwise: the hashes tie runs.jsonl and the logs to the record,
// but not to each other, and a counter or a command engine's metric
// edited in runs.jsonl (then re-hashed and re-rendered) turned a REJECTED
// or INCONCLUSIVE record VALID while every log still said otherwise.
//
// The values a log gives are those read from the measured window's engine
// lines (engine.Observation.Window): a log: counter of the window
// (engine.Counter.Read), a scenario metric with a log: source
// (engine.Aggregate), and a command engine's engine.output metrics and
// token count (engine.LastNumber), each kept or refused as the harness
// keeps it (engine.Impossible). Nothing is said of a value whose evidence
// is not stored whole:
//   - a run whose log the file cut to its head and tail, or whose window
//     holds a line stored redacted (engine.MeasuredWindow says which);
//   - a log: counter of phase startup: the start-up's kept lines end a
//     moment before the file's ready marker, and lines the engine wrote
//     in between are in the file, not in the start-up the counter read;
//   - a counter or metric read from the metrics endpoint, a reply field
//     or GET /props (none of them is stored), or a command's json: source
//     (its standard output is stored only as the delimited output);
//   - a derived metric (an expression of other values);
//   - a failed run, and a run whose log a later run of its slot rewrote.
//
// Each log is read once more here (checkFiles hashed it), streamed, its
// sha256 taken as it is read and compared with the record's, only the
// window being read held (at most the log's cap, maxStoredLog); only when
// the stored scenario declares a value a log gives.
func checkEvidence(d *safefs.Dir, s *scenarios.Scenario, rec *schema.Record) []Problem {
	rd := newRederiver(s)
	if rd.empty() {
		return nil
	}
	last := map[string]int{} // the last run naming each log
	for i, r := range rec.Runs {
		if r.Log != "" {
			last[r.Log] = i
		}
	}
	var out []Problem
	more := 0
	for i, r := range rec.Runs {
		if !r.OK() || r.Log == "" || last[r.Log] != i || (r.EngineOutput != nil && r.EngineOutput.LogCutBytes > 0) {
			continue
		}
		want := rec.FileSum(r.Log)
		if want == "" {
			continue // checkFiles reports a log the record names no sha256 for
		}
		w, sum, err := readWindow(d, r.Log)
		if err != nil {
			continue // too big to be a log decodebench wrote, or unreadable: checkFiles reports what it could not hash
		}
		if sum != want {
			return append(out, Problem{"Raw runs", fmt.Sprintf("%s has sha256 %.12s, the record names %.12s: changed while check read it", termsafe.String(r.Log), sum, termsafe.String(want))})
		}
		if !w.Whole {
			continue
		}
		for _, m := range rd.compare(r, w.Lines) {
			if len(out) == maxEvidenceProblems {
				more++
				continue
			}
			out = append(out, Problem{"Raw runs", fmt.Sprintf("run %d (%s): %s; its log %s gives %s", r.Seq, termsafe.String(r.Arm), m.stored, termsafe.String(r.Log), m.derived)})
		}
	}
	if more > 0 {
		out = append(out, Problem{"Raw runs", fmt.Sprintf("and %d more value(s) of runs.jsonl that their logs do not give", more)})
	}
	return out
}

// maxEvidenceProblems bounds the values checkEvidence names one by one.
const maxEvidenceProblems = 12

// maxStoredLog is the most check reads of a log to re-derive its values:
// a log decodebench wrote holds at most LogHeadBytes + LogTailBytes of
// engine output, and its marker lines besides.
const maxStoredLog = 2 * (engine.LogHeadBytes + engine.LogTailBytes)

// readWindow reads a run's log and returns its measured window and the
// sha256 of every byte read.
func readWindow(d *safefs.Dir, rel string) (engine.StoredWindow, string, error) {
	f, err := d.Open(rel, maxStoredLog)
	if err != nil {
		return engine.StoredWindow{}, "", err
	}
	defer f.Close()
	h := sha256.New()
	in := io.TeeReader(io.LimitReader(f, maxStoredLog+1), h)
	w, err := engine.MeasuredWindow(in)
	if err != nil {
		return w, "", err
	}
	_, _ = io.Copy(io.Discard, in)
	return w, hex.EncodeToString(h.Sum(nil)), nil
}

// rederiver holds the stored scenario's sources that a log gives, compiled
// as the harness compiles them.
type rederiver struct {
	counters []*engine.Counter
	logs     []scenarios.MetricPolicy
	logRE    []*regexp.Regexp
	// command engine: its output metrics, token pattern and the most
	// tokens a run asks for.
	output    map[string]*regexp.Regexp
	tokens    *regexp.Regexp
	maxTokens int
	// elsewhere are metrics another source may have written over.
	elsewhere map[string]bool
}

func newRederiver(s *scenarios.Scenario) *rederiver {
	rd := &rederiver{output: map[string]*regexp.Regexp{}, elsewhere: map[string]bool{}}
	for _, cp := range s.Policy.Counters {
		if cp.Kind != schema.SourceLog || cp.Phase == schema.PhaseStartup {
			continue
		}
		if k, err := engine.NewCounter(cp); err == nil {
			rd.counters = append(rd.counters, k)
		}
	}
	for _, mp := range s.Policy.Metrics {
		x := mp.Extra
		switch {
		case x == nil:
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
	if !s.Engine.IsCommand() {
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
	rd.maxTokens = s.Engine.Request.MaxTokens
	return rd
}

func (rd *rederiver) empty() bool {
	return len(rd.counters) == 0 && len(rd.logs) == 0 && len(rd.output) == 0 && rd.tokens == nil
}

// mismatch is one stored value and what its log gives instead.
type mismatch struct{ stored, derived string }

// compare re-derives the run's values from its window's lines.
func (rd *rederiver) compare(r schema.Run, lines []string) []mismatch {
	var out []mismatch
	metric := func(name string, v float64, ok bool) {
		got, has := r.Metrics[name]
		switch {
		case ok && !has:
			out = append(out, mismatch{fmt.Sprintf("metrics.%s is absent", name), engine.FormatValue(v)})
		case !ok && has:
			out = append(out, mismatch{fmt.Sprintf("metrics.%s is %s", name, engine.FormatValue(got)), "none"})
		case ok && got != v:
			out = append(out, mismatch{fmt.Sprintf("metrics.%s is %s", name, engine.FormatValue(got)), engine.FormatValue(v)})
		}
	}
	// The harness's order: the command's metrics, then the scenario's own
	// log metrics (which a metric of the same name would write over).
	derived := map[string]float64{}
	found := map[string]bool{}
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
	for m := range rd.output {
		metric(m, derived[m], found[m])
	}
	for _, mp := range rd.logs {
		if _, dup := rd.output[mp.Name]; !dup {
			metric(mp.Name, derived[mp.Name], found[mp.Name])
		}
	}
	if rd.tokens != nil {
		v, ok := engine.LastNumber(rd.tokens, lines)
		if _, bad := engine.ImpossibleTokens("tokens", v, rd.maxTokens); ok && !bad && r.Tokens != int(v) {
			out = append(out, mismatch{fmt.Sprintf("tokens is %d", r.Tokens), fmt.Sprint(int(v))})
		}
	}
	for _, k := range rd.counters {
		got, err := k.Read(engine.Observation{Window: lines})
		if err != nil {
			continue // the harness fails such a run
		}
		st, has := r.Counters[k.Name]
		switch {
		case !has:
			out = append(out, mismatch{fmt.Sprintf("counters.%s is absent", termsafe.String(k.Name)), engine.FormatValue(got.Value)})
		case st.Value != got.Value || st.Absent != got.Absent:
			out = append(out, mismatch{fmt.Sprintf("counters.%s.value is %s%s", termsafe.String(k.Name), engine.FormatValue(st.Value), absentText(st.Absent)),
				engine.FormatValue(got.Value) + absentText(got.Absent)})
		}
	}
	return out
}

func absentText(absent bool) string {
	if absent {
		return " (absent)"
	}
	return ""
}
