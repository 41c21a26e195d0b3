package recorder

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A figure's annotation carries the sentence's change, interval and
// conclusion, with the same sign convention and direction words.
func TestShortVerdict(t *testing.T) {
	for _, tc := range []struct {
		v      schema.ArmVerdict
		higher bool
		want   string
	}{
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 1.061, Lo: 1.039, Hi: 1.082, Significant: true}}, true, "+6.1% faster [+3.9%, +8.2%]"},
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 0.81, Lo: 0.75, Hi: 0.875, Significant: true}}, true, "-19.0% slower [-25.0%, -12.5%]"},
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 1.335, Lo: 1.2, Hi: 1.48, Significant: true}}, false, "+33.5% slower [+20.0%, +48.0%]"},
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 1.03, Lo: 0.995, Hi: 1.08}}, true, "+3.0% [-0.5%, +8.0%] ~"},
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 1.03, Lo: 0.995, Hi: 1.08, Disagreement: "p-without-interval"}}, true, "+3.0% [-0.5%, +8.0%] inconclusive"},
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 1.01, Lo: 1.005, Hi: 1.02, Disagreement: "below-min-effect"}}, true, "+1.0% [+0.5%, +2.0%] ~ (too small)"},
		{schema.ArmVerdict{Control: true, Comparison: schema.Comparison{Ratio: 1.004, Lo: 0.99, Hi: 1.02}}, true, "+0.4% [-1.0%, +2.0%] ~ control"},
		{schema.ArmVerdict{Control: true, Comparison: schema.Comparison{Ratio: 1.09, Lo: 1.04, Hi: 1.14, Significant: true}}, false, "+9.0% slower [+4.0%, +14.0%] control DIFFERS"},
		{schema.ArmVerdict{ControlArm: "c", VsControl: &schema.Comparison{Ratio: 1.02}, Comparison: schema.Comparison{Ratio: 1.05, Lo: 1.02, Hi: 1.08, Significant: true}}, true, "+5.0% faster [+2.0%, +8.0%] within noise"},
		{schema.ArmVerdict{ControlArm: "c", VsControl: &schema.Comparison{Ratio: 1.05}, SeparatesFromNoise: true, Comparison: schema.Comparison{Ratio: 1.05, Lo: 1.02, Hi: 1.08, Significant: true}}, true, "+5.0% faster [+2.0%, +8.0%]"},
		{schema.ArmVerdict{Comparison: schema.Comparison{N1: 3}}, true, "no comparison"},
		{schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 1.02}}, true, "+2.0% ~"},
	} {
		if got := ShortVerdict(tc.v, tc.higher, "tok/s"); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.v, got, tc.want)
		}
	}
}

// A metric that is not a speed is never "faster" or "slower".
func TestShortVerdictOtherMetrics(t *testing.T) {
	v := schema.ArmVerdict{Comparison: schema.Comparison{Ratio: 0.894, Lo: 0.809, Hi: 0.988, Significant: true}}
	if got, want := ShortVerdict(v, false, "J/tok"), "-10.6% lower (better) [-19.1%, -1.2%]"; got != want {
		t.Errorf("energy: %q, want %q", got, want)
	}
	if got, want := ShortVerdict(v, true, "GB/s"), "-10.6% lower (worse) [-19.1%, -1.2%]"; got != want {
		t.Errorf("bandwidth: %q, want %q", got, want)
	}
}

func TestMetricName(t *testing.T) {
	for in, want := range map[string]string{schema.DecodeTokS: "decode rate", schema.TTFTms: "time to first token", "acceptance": "acceptance"} {
		if got := MetricName(in); got != want {
			t.Errorf("MetricName(%q) = %q, want %q", in, got, want)
		}
	}
	for _, m := range schema.Metrics {
		if MetricName(m.Name) == m.Name {
			t.Errorf("built-in metric %q has no readable name", m.Name)
		}
	}
}
