package history

import (
	"cmp"
	"slices"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Earlier are the records of recs that rec's host history compares it
// with, newest first: the same feature, hardware slug and scenario meaning
// (its hash), a verdict whose numbers count (Counts), started before rec,
// with a median of the primary metric for the baseline arm.
func Earlier(recs []Record, rec *schema.Record) []Record {
	var out []Record
	for _, r := range recs {
		o := r.Rec
		if o.Feature != rec.Feature || o.Hardware != rec.Hardware || o.Scenario.Hash != rec.Scenario.Hash ||
			!Counts(o.Verdict) || !o.Method.Started.Before(rec.Method.Started) {
			continue
		}
		if _, ok := BaselineMedian(o); ok {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b Record) int {
		return cmp.Or(b.Rec.Method.Started.Compare(a.Rec.Method.Started), cmp.Compare(b.Stem, a.Stem))
	})
	return out
}

// BaselineMedian is the baseline arm's median of the record's primary
// metric.
func BaselineMedian(rec *schema.Record) (float64, bool) {
	mr, ok := rec.Result(rec.Scenario.Primary)
	if !ok {
		return 0, false
	}
	for _, a := range mr.Arms {
		if a.Arm == rec.Scenario.Baseline && a.N > 0 && stats.Finite(a.Median) {
			return a.Median, true
		}
	}
	return 0, false
}

// HostHistory is rec's host history over the earlier records given
// (newest first, as Earlier orders them).
func HostHistory(rec *schema.Record, earlier []Record) *schema.HostHistory {
	h := &schema.HostHistory{Arm: rec.Scenario.Baseline, Metric: rec.Scenario.Primary}
	engine := rec.EngineOf(rec.Scenario.Baseline).SHA256
	for _, r := range earlier {
		v, ok := BaselineMedian(r.Rec)
		if !ok {
			continue
		}
		h.Records = append(h.Records, schema.HistoryValue{Record: r.Stem, Date: r.Rec.Date, Value: v,
			OtherEngine: r.Rec.EngineOf(r.Rec.Scenario.Baseline).SHA256 != engine})
	}
	return h
}
