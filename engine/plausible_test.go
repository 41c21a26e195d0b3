package engine

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// serveStream serves body as an event stream.
func serveStream(t *testing.T, body []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// An engine total that cannot be true (predicted_n 1e300 on a request of
// 16 tokens, a negative tokens_predicted) is never the token count: it
// would have been int64 min and 2.7e20 tok/s. It is passed over and said.
func TestImpossibleTokenTotals(t *testing.T) {
	body, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, from, to string
		source         string
		why            schema.ImpossibleWhy
	}{
		{"1e300", `"predicted_n":16`, `"predicted_n":1e300`, "timings.predicted_n", schema.OverMaxTokens},
		{"over max_tokens + slack", `"predicted_n":16`, `"predicted_n":33`, "timings.predicted_n", schema.OverMaxTokens},
		{"negative", `"predicted_n":16`, `"predicted_n":-5`, "timings.predicted_n", schema.Negative},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := bytes.Replace(body, []byte(tt.from), []byte(tt.to), 1)
			b = bytes.ReplaceAll(b, []byte(`"tokens_predicted":16`), []byte(`"tokens_predicted":1e300`))
			if bytes.Equal(b, body) {
				t.Fatal("fixture has no field to replace")
			}
			resp, err := Complete(context.Background(), serveStream(t, b).URL, Request{Endpoint: "/completion", MaxTokens: 16})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Tokens < 0 || resp.Tokens > 16+TokenSlack || strings.HasPrefix(resp.TokenSource, "timings") || resp.TokenSource == "tokens_predicted" {
				t.Errorf("tokens %d from %s", resp.Tokens, resp.TokenSource)
			}
			if _, ok := resp.Timings["predicted_n"]; ok {
				t.Errorf("impossible predicted_n kept in timings: %v", resp.Timings)
			}
			// The engine's rate rests on that count: it goes too.
			if _, ok := resp.Timings["predicted_per_second"]; ok {
				t.Errorf("predicted_per_second kept beside an impossible predicted_n: %v", resp.Timings)
			}
			if v := resp.DecodeTokPerSec(); v > 1e7 {
				t.Errorf("decode rate %g", v)
			}
			found := false
			for _, iv := range resp.Impossible {
				found = found || (iv.Source == tt.source && iv.Why == tt.why)
			}
			if !found {
				t.Errorf("impossible values %+v lack %s (%s)", resp.Impossible, tt.source, tt.why)
			}
		})
	}
	// Within max_tokens plus the slack a total is believed.
	b := bytes.Replace(body, []byte(`"predicted_n":16`), []byte(`"predicted_n":20`), 1)
	resp, err := Complete(context.Background(), serveStream(t, b).URL, Request{Endpoint: "/completion", MaxTokens: 16})
	if err != nil || resp.Tokens != 20 || len(resp.Impossible) != 0 {
		t.Errorf("plausible total: %v tokens %d %+v", err, resp.Tokens, resp.Impossible)
	}
}

// NaN on a metrics page, or "NaN"/"Infinity" in a reply field, is read as
// absent with a note: the journal cannot encode it (json: unsupported
// value: NaN) and it cannot be a count.
func TestCounterNotFiniteIsAbsent(t *testing.T) {
	page := "# TYPE llamacpp:tokens_predicted_total counter\nllamacpp:tokens_predicted_total NaN\n"
	after, err := ParseMetrics(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := ParseMetrics(strings.NewReader("llamacpp:tokens_predicted_total 3\n"))
	for _, tt := range []struct {
		cp  scenarios.CounterPolicy
		obs Observation
	}{
		{scenarios.CounterPolicy{Name: "m", Kind: schema.SourceMetric, Expr: "llamacpp:tokens_predicted_total"}, Observation{Before: before, After: after}},
		{scenarios.CounterPolicy{Name: "j", Kind: schema.SourceJSON, Expr: "x.n"}, Observation{Reply: map[string]any{"x": map[string]any{"n": "NaN"}}}},
		{scenarios.CounterPolicy{Name: "i", Kind: schema.SourceJSON, Expr: "n"}, Observation{Reply: map[string]any{"n": "-Infinity"}}},
		{scenarios.CounterPolicy{Name: "l", Kind: schema.SourceLog, Expr: `acc=(\S+)`}, Observation{Window: []string{"acc=NaN"}}},
		{scenarios.CounterPolicy{Name: "o", Kind: schema.SourceLog, Expr: `acc=(\S+)`}, Observation{Window: []string{"acc=1e308", "acc=1e308"}}},
	} {
		k, err := NewCounter(tt.cp)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := k.Read(tt.obs)
		if err != nil {
			t.Fatalf("%s: %v", tt.cp.Name, err)
		}
		if !rd.Absent || rd.Value != 0 || rd.Impossible == nil || rd.Impossible.Why != schema.NotFinite || !strings.Contains(rd.Note, "not a finite number") {
			t.Errorf("%s: %+v", tt.cp.Name, rd)
		}
	}
}
