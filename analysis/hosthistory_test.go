package analysis

import (
	"math"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

func history(vals ...float64) *schema.HostHistory {
	h := &schema.HostHistory{Arm: "classic", Metric: "decode_tok_s"}
	for i, v := range vals {
		h.Records = append(h.Records, schema.HistoryValue{Record: string(rune('a' + i)), Value: v, OtherEngine: i == 0})
	}
	return h
}

// The band is the median ± max(3 × 1.4826 × MAD, 5% of the median) of at
// least four records: one odd record does not widen it, a history that
// agrees to a fraction of a percent gets the floor, and fewer than four
// records make no band.
func TestHostBand(t *testing.T) {
	if _, ok := HostBand(history(100, 101, 99)); ok {
		t.Error("a band from three records")
	}
	if _, ok := HostBand(nil); ok {
		t.Error("a band from no history")
	}
	b, ok := HostBand(history(100, 101, 99, 100, 250))
	if !ok || b.Median != 100 || b.MAD != 1 || b.Lo != 95 || b.Hi != 105 || !b.FlooredByWidth {
		t.Errorf("band %+v, want 100 ± 5 (the floor; MAD 1, the 250 not widening it)", b)
	}
	b, _ = HostBand(history(80, 100, 120, 90, 110))
	if half := 3 * 1.4826 * 10; math.Abs(b.Hi-(100+half)) > 1e-9 || math.Abs(b.Lo-(100-half)) > 1e-9 || b.FlooredByWidth {
		t.Errorf("band %+v, want 100 ± %g", b, 3*1.4826*10)
	}
	if _, ok := HostBand(history(100, math.NaN(), 99, 101)); ok {
		t.Error("a band from three finite values")
	}
}

func resultsOf(metric string, higher bool, base float64) []schema.MetricResult {
	return []schema.MetricResult{{Metric: metric, Primary: true, HigherIsBetter: higher, Arms: []schema.ArmResult{
		{Arm: "classic", Summary: schema.Summary{N: 5, Median: base}}, {Arm: "draft", Summary: schema.Summary{N: 5, Median: 2 * base}}}}}
}

// The baseline's median outside the band is the warning, its direction
// and size against the history's median, naming every record compared;
// inside it, nothing.
func TestHostHistoryWarning(t *testing.T) {
	in := Input{Campaign: Campaign{History: history(100, 101, 99, 100, 98)}}
	w := hostHistory(in, resultsOf("decode_tok_s", true, 60))
	if len(w) != 1 {
		t.Fatalf("warnings %v, want one", w)
	}
	h := w[0].(schema.HostOffHistory)
	if h.Arm != "classic" || h.Value != 60 || h.Median != 100 || math.Abs(h.Change+0.4) > 1e-12 || !h.Worse || h.Records != 5 || h.OtherEngine != 1 || h.Compared != "a, b, c, d, e" {
		t.Errorf("warning %+v", h)
	}
	if w := hostHistory(in, resultsOf("decode_tok_s", true, 97)); len(w) != 0 {
		t.Errorf("inside the band: %v", w)
	}
	// Above the band, on a metric where lower is better: worse too.
	in.Campaign.History.Metric = "ttft_ms"
	w = hostHistory(in, resultsOf("ttft_ms", false, 130))
	if len(w) != 1 || !w[0].(schema.HostOffHistory).Worse || w[0].(schema.HostOffHistory).Change <= 0 {
		t.Errorf("slower first tokens: %v", w)
	}
	// Faster than its history is said too, as better.
	in.Campaign.History.Metric = "decode_tok_s"
	if w := hostHistory(in, resultsOf("decode_tok_s", true, 130)); len(w) != 1 || w[0].(schema.HostOffHistory).Worse {
		t.Errorf("faster: %v", w)
	}
	// Too few records, or no history at all: nothing.
	for _, h := range []*schema.HostHistory{nil, history(100, 100, 100)} {
		if w := hostHistory(Input{Campaign: Campaign{History: h}}, resultsOf("decode_tok_s", true, 10)); len(w) != 0 {
			t.Errorf("history %v: %v", h, w)
		}
	}
}
