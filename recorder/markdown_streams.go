package recorder

import (
	"slices"
	"sort"
	"strconv"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// hasStreams reports whether the record's runs stored concurrent streams
// (a scenario where some arm sets concurrency): only then is the section
// rendered, so records written before render as they did.
func hasStreams(r *schema.Record) bool {
	return slices.ContainsFunc(r.Runs, func(run schema.Run) bool { return len(run.Streams) > 0 })
}

// streamArm is one arm's row of the concurrent-streams table.
type streamArm struct {
	arm              string
	streams          string
	runs, concurrent int
	medians          map[string]float64
}

// streamRow is one stream of one run.
type streamRow struct {
	run    schema.Run
	index  int
	stream schema.Stream
}

func (m *mdWriter) streams(r *schema.Record) {
	m.h2("Concurrent streams")
	m.p("Each measured run released each arm's streams (identical requests) together on one engine and timed each on its own; times are since that release. " +
		"Per-stream rate: the median over a run's streams of each stream's decode rate (its tokens after its first token event over the time to its last). " +
		"Aggregate rate: all streams' tokens after their first token events over the span from the earliest first token of any stream to the latest last one. " +
		"TTFT under load: the median over streams of the time from the release to the first token. " +
		"A run's streams ran concurrently when the last stream's first token came before the first stream's last one; a run where they did not fails the counter gate. " +
		"Each column below is the median over the arm's finished runs.\n\n")
	metrics := []string{schema.StreamDecodeTokS, schema.AggregateDecodeTokS, schema.SlowestStreamTokS, schema.StreamTTFTms}
	var arms []streamArm
	for _, name := range armOrder(r) {
		sa := streamArm{arm: name, medians: map[string]float64{}}
		counts := map[int]bool{}
		vals := map[string][]float64{}
		for _, run := range r.Runs {
			if run.Arm != name || !run.OK() || len(run.Streams) == 0 {
				continue
			}
			sa.runs++
			counts[len(run.Streams)] = true
			if _, _, ok := analysis.StreamOverlap(run.Streams); ok || len(run.Streams) == 1 {
				sa.concurrent++
			}
			for _, k := range metrics {
				if v, ok := run.Metrics[k]; ok {
					vals[k] = append(vals[k], v)
				}
			}
		}
		var ns []int
		for n := range counts {
			ns = append(ns, n)
		}
		sort.Ints(ns)
		for i, n := range ns {
			if i > 0 {
				sa.streams += ", "
			}
			sa.streams += strconv.Itoa(n)
		}
		for k, xs := range vals {
			sort.Float64s(xs)
			sa.medians[k] = stats.Quantile(xs, 0.5)
		}
		arms = append(arms, sa)
	}
	med := func(head, k string) column[streamArm] {
		return right(head, func(a streamArm) string { return metricCell(a.medians, k) })
	}
	table(m, []column[streamArm]{
		left("Arm", func(a streamArm) string { return cellCode(a.arm) }),
		right("streams", func(a streamArm) string {
			if a.streams == "" {
				return "—"
			}
			return a.streams
		}),
		right("runs concurrent", func(a streamArm) string { return strconv.Itoa(a.concurrent) + " of " + strconv.Itoa(a.runs) }),
		med("per-stream tok/s", schema.StreamDecodeTokS),
		med("aggregate tok/s", schema.AggregateDecodeTokS),
		med("slowest stream tok/s", schema.SlowestStreamTokS),
		med("TTFT under load ms", schema.StreamTTFTms),
	}, arms)
	m.ln("")
	var rows []streamRow
	for _, run := range r.Runs {
		for i, st := range run.Streams {
			rows = append(rows, streamRow{run: run, index: i + 1, stream: st})
		}
	}
	ms := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	table(m, []column[streamRow]{
		right("Run", func(s streamRow) string { return strconv.Itoa(s.run.Seq) }),
		left("Arm", func(s streamRow) string { return cellCode(s.run.Arm) }),
		right("stream", func(s streamRow) string { return strconv.Itoa(s.index) }),
		right("sent ms", func(s streamRow) string { return ms(s.stream.SentMs) }),
		right("first token ms", func(s streamRow) string { return ms(s.stream.FirstTokenMs) }),
		right("last token ms", func(s streamRow) string { return ms(s.stream.LastTokenMs) }),
		right("tokens", func(s streamRow) string { return strconv.Itoa(s.stream.Tokens) }),
		right("decode tok/s", func(s streamRow) string { return num(analysis.StreamRate(s.stream), 4) }),
		right("engine tok/s", func(s streamRow) string {
			if s.stream.EngineTokS == 0 {
				return "—"
			}
			return num(s.stream.EngineTokS, 4)
		}),
		left("output sha256", func(s streamRow) string { return cellCode(abbrev.Hash(s.stream.OutputSHA256)) }),
	}, rows)
	m.ln("")
}

// armOrder is the record's arms in scenario order.
func armOrder(r *schema.Record) []string {
	var out []string
	for _, a := range r.Scenario.Arms {
		out = append(out, a.Name)
	}
	return out
}
