package review

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// concurrentRun is a run of two streams as the campaign stores it: the
// stream metrics derived from the streams, the second stream's output
// left out because it is the run's.
func concurrentRun() schema.Run {
	r := schema.Run{Seq: 2, Arm: "streams2", Output: "once upon", OutputSHA256: sha("once upon"), Metrics: map[string]float64{schema.DecodeTokS: 99},
		Streams: []schema.Stream{
			{SentMs: 0.1, FirstTokenMs: 40, LastTokenMs: 1040, Tokens: 101, FirstEventTokens: 1, OutputSHA256: sha("once upon")},
			{SentMs: 0.2, FirstTokenMs: 42, LastTokenMs: 1100, Tokens: 101, FirstEventTokens: 1, OutputSHA256: sha("once upon")},
		}}
	for k, v := range analysis.StreamMetrics(r.Streams) {
		r.Metrics[k] = v
	}
	return r
}

// check derives every stream metric again from the stored streams and
// checks each stream's output against its hash: an edited time, an
// edited or dropped metric and an edited output are each caught.
func TestCheckStreams(t *testing.T) {
	if p := checkStreams(concurrentRun()); p != nil {
		t.Fatalf("a run as stored: %v", p)
	}
	for _, tc := range []struct {
		name string
		edit func(*schema.Run)
		want string
	}{
		{"stream time", func(r *schema.Run) { r.Streams[1].LastTokenMs = 1200 }, "in runs.jsonl, but its streams give"},
		{"metric", func(r *schema.Run) { r.Metrics[schema.SlowestStreamTokS] *= 1.1 }, "slowest_stream_tok_s is"},
		{"metric dropped", func(r *schema.Run) { delete(r.Metrics, schema.StreamTTFTms) }, "stream_ttft_ms is absent in runs.jsonl"},
		{"metric without streams", func(r *schema.Run) { r.Streams = nil }, "but absent from its streams"},
		{"output", func(r *schema.Run) { r.Streams[1].Output = "once upon a tide" }, "stream 2: output_sha256"},
		{"tokens", func(r *schema.Run) { r.Streams[0].Tokens = 90 }, "in runs.jsonl, but its streams give"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := concurrentRun()
			tc.edit(&r)
			p := checkStreams(r)
			if p == nil || !strings.Contains(p.Message, tc.want) {
				t.Fatalf("got %v, want a problem saying %q", p, tc.want)
			}
		})
	}
	// A stream whose output differs from the run's is stored with its
	// text, and checked against its own hash.
	r := concurrentRun()
	r.Streams[1].Output, r.Streams[1].OutputSHA256 = "once upon a tide", sha("once upon a tide")
	if p := checkStreams(r); p != nil {
		t.Fatalf("a differing stream stored with its text: %v", p)
	}
}
