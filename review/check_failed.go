package review

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkFailedRuns reports a failed run that the evidence shows finished:
// the analysis leaves failed runs out, so an error written on a finished
// run (its values and log kept, everything re-hashed) dropped an awkward
// run from the statistics and check passed it. A run fails at the first
// step that fails, and holds only what the steps before it stored; a
// failed run is named where it holds what only a run past every step
// holds (finishedValues), or, a command engine's last attempt of its
// slot (attempts share their slot's log), where its log, stored whole,
// shows the measured run exiting well with every value the harness reads
// there (finishedLog). Genuine failures hold less: a lost timing line
// or count, a request that failed or timed out, an engine that crashed
// or would not start, or changed what it loaded mid-campaign.
func checkFailedRuns(d *safefs.Dir, s *scenarios.Scenario, rec *schema.Record) []Problem {
	var out []Problem
	var loaded loadedSeen
	for i, r := range rec.Runs {
		if r.OK() {
			loaded.add(r)
			continue
		}
		var marks *logMarks
		var w engine.StoredWindow
		last := lastAttempt(rec, i)
		if want := rec.FileSum(r.Log); last && r.Log != "" && want != "" {
			marks = &logMarks{}
			var sum string
			var err error
			if w, sum, err = readWindow(d, r.Log, marks); err != nil || sum != want {
				marks, w = nil, engine.StoredWindow{}
			}
		}
		why := finishedValues(s, rec, r, loaded.changed(s, rec, r), marks)
		if why == "" && s.Engine.IsCommand() && last {
			why = finishedLog(s, r, w, marks)
		}
		if why == "" {
			continue
		}
		out = append(out, Problem{"Raw runs", fmt.Sprintf("run %d (%s) failed (%q), yet %s: the harness keeps such a run, and a finished run marked failed leaves the statistics",
			r.Seq, termsafe.String(r.Arm), clip(termsafe.String(r.Error)), why)})
		if len(out) == maxEvidenceProblems {
			break
		}
	}
	return out
}

// lastAttempt reports whether run i is its slot's last attempt, whose
// log the slot's log file is: the run after it is of another slot (the
// attempts of a slot follow one another, checkSlots).
func lastAttempt(rec *schema.Record, i int) bool {
	return i+1 == len(rec.Runs) || rec.Runs[i+1].Seq != rec.Runs[i].Seq
}

// finishedValues says what run r holds that only a run past every step
// that fails a run holds; "" where it does not (loadedChanged: what it
// loaded may have failed it, loadedSeen). A server's run stores its
// metrics only after its measured requests, the metrics scrape and the
// props answered (harness runOne), then reads every counter, compares
// what the engine loaded with the earlier runs' and stores its streams:
// after that only the log's closing may fail it, which leaves the log
// without its stop marker (marks, the log's where it is the run's own:
// a later attempt of its slot wrote over it). A command engine's run stores its primary
// metric and token count once its output gave them (figures), then every
// counter, and names a lost count (LostCount) where it fails for one.
func finishedValues(s *scenarios.Scenario, rec *schema.Record, r schema.Run, loadedChanged bool, marks *logMarks) string {
	if len(r.Metrics) == 0 {
		return ""
	}
	for _, c := range s.Policy.Counters {
		if _, ok := r.Counters[c.Name]; !ok {
			return ""
		}
	}
	if s.Engine.IsCommand() {
		if _, ok := r.Metrics[s.Metrics.Primary]; !ok || r.LostCount != "" || !tokensRead(s, r) {
			return ""
		}
		return "it holds its primary metric, token count and every counter, and names no lost count"
	}
	measured := 0
	for _, q := range r.Requests {
		if q.Kind == schema.RequestMeasured {
			measured++
		}
	}
	switch {
	case measured < rec.Method.Requests,
		s.Concurrent() && len(r.Streams) < s.Streams(r.Arm),
		loadedChanged,
		strings.HasPrefix(r.Error, "stop engine: ") && (marks == nil || len(marks.Texts) == 0 || !strings.HasPrefix(marks.Texts[len(marks.Texts)-1], "stopped (")):
		return ""
	}
	if len(r.Loaded) > 0 {
		return "it holds its metrics, every measured request and counter, and loaded what its arm's runs before it loaded"
	}
	return "it holds its metrics, every measured request and counter"
}

// tokensRead reports whether a command engine's output gave the run's
// token count (or one the harness recorded as impossible), which it
// needs where the scenario declares a tokens pattern.
func tokensRead(s *scenarios.Scenario, r schema.Run) bool {
	if s.Engine.Output.Tokens == "" || r.TokenSource != "" {
		return true
	}
	for _, iv := range r.Impossible {
		if iv.Source == "tokens" {
			return true
		}
	}
	return false
}

