package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
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
// Every run names its own log as the harness names it (checkRunLogs), and
// every finished run's log is listed and read: where it shows them, it
// marks method.warmup warmups (warmupMarksProblem). The values a log gives are
// those read from the measured window's engine lines
// (engine.Observation.Window): a log: counter of the window
// (engine.Counter.Read), a scenario metric with a log: source
// (engine.Aggregate), and a command engine's engine.output metrics and
// token count (engine.LastNumber), its json: counters (engine.LastJSON)
// and its generated text (engine.CommandText), each kept or refused as
// the harness keeps it (engine.Impossible). A line the file stores
// redacted hides only its secret: a value it gives otherwise holds only
// where the stored value in the mask's place gives it. A server engine's
// timings (engine_timings, and each measured request's) are held to the
// print_timing lines llama-server writes into the window
// (timingMismatches). Nothing is said of a value whose evidence is not
// stored:
//   - a run whose log the file cut to its head and tail, where the file
//     has a cut log's size and marker (engine.MeasuredWindow); a cut the
//     file does not show, or a window it does not show otherwise, is a
//     problem, and log_cut_bytes names the bytes the cut marker names;
//   - a log: counter of phase startup: the start-up's kept lines end a
//     moment before the file's ready marker, and lines the engine wrote
//     in between are in the file, not in the start-up the counter read;
//   - a counter or metric read from the metrics endpoint, a server's
//     reply field or GET /props (none of them is stored);
//   - a derived metric (an expression of other values: checkDerived
//     computes it again from them);
//   - a failed run.
//
// The log's marker lines tie the run to it besides: the command line each
// launch names is its arm's (launchProblems), and each lies within the
// run's times (logTimeProblem).
//
// Each log is read once more here (checkFiles hashed it), streamed, its
// sha256 taken as it is read and compared with the record's, only the
// window being read held (at most the log's cap, maxStoredLog).
func checkEvidence(d *safefs.Dir, s *scenarios.Scenario, rec *schema.Record) []Problem {
	out := checkRunLogs(rec)
	rd := newRederiver(s)
	var markers problemTally
	more := 0
	add := func(p Problem) {
		if len(out) >= maxEvidenceProblems {
			more++
			return
		}
		out = append(out, p)
	}
	for _, r := range rec.Runs {
		want := rec.FileSum(r.Log)
		if !r.OK() || want == "" {
			continue // checkRunLogs names a finished run's log the record does not list
		}
		at := fmt.Sprintf("run %d (%s): its log %s", r.Seq, termsafe.String(r.Arm), termsafe.String(r.Log))
		marks := &logMarks{}
		w, sum, err := readWindow(d, r.Log, marks)
		if err != nil {
			// Past maxStoredLog only a log that several command runs
			// appended to, each cut, may be; check hashed it.
			if !appends(s) {
				add(Problem{"Raw runs", fmt.Sprintf("%s: %s", at, termsafe.String(err.Error()))})
			}
			continue
		}
		if sum != want {
			return append(out, Problem{"Raw runs", fmt.Sprintf("%s has sha256 %.12s, the record names %.12s: changed while check read it", termsafe.String(r.Log), sum, termsafe.String(want))})
		}
		who := fmt.Sprintf("run %d (%s): ", r.Seq, termsafe.String(r.Arm))
		for _, m := range launchProblems(rec, r, w) {
			markers.add("launch "+r.Arm, Problem{"Engine", who + m})
		}
		if m := logTimeProblem(r, w); m != "" {
			markers.add("times", Problem{"Raw runs", who + m})
		}
		if p := cutProblem(s, r, w); p != "" {
			add(Problem{"Raw runs", at + " " + p})
			continue
		}
		if !w.Whole {
			continue
		}
		if p := warmupMarksProblem(s, rec.Method.Warmup, marks); p != "" {
			add(Problem{"Raw runs", at + " " + p})
		}
		if !s.Engine.IsCommand() {
			for _, m := range append(timingMismatches(r, w.Lines), windowSpan(r, w)) {
				if m != "" {
					add(Problem{"Raw runs", fmt.Sprintf("run %d (%s): %s", r.Seq, termsafe.String(r.Arm), m)})
				}
			}
		}
		if rd.empty() {
			continue
		}
		for _, m := range rd.compare(r, w.Lines) {
			if !hidden(m, w) {
				add(Problem{"Raw runs", fmt.Sprintf("run %d (%s): %s; its log %s gives %s", r.Seq, termsafe.String(r.Arm), m.stored, termsafe.String(r.Log), m.derived)})
			}
		}
	}
	if more > 0 {
		out = append(out, Problem{"Raw runs", fmt.Sprintf("and %d more problem(s) of runs.jsonl and the logs that should give its values", more)})
	}
	return append(out, markers.problems()...)
}

