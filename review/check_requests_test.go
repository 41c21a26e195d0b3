package review

import (
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// A run's served requests are its start's: method.warmup warmups, then
// method.requests measured ones, in order, as its log marks the warmups.
// A forged record that relabels a measured request a warmup (the run's
// mean then leaves it out), drops or reorders requests, sends a measured
// one whole, gives a command engine's run requests, leaves
// method.requests out over runs that keep them, or whose stored scenario
// and runs claim warmups the logs do not mark, fails check; a failed
// run's requests so far pass.
func TestCheckHoldsRequestsToTheMethod(t *testing.T) {
	at := func(i int, f func(r *schema.Run)) func(*schema.Record) {
		return func(rec *schema.Record) { f(&rec.Runs[i]) }
	}
	const layout = "where method.warmup 1 and method.requests 3 give each start its warmups, then its measured requests"
	for name, c := range map[string]struct {
		record string
		f      forgery
		want   []string
	}{
		"as written": {record: requestsName},
		"a measured request relabelled": {record: requestsName, f: forgery{record: at(2, func(r *schema.Run) { r.Requests[3].Kind = schema.RequestWarmup })},
			want: []string{"run 3 (draft) served warmup, measured, measured, warmup (4), " + layout}},
		"a measured request dropped": {record: requestsName, f: forgery{record: at(2, func(r *schema.Run) { r.Requests = r.Requests[:3] })},
			want: []string{"run 3 (draft) served warmup, measured, measured (3), " + layout, "a finished run serves all of them"}},
		"the warmup last": {record: requestsName, f: forgery{record: at(2, func(r *schema.Run) { r.Requests = append(r.Requests[1:], r.Requests[0]) })},
			want: []string{"run 3 (draft) served measured, measured, measured, warmup (4)"}},
		"a measured request sent whole": {record: requestsName, f: forgery{record: at(2, func(r *schema.Run) { r.Requests[2].Whole = true })},
			want: []string{"run 3 (draft) served warmup, measured, measured, measured (4), " + layout + ", the last warmup alone sent whole"}},
		"a failed run's requests so far": {record: requestsName, f: forgery{onFailure: "continue", record: at(4, func(r *schema.Run) {
			f := failedAttempt(*r, r.Start.Add(time.Second))
			f.Requests = r.Requests[:2]
			*r = f
		})}},
		"a command run's requests": {record: evidenceName, f: forgery{record: at(3, func(r *schema.Run) {
			r.Requests = []schema.ServedRequest{{Kind: schema.RequestMeasured}}
		})}, want: []string{"run 4 (t2) holds 1 served requests, where a command engine's run keeps none"}},
		"method.requests left out": {record: requestsName, f: forgery{record: func(rec *schema.Record) { rec.Method.Requests = 0 }},
			want: []string{"run 1 (classic) holds 4 served requests, where a record without method.requests (from before they were kept) keeps none"}},
		"a warmup mark removed": {record: requestsName, f: forgery{logs: []logEdit{{log: "logs/run-003-draft.log", edit: lastLine("warmup request 1", "")}}},
			want: []string{"run 3 (draft): its log logs/run-003-draft.log marks 0 warmup(s) before its measured window, where method.warmup is 1"}},
		"a command warmup mark removed": {record: evidenceName, f: forgery{logs: []logEdit{{log: "logs/run-010-t1.log", edit: lastLine("warmup run 1 (discarded)", "")}}},
			want: []string{"run 10 (t1): its log logs/run-010-t1.log marks 0 warmup(s) before its measured window, where method.warmup is 1"}},
		"warmups the logs do not mark": {record: requestsName, f: forgery{set: []string{"schedule.warmup=2", "schedule.requests=2"}, record: func(rec *schema.Record) {
			for i := range rec.Runs {
				rec.Runs[i].Requests[1].Kind = schema.RequestWarmup
			}
		}}, want: []string{"run 1 (classic): its log logs/run-001-classic.log marks 1 warmup(s) before its measured window, where method.warmup is 2"}},
	} {
		t.Run(name, func(t *testing.T) {
			wantProblems(t, problemsOf(t, forgedRuns(t, c.record, c.f)), c.want...)
		})
	}
}
