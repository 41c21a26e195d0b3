package analysis

import (
	"sort"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// StreamRate is one concurrent stream's decode rate: its tokens after its
// first token event over the time from that event to its last, as
// decode_tok_s is for a single request; 0 when undefined.
func StreamRate(s schema.Stream) float64 {
	n := s.Tokens - s.FirstEventTokens
	d := (s.LastTokenMs - s.FirstTokenMs) / 1000
	if n <= 0 || d <= 0 {
		return 0
	}
	return float64(n) / d
}

// StreamMetrics derives the concurrent-stream metrics (schema.StreamDecodeTokS
// and the others; their definitions are there) from a run's streams. A
// metric with no defined value is left out; nil without streams. The
// campaign stores what this returns and check derives it again.
func StreamMetrics(streams []schema.Stream) map[string]float64 {
	if len(streams) == 0 {
		return nil
	}
	out := map[string]float64{}
	var rates, ttfts []float64
	decoded := 0
	first, last := streams[0].FirstTokenMs, streams[0].LastTokenMs
	for _, s := range streams {
		if r := StreamRate(s); r > 0 {
			rates = append(rates, r)
		}
		ttfts = append(ttfts, s.FirstTokenMs)
		decoded += max(s.Tokens-s.FirstEventTokens, 0)
		first, last = min(first, s.FirstTokenMs), max(last, s.LastTokenMs)
	}
	sort.Float64s(ttfts)
	out[schema.StreamTTFTms] = stats.Quantile(ttfts, 0.5)
	if len(rates) > 0 {
		sort.Float64s(rates)
		out[schema.StreamDecodeTokS] = stats.Quantile(rates, 0.5)
		out[schema.SlowestStreamTokS] = rates[0]
	}
	if span := (last - first) / 1000; decoded > 0 && span > 0 {
		out[schema.AggregateDecodeTokS] = float64(decoded) / span
	}
	return out
}

// StreamOverlap is when the last of a run's streams had its first token
// and when the first to finish had its last one, in ms since the
// release. The streams all decoded at once when latestFirst <
// earliestLast: the proof that they ran concurrently, not one after
// another.
func StreamOverlap(streams []schema.Stream) (latestFirst, earliestLast float64, concurrent bool) {
	if len(streams) == 0 {
		return 0, 0, false
	}
	latestFirst, earliestLast = streams[0].FirstTokenMs, streams[0].LastTokenMs
	for _, s := range streams[1:] {
		latestFirst, earliestLast = max(latestFirst, s.FirstTokenMs), min(earliestLast, s.LastTokenMs)
	}
	return latestFirst, earliestLast, latestFirst < earliestLast
}

// streamFailures are the gate failures of a finished run's concurrent
// streams: streams that never all decoded at once, and each stream after
// the first whose json counters miss their arm's expectation (the first
// stream's are the run's own).
func streamFailures(p scenarios.Policy, run Run) []schema.Reason {
	if len(run.Streams) < 2 {
		return nil
	}
	var out []schema.Reason
	if lf, el, ok := StreamOverlap(run.Streams); !ok {
		out = append(out, schema.StreamsSerialised{Run: run.Seq, Round: run.Round, Arm: run.Arm, Streams: len(run.Streams), LatestFirstMs: lf, EarliestLastMs: el})
	}
	for i, s := range run.Streams[1:] {
		for _, c := range p.Counters {
			ex, has := c.Expect[run.Arm]
			cr, read := s.Counters[c.Name]
			if !has || !read {
				continue
			}
			rd := Reading{Value: cr.Value, Text: cr.Text, Absent: cr.Absent, Impossible: cr.Impossible}
			if CounterHolds(c, ex, rd) {
				continue
			}
			cf := schema.CounterFailed{Run: run.Seq, Round: run.Round, Arm: run.Arm, Counter: c.Name, Value: rd.Value, Expected: ex.String(), Stream: i + 2}
			if c.Kind.Text() {
				cf.Text = rd.Text
			}
			if rd.Impossible {
				cf.Text = "not a finite number"
			}
			out = append(out, cf)
		}
	}
	return out
}