// checkRunLogs reports a run that does not name its own log as the
// harness names it (schema.RunLog): a finished run's log, named, listed
// among the record's files and so present, is where its values are read
// again; a failed run names its slot's log, or none where it failed
// before its engine started. Only the attempts of one slot share a log.
func checkRunLogs(rec *schema.Record) []Problem {
	var out []Problem
	for _, r := range rec.Runs {
		own := schema.RunLog(r.Seq, r.Arm)
		switch {
		case r.OK() && r.Log == "":
			out = append(out, Problem{"Raw runs", fmt.Sprintf("run %d (%s) names no engine log; the harness names %s", r.Seq, termsafe.String(r.Arm), termsafe.String(own))})
		case r.Log != "" && r.Log != own:
			out = append(out, Problem{"Raw runs", fmt.Sprintf("run %d (%s) names the engine log %s; the harness names its %s", r.Seq, termsafe.String(r.Arm), termsafe.String(r.Log), termsafe.String(own))})
		case r.OK() && rec.FileSum(r.Log) == "":
			out = append(out, Problem{"Raw runs", fmt.Sprintf("run %d (%s): its engine log %s is not among the record's files", r.Seq, termsafe.String(r.Arm), termsafe.String(r.Log))})
		}
		if len(out) == maxEvidenceProblems {
			break
		}
	}
	return out
}

// cutProblem says what is wrong with a finished run's log that does not
// show its window, or with the cut the run states: engine_output's
// log_cut_bytes is set exactly where the log was cut, to the bytes its
// cut marker names (a command engine's warmups append to the log, and a
// warmup's cut may stand beside a measured run that cut nothing).
func cutProblem(s *scenarios.Scenario, r schema.Run, w engine.StoredWindow) string {
	var stated int64
	if r.EngineOutput != nil {
		stated = r.EngineOutput.LogCutBytes
	}
	named := false
	for _, n := range w.CutBytes {
		named = named || n == stated
	}
	switch {
	case !w.Whole && !w.Cut:
		return "is not a finished run's log: " + w.Why
	case stated > 0 && !named:
		return fmt.Sprintf("shows no cut of %d bytes, which engine_output.log_cut_bytes states", stated)
	case stated == 0 && slices.Max(append([]int64{0}, w.CutBytes...)) > 0 && !appends(s):
		return fmt.Sprintf("was cut (%d bytes left out), which engine_output.log_cut_bytes does not state", slices.Max(w.CutBytes))
	}
	return ""
}

// appends reports whether a run's log holds several engine runs: a
// command engine's warmups and measured run, each cut on its own.
func appends(s *scenarios.Scenario) bool { return s.Engine.IsCommand() && s.Schedule.Warmup > 0 }

// hidden reports whether a value the window's lines give otherwise is one
// its redacted lines may have hidden: the stored value, written in the
// mask's place in those lines, gives the stored value.
func hidden(m mismatch, w engine.StoredWindow) bool {
	if len(w.Redacted) == 0 || m.holds == nil {
		return false
	}
	for _, sub := range m.subs {
		lines := append([]string(nil), w.Lines...)
		for _, i := range w.Redacted {
			lines[i] = strings.ReplaceAll(lines[i], redact.Mask, sub)
		}
		if m.holds(lines) {
			return true
		}
	}
	return false
}

// maxEvidenceProblems bounds the values checkEvidence names one by one.
const maxEvidenceProblems = 12

// maxStoredLog is the most check reads of a log to re-derive its values:
// a log decodebench wrote holds at most LogHeadBytes + LogTailBytes of
// engine output, and its marker lines besides.
const maxStoredLog = 2 * (engine.LogHeadBytes + engine.LogTailBytes)

// readWindow reads a run's log and returns its measured window and the
// sha256 of every byte read; marks, when not nil, collects its marker
// lines as they are read.
func readWindow(d *safefs.Dir, rel string, marks *logMarks) (engine.StoredWindow, string, error) {
	f, err := d.Open(rel, maxStoredLog)
	if err != nil {
		return engine.StoredWindow{}, "", err
	}
	defer f.Close()
	h := sha256.New()
	var to io.Writer = h
	if marks != nil {
		to = io.MultiWriter(h, marks)
		defer marks.end()
	}
	in := io.TeeReader(io.LimitReader(f, maxStoredLog+1), to)
	w, err := engine.MeasuredWindow(in)
	if err != nil {
		return w, "", err
	}
	_, _ = io.Copy(io.Discard, in)
	return w, hex.EncodeToString(h.Sum(nil)), nil
}