// loadedSeen is what the finished runs so far loaded, by content
// (loadedSetKey): each arm's sets, and each set's arms.
type loadedSeen struct {
	byArm map[string]map[string]bool
	byKey map[string]map[string]bool
}

// add keeps what a finished run loaded.
func (l *loadedSeen) add(r schema.Run) {
	if !r.OK() || len(r.Loaded) == 0 {
		return
	}
	if l.byArm == nil {
		l.byArm, l.byKey = map[string]map[string]bool{}, map[string]map[string]bool{}
	}
	k := loadedSetKey(r.Loaded)
	if l.byArm[r.Arm] == nil {
		l.byArm[r.Arm] = map[string]bool{}
	}
	if l.byKey[k] == nil {
		l.byKey[k] = map[string]bool{}
	}
	l.byArm[r.Arm][k], l.byKey[k][r.Arm] = true, true
}

// changed reports whether what run r loaded may have failed it (harness's
// loaded), given what the finished runs before it loaded: it differs from
// an earlier finished run of its arm, or is what one of another arm, run
// by another engine of the same sha256, loaded (the refusal of an
// accidental A/A comparison).
func (l *loadedSeen) changed(s *scenarios.Scenario, rec *schema.Record, r schema.Run) bool {
	if len(r.Loaded) == 0 || l.byArm == nil {
		return false
	}
	k := loadedSetKey(r.Loaded)
	if len(l.byArm[r.Arm]) > 1 || len(l.byArm[r.Arm]) == 1 && !l.byArm[r.Arm][k] {
		return true
	}
	for arm := range l.byKey[k] {
		if arm != r.Arm && len(s.Engines()) > 1 && rec.EngineOf(arm).SHA256 == rec.EngineOf(r.Arm).SHA256 {
			return true
		}
	}
	return false
}

// loadedSetKey is a loaded set by content: each library's file name and
// sha256 (harness's loadedKey), in order.
func loadedSetKey(fs []schema.FileSum) string {
	var k []string
	for _, f := range fs {
		name := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
		k = append(k, name+" "+f.SHA256)
	}
	slices.Sort(k)
	return strings.Join(k, ",")
}

// finishedLog says what a failed command-engine run's log shows of a run
// the harness keeps: the measured run's window whole, its command
// exiting with status 0 right after it, and in the window's lines the
// primary metric (a plausible one), the token count where the scenario
// reads one, and every log and json: counter its arm needs; "" where it
// does not show all of that, or hides it (a cut log, a redacted line).
func finishedLog(s *scenarios.Scenario, r schema.Run, w engine.StoredWindow, marks *logMarks) string {
	if marks == nil || marks.Over || !w.Whole || len(w.Redacted) > 0 {
		return ""
	}
	t := marks.Texts
	start := marks.last(markWindowStart)
	if start < 1 || !strings.HasPrefix(t[start-1], "measured run: ") || marks.last(markWindowEnd) < start || t[len(t)-1] != "exited (exit status 0)" {
		return ""
	}
	for _, x := range t[marks.last(markWindowEnd)+1 : len(t)-1] {
		if !strings.HasPrefix(x, "killed ") {
			return ""
		}
	}
	lines := w.Lines
	for m, expr := range s.Engine.Output.Metrics {
		if m != s.Metrics.Primary {
			continue
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return ""
		}
		v, ok := engine.LastNumber(re, lines)
		if _, bad := engine.Impossible("metric "+m, v, false); !ok || bad {
			return ""
		}
	}
	if expr := s.Engine.Output.Tokens; expr != "" {
		re, err := regexp.Compile(expr)
		if err != nil {
			return ""
		}
		if _, ok := engine.LastNumber(re, lines); !ok {
			return ""
		}
	}
	obs := engine.Observation{Window: lines, Reply: engine.LastJSON(lines)}
	for _, cp := range s.Policy.Counters {
		if cp.Kind != schema.SourceLog && cp.Kind != schema.SourceJSON {
			if _, ok := r.Counters[cp.Name]; !ok {
				return ""
			}
			continue
		}
		k, err := engine.NewCounter(cp)
		if err != nil {
			return ""
		}
		rd, err := k.Read(obs)
		if err != nil {
			return ""
		}
		ex, has := cp.Expect[r.Arm]
		if rd.Absent && rd.Impossible == nil && has && !analysis.CounterHolds(cp, ex, analysis.Reading{}) {
			return "" // a lost count (harness's lostCount)
		}
	}
	return fmt.Sprintf("its log %s shows the measured run exiting with status 0 and printing its %s and every count its arm needs", termsafe.String(r.Log), termsafe.String(s.Metrics.Primary))
}
