package schema

// Built-in metric names.
const (
	DecodeTokS = "decode_tok_s"
	E2ETokS    = "e2e_tok_s"
	TTFTms     = "ttft_ms"
	WallS      = "wall_s"
	// StepTokS is the decode rate of the median per-token step: one over
	// the median of the gaps between streamed token events (each gap
	// shared by the tokens of the later event). Unlike decode_tok_s,
	// tokens over time, a short host stall moves it little. Measured on
	// every streamed request.
	StepTokS = "step_tok_s"
	TPOTms   = "tpot_ms"
	ITLp50ms = "itl_p50_ms"
	ITLp90ms = "itl_p90_ms"
	ITLp99ms = "itl_p99_ms"
	// EnergyJ is the energy the host's source measured over the measured
	// window, in joules; EnergyJPerTok that over the generated tokens.
	EnergyJ       = "energy_j"
	EnergyJPerTok = "energy_j_per_tok"
	// The concurrent-stream metrics (arms[].concurrency), derived from
	// the run's streams (Stream), times since their common release:
	// StreamDecodeTokS is the median over streams of each stream's decode
	// rate (its tokens after its first token event over the time from
	// that event to its last); SlowestStreamTokS the lowest of them;
	// AggregateDecodeTokS all streams' tokens after their first token
	// events over the span from the earliest first token event of any
	// stream to the latest last one; StreamTTFTms the median over
	// streams of the time from the release to the stream's first token.
	StreamDecodeTokS    = "stream_decode_tok_s"
	AggregateDecodeTokS = "aggregate_decode_tok_s"
	SlowestStreamTokS   = "slowest_stream_tok_s"
	StreamTTFTms        = "stream_ttft_ms"
)

// Metric is what is known of a built-in metric.
type Metric struct {
	Name           string
	Unit           string // as tables print it
	HigherIsBetter bool
	Label          string // the readable name figures print
	// Bench is the benchfmt unit export writes, a value in Unit divided
	// by BenchDiv; "" for a metric export leaves out.
	Bench    string
	BenchDiv float64
	// Stream marks a metric measured only on the OpenAI-compatible
	// endpoints, from the arrival times of the streamed token events (as
	// vLLM's bench serve defines them); PerToken, one that needs the
	// arrival time of every event (engine.request.event_times).
	Stream, PerToken bool
	// Concurrent marks a metric of concurrent streams: measured only in
	// a scenario where some arm sets concurrency.
	Concurrent bool
}

// Metrics are the built-in metrics, in report order: those of every run,
// then those of streamed requests.
var Metrics = []Metric{
	{Name: DecodeTokS, Unit: "tok/s", HigherIsBetter: true, Label: "decode rate", Bench: "decode-tok/s", BenchDiv: 1},
	{Name: E2ETokS, Unit: "tok/s", HigherIsBetter: true, Label: "end-to-end rate", Bench: "e2e-tok/s", BenchDiv: 1},
	{Name: TTFTms, Unit: "ms", Label: "time to first token", Bench: "ttft-sec", BenchDiv: 1000},
	{Name: WallS, Unit: "s", Label: "wall time", Bench: "wall-sec", BenchDiv: 1},
	{Name: StepTokS, Unit: "tok/s", HigherIsBetter: true, Label: "median step rate", Stream: true, PerToken: true},
	{Name: TPOTms, Unit: "ms", Label: "time per output token", Stream: true},
	{Name: ITLp50ms, Unit: "ms", Label: "inter-token latency p50", Stream: true, PerToken: true},
	{Name: ITLp90ms, Unit: "ms", Label: "inter-token latency p90", Stream: true, PerToken: true},
	{Name: ITLp99ms, Unit: "ms", Label: "inter-token latency p99", Stream: true, PerToken: true},
	{Name: EnergyJ, Unit: "J", Label: "energy"},
	{Name: EnergyJPerTok, Unit: "J/tok", Label: "energy per token"},
	{Name: StreamDecodeTokS, Unit: "tok/s", HigherIsBetter: true, Label: "per-stream decode rate (median over streams)", Concurrent: true},
	{Name: AggregateDecodeTokS, Unit: "tok/s", HigherIsBetter: true, Label: "aggregate decode rate", Concurrent: true},
	{Name: SlowestStreamTokS, Unit: "tok/s", HigherIsBetter: true, Label: "slowest stream's decode rate", Concurrent: true},
	{Name: StreamTTFTms, Unit: "ms", Label: "time to first token under load (median over streams)", Concurrent: true},
}

// MetricOf returns a built-in metric by name; the zero Metric for any
// other name.
func MetricOf(name string) Metric {
	for _, m := range Metrics {
		if m.Name == name {
			return m
		}
	}
	return Metric{}
}
