package review

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkRequests holds every run's served requests to the method: a
// start serves method.warmup warmups, then method.requests measured
// requests, in that order (harness runOne; warmups sent again after a
// busy quiet gate take the first ones' place), and only its last warmup
// may go whole (for the identity check's token ids). A run's metrics are
// the mean of its measured requests (analysis.StartMetrics), so the
// slowest measured request relabelled a warmup, the record re-analysed,
// moved the verdict while check passed it. A finished run holds them
// all; a failed one those it served before it failed. A command engine's
// run, and a record from before requests were kept (method.requests 0),
// holds none.
func checkRequests(s *scenarios.Scenario, rec *schema.Record) []Problem {
	w, n := rec.Method.Warmup, rec.Method.Requests
	var out []Problem
	for _, r := range rec.Runs {
		p := ""
		switch {
		case len(r.Requests) == 0 && (n == 0 || s.Engine.IsCommand() || !r.OK()):
		case s.Engine.IsCommand():
			p = fmt.Sprintf("holds %d served requests, where a command engine's run keeps none", len(r.Requests))
		case n == 0:
			p = fmt.Sprintf("holds %d served requests, where a record without method.requests (from before they were kept) keeps none", len(r.Requests))
		default:
			p = requestsProblem(r, w, n)
		}
		if p == "" {
			continue
		}
		out = append(out, Problem{"Raw runs", fmt.Sprintf("run %d (%s) %s", r.Seq, termsafe.String(r.Arm), p)})
		if len(out) == maxEvidenceProblems {
			break
		}
	}
	return out
}

// requestsProblem says how a server run's requests differ from w warmups
// followed by n measured requests (all of them where the run finished);
// "" where they do not.
func requestsProblem(r schema.Run, w, n int) string {
	kinds := make([]string, len(r.Requests))
	bad := len(r.Requests) > w+n || r.OK() && len(r.Requests) != w+n
	for i, q := range r.Requests {
		kinds[i] = string(q.Kind)
		want := schema.RequestMeasured
		if i < w {
			want = schema.RequestWarmup
		}
		bad = bad || q.Kind != want || q.Whole && i != w-1
	}
	if !bad {
		return ""
	}
	what := "a finished run serves all of them"
	if !r.OK() {
		what = "a failed run those it served before it failed"
	}
	return fmt.Sprintf("served %s (%d), where method.warmup %d and method.requests %d give each start its warmups, then its measured requests, the last warmup alone sent whole; %s",
		termsafe.String(strings.Join(kinds, ", ")), len(kinds), w, n, what)
}

// warmupMarksProblem compares the warmups a finished run's log marks
// before its measured window with method.warmup (w): a server's log
// marks each warmup request ("warmup request N", after its ready marker,
// or after the marker of warmups sent again), a command engine's each
// warmup run ("warmup run N (discarded): ...", before its measured run).
// "" where they agree, where the markers were not all kept, or where the
// log does not show the stage the warmups are marked in (a server's
// ready marker, a command engine's measured run's marker before its
// window).
func warmupMarksProblem(s *scenarios.Scenario, w int, marks *logMarks) string {
	if marks == nil || marks.Over {
		return ""
	}
	start := marks.last(markWindowStart)
	if start < 1 {
		return ""
	}
	before := marks.Texts[:start]
	prefix := "warmup request "
	shown := false
	if s.Engine.IsCommand() {
		prefix, shown = "warmup run ", strings.HasPrefix(before[start-1], "measured run: ")
	} else {
		for i := len(before) - 1; i >= 0 && !shown; i-- {
			if strings.HasPrefix(before[i], "ready on port ") || strings.HasPrefix(before[i], "warmups sent again") {
				before, shown = before[i+1:], true
			}
		}
	}
	if !shown {
		return ""
	}
	var got []string
	for _, t := range before {
		if strings.HasPrefix(t, prefix) {
			got = append(got, t)
		}
	}
	ok := len(got) == w
	for i := 0; ok && i < w; i++ {
		num, _, _ := strings.Cut(strings.TrimPrefix(got[i], prefix), " ")
		ok = num == fmt.Sprint(i+1)
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("marks %d warmup(s) before its measured window, where method.warmup is %d", len(got), w)
}
