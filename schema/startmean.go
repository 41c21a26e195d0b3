package schema

import (
	"math"
	"sort"
)

// StartMetrics is an engine start's value of each metric its measured
// requests all carry: with one measured request, that request's; with
// several, their mean on log scale (the geometric mean), or their
// arithmetic mean where a value is not positive. The start, not the
// request, is the unit the analysis replicates: requests of one start
// share its between-start draw, and treating them as independent runs
// would understate the noise (schedule.requests).
func StartMetrics(reqs []ServedRequest) map[string]float64 {
	var measured []map[string]float64
	for _, r := range reqs {
		if r.Kind == RequestMeasured {
			measured = append(measured, r.Metrics)
		}
	}
	out := map[string]float64{}
	if len(measured) == 0 {
		return out
	}
	if len(measured) == 1 {
		for k, v := range measured[0] {
			out[k] = v
		}
		return out
	}
	names := make([]string, 0, len(measured[0]))
	for k := range measured[0] {
		names = append(names, k)
	}
	sort.Strings(names)
next:
	for _, k := range names {
		logs, sum, positive := 0.0, 0.0, true
		for _, m := range measured {
			v, ok := m[k]
			if !ok {
				continue next // absent in one request: absent for the start
			}
			sum += v
			if v > 0 {
				logs += math.Log(v)
			} else {
				positive = false
			}
		}
		n := float64(len(measured))
		if positive {
			out[k] = math.Exp(logs / n)
		} else {
			out[k] = sum / n
		}
	}
	return out
}

// PerStart is the metrics a run is analysed by: its stored metrics, with
// the start's value (StartMetrics) of every metric its measured requests
// carry when it served several, derived afresh from the raw requests, so
// that the verdict follows from every request as stored.
func PerStart(metrics map[string]float64, reqs []ServedRequest) map[string]float64 {
	if MeasuredCount(reqs) < 2 {
		return metrics
	}
	out := make(map[string]float64, len(metrics))
	for k, v := range metrics {
		out[k] = v
	}
	for k, v := range StartMetrics(reqs) {
		out[k] = v
	}
	return out
}

// Analysed is the metrics the analysis reads of the run (PerStart): every
// reader of a run's values (diff, export, the roofline) reads them so, and
// none reads a run-level value its requests do not give.
func (r Run) Analysed() map[string]float64 { return PerStart(r.Metrics, r.Requests) }

// MeasuredCount is the number of measured requests among reqs.
func MeasuredCount(reqs []ServedRequest) int {
	n := 0
	for _, r := range reqs {
		if r.Kind == RequestMeasured {
			n++
		}
	}
	return n
}
