package analysis

import (
	"math"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

// The concurrent-stream metrics as the schema defines them, on streams
// whose rates are known.
func TestStreamMetrics(t *testing.T) {
	streams := []schema.Stream{
		// 101 tokens after the first event over 1 s: 101 tok/s
		{FirstTokenMs: 50, LastTokenMs: 1050, Tokens: 102, FirstEventTokens: 1},
		// 100 over 2 s: 50 tok/s; its first token 20 ms later
		{FirstTokenMs: 70, LastTokenMs: 2070, Tokens: 101, FirstEventTokens: 1},
		// 100 over 0.5 s: 200 tok/s
		{FirstTokenMs: 60, LastTokenMs: 560, Tokens: 102, FirstEventTokens: 2},
	}
	m := StreamMetrics(streams)
	want := map[string]float64{
		schema.StreamDecodeTokS:    101,
		schema.SlowestStreamTokS:   50,
		schema.AggregateDecodeTokS: 301 / 2.020, // span 50 → 2070 ms
		schema.StreamTTFTms:        60,
	}
	for k, v := range want {
		if !near(m[k], v) {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if len(m) != len(want) {
		t.Errorf("metrics %v", m)
	}
	// One stream: the per-stream, slowest and aggregate rates are its
	// decode rate.
	one := StreamMetrics(streams[:1])
	for _, k := range []string{schema.StreamDecodeTokS, schema.SlowestStreamTokS, schema.AggregateDecodeTokS} {
		if !near(one[k], 101) {
			t.Errorf("one stream: %s = %v, want 101", k, one[k])
		}
	}
	if StreamMetrics(nil) != nil {
		t.Error("no streams, no metrics")
	}
	// A stream with one token event has no rate; the others still do.
	m = StreamMetrics([]schema.Stream{streams[0], {FirstTokenMs: 80, LastTokenMs: 80, Tokens: 3, FirstEventTokens: 3}})
	if !near(m[schema.SlowestStreamTokS], 101) || !near(m[schema.AggregateDecodeTokS], 101) {
		t.Errorf("a stream without a rate: %v", m)
	}
}

// concurrentRun is a finished run of arm with streams; the second one's
// json counter reads c2.
func concurrentRun(seq int, arm string, streams []schema.Stream) Run {
	return Run{Seq: seq, Round: 1, Arm: arm, Metrics: map[string]float64{schema.DecodeTokS: 100}, Counters: map[string]Reading{"c": {Value: 5}}, Streams: streams}
}

// Streams that never all decoded at once (a server with fewer slots than
// streams serves them one after another) fail the counter gate: the run
// loop stops there and the analysis REJECTS. Overlapping streams pass.
func TestSerialisedStreamsFailTheGate(t *testing.T) {
	p := policy("a", "b")
	serial := []schema.Stream{
		{FirstTokenMs: 10, LastTokenMs: 1000, Tokens: 10},
		{FirstTokenMs: 1010, LastTokenMs: 2000, Tokens: 10},
	}
	f := CounterFailures(p, concurrentRun(3, "b", serial))
	ss, ok := first(f).(schema.StreamsSerialised)
	if len(f) != 1 || !ok || ss.Streams != 2 || ss.LatestFirstMs != 1010 || ss.EarliestLastMs != 1000 {
		t.Fatalf("serialised streams: %+v", f)
	}
	overlapping := []schema.Stream{serial[0], {FirstTokenMs: 15, LastTokenMs: 990, Tokens: 10}}
	if f := CounterFailures(p, concurrentRun(3, "b", overlapping)); len(f) != 0 {
		t.Fatalf("overlapping streams: %+v", f)
	}
	in := campaign(p, 6, level(map[string]float64{"a": 100, "b": 110}), honest)
	in.Runs[len(in.Runs)-1].Streams = serial
	if a := Analyze(in); a.Verdict != schema.Rejected {
		t.Fatalf("verdict %s, reasons %+v", a.Verdict, a.Reasons)
	}
	if _, _, ok := StreamOverlap(serial[:1]); !ok {
		t.Error("one stream overlaps itself")
	}
}

// A json counter is read from every stream's reply, and a stream after
// the first that misses its expectation fails the gate, naming the stream.
func TestEveryStreamsCounterIsGated(t *testing.T) {
	p := policy("a", "b")
	p.Counters[0].Kind = schema.SourceJSON
	streams := []schema.Stream{
		{FirstTokenMs: 10, LastTokenMs: 1000, Tokens: 10, Counters: map[string]schema.CounterReading{"c": {Value: 5}}},
		{FirstTokenMs: 12, LastTokenMs: 1000, Tokens: 10, Counters: map[string]schema.CounterReading{"c": {Value: 5}}},
		{FirstTokenMs: 11, LastTokenMs: 1000, Tokens: 10, Counters: map[string]schema.CounterReading{"c": {Value: 0}}},
	}
	f := CounterFailures(p, concurrentRun(4, "b", streams))
	cf, ok := first(f).(schema.CounterFailed)
	if len(f) != 1 || !ok || cf.Stream != 3 || cf.Value != 0 {
		t.Fatalf("failures %+v", f)
	}
}

// Every stream's output is compared: a stream of the compared arm that
// differs from the baseline's output makes it DIVERGENT, and baseline
// streams that disagree with each other make identity undecidable.
func TestEveryStreamsOutputIsCompared(t *testing.T) {
	p := policy("a", "b")
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"b"}, Against: "a", OnMismatch: schema.MismatchReport}
	build := func(baseStream, armStream string) Input {
		in := campaign(p, 4, level(map[string]float64{"a": 100, "b": 110}), honest)
		for i := range in.Runs {
			r := &in.Runs[i]
			r.Output = "once upon a time"
			r.StreamOutputs = []string{"once upon a time", armStream}
			if r.Arm == "a" {
				r.StreamOutputs[1] = baseStream
			}
		}
		return in
	}
	same := "once upon a time"
	if id := Analyze(build(same, same)).Identity; id.Verdict != schema.Identical {
		t.Fatalf("identical streams: %+v", id)
	}
	if id := Analyze(build(same, "once upon a tide")).Identity; id.Verdict != schema.Divergent || id.Arms[0].Diverging != 4 {
		t.Fatalf("a diverging stream in each run: %+v", id)
	}
	if id := Analyze(build("once upon a tide", same)).Identity; id.Verdict != schema.Undecidable || id.Baseline.Verdict != schema.NotDeterministic {
		t.Fatalf("baseline streams disagree: %+v", id)
	}
}
