package analysis

import (
	"math"
	"strings"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// The host's own history as a sentinel. A host can run slow with no
// counter saying so (a Mac in Automatic power mode loses much of its decode
// rate at nominal clocks and thermal state): only its own earlier records
// of the same scenario show it. The baseline's median of the primary metric
// is compared with a robust band around the median of those records:
//
//	median ± max(HistoryK · 1.4826 · MAD, HistoryMinHalfWidth · median)
//
// over at least HistoryMinRecords and at most HistoryMaxRecords records
// (the newest). 1.4826 · MAD estimates the standard deviation of normal
// noise without letting one odd record widen the band; HistoryK = 3 is the
// conventional "very conservative" cut for an outlier by the median
// absolute deviation (Leys et al., 2013): with so few records the MAD
// itself is rough, and a warning that cries wolf is soon ignored.
// The floor keeps a history whose records happen to agree to a fraction
// of a percent from flagging a run that differs by as little: campaigns
// minutes apart on one host move their raw rates by a few percent.
const (
	HistoryK            = 3.0
	HistoryMinRecords   = 4
	HistoryMaxRecords   = 20
	HistoryMinHalfWidth = 0.05
	madToSigma          = 1.4826
)

// HistoryBand is the band of a host's earlier records.
type HistoryBand struct {
	N              int
	Median, MAD    float64
	Lo, Hi         float64
	FlooredByWidth bool // the floor, not the MAD, set the band's width
}

// HostBand is the band of h's records; false when there are fewer than
// HistoryMinRecords with a value.
func HostBand(h *schema.HostHistory) (HistoryBand, bool) {
	if h == nil {
		return HistoryBand{}, false
	}
	var xs []float64
	for _, r := range h.Records {
		if stats.Finite(r.Value) {
			xs = append(xs, r.Value)
		}
	}
	if len(xs) < HistoryMinRecords {
		return HistoryBand{}, false
	}
	s := stats.Summarize(xs)
	spread, floor := HistoryK*madToSigma*s.MAD, HistoryMinHalfWidth*math.Abs(s.Median)
	half := max(spread, floor)
	return HistoryBand{N: len(xs), Median: s.Median, MAD: s.MAD, Lo: s.Median - half, Hi: s.Median + half, FlooredByWidth: floor > spread}, true
}

// hostHistory is the warning that the baseline ran outside its host's
// history (Campaign.History), if it did.
func hostHistory(in Input, results []schema.MetricResult) []schema.Reason {
	h := in.Campaign.History
	band, ok := HostBand(h)
	if !ok {
		return nil
	}
	for _, mr := range results {
		if mr.Metric != h.Metric {
			continue
		}
		for _, a := range mr.Arms {
			if a.Arm != h.Arm || a.N == 0 || !stats.Finite(a.Median) || band.Median == 0 {
				continue
			}
			if a.Median >= band.Lo && a.Median <= band.Hi {
				return nil
			}
			change := a.Median/band.Median - 1
			w := schema.HostOffHistory{Arm: a.Arm, Metric: mr.Metric, Value: a.Median, Median: band.Median, Lo: band.Lo, Hi: band.Hi,
				Change: change, Worse: (change < 0) == mr.HigherIsBetter, Records: len(h.Records)}
			var names []string
			for _, r := range h.Records {
				names = append(names, r.Record)
				if r.OtherEngine {
					w.OtherEngine++
				}
			}
			w.Compared = strings.Join(names, ", ")
			return []schema.Reason{w}
		}
	}
	return nil
}
