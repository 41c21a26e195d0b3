package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A comparison that could not be made says why, never "NaN".
func TestComparisonSentenceWithoutRatio(t *testing.T) {
	for _, tc := range []struct {
		c    schema.Comparison
		want string
	}{
		{schema.Comparison{N1: 3, N2: 0, P: 1}, "no comparison could be made: this arm has no finished run"},
		{schema.Comparison{N1: 0, N2: 3, P: 1}, "no comparison could be made: the baseline has no finished run"},
		{schema.Comparison{N1: 3, N2: 3, P: 1}, "no comparison could be made: the baseline's median is 0"},
	} {
		got := styleOf(schema.RuleRobust10, false).comparisonSentence(tc.c, senseOfUnit(true, "tok/s"), true)
		if got != tc.want || strings.Contains(got, "NaN") {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
		v := styleOf(schema.RuleRobust10, false).armVerdict(schema.ArmVerdict{Arm: "b", Control: true, Comparison: tc.c}, "a", senseOfUnit(true, "tok/s"))
		if strings.Contains(v, "NaN") || !strings.Contains(v, tc.want) {
			t.Errorf("control verdict %q", v)
		}
	}
}

// The change is new/old − 1 on the metric's own scale; the word follows
// the metric's direction; a secondary metric is described, not judged; a
// disagreement between the test and the interval is said.
func TestComparisonSentence(t *testing.T) {
	for _, tc := range []struct {
		c      schema.Comparison
		higher bool
		judged bool
		want   string
		unit   string
	}{
		{schema.Comparison{Ratio: 1.335, Lo: 1.2, Hi: 1.48, P: 0.002, Significant: true, N1: 6, N2: 6}, false, true, "+33.5% slower [+20.0%, +48.0%], p=0.002", "tok/s"},
		{schema.Comparison{Ratio: 0.8, Lo: 0.75, Hi: 0.85, P: 0.002, Significant: true, N1: 6, N2: 6}, false, true, "-20.0% faster [-25.0%, -15.0%], p=0.002", "tok/s"},
		{schema.Comparison{Ratio: 1.061, Lo: 1.039, Hi: 1.082, P: 0.008, Significant: true, N1: 6, N2: 6}, true, true, "+6.1% faster [+3.9%, +8.2%], p=0.008", "tok/s"},
		{schema.Comparison{Ratio: 0.94, Lo: 0.92, Hi: 0.96, P: 0.008, Significant: true, N1: 6, N2: 6}, true, true, "-6.0% slower [-8.0%, -4.0%], p=0.008", "tok/s"},
		{schema.Comparison{Ratio: 0.94, Lo: 0.92, Hi: 0.96, P: 0.008, Significant: true, N1: 6, N2: 6}, true, false, "described, not judged (secondary metric): -6.0% [-8.0%, -4.0%], p=0.008", "tok/s"},
		{schema.Comparison{Ratio: 1.03, Lo: 0.995, Hi: 1.08, P: 0.041, Disagreement: "p-without-interval", N1: 6, N2: 6}, true, true, "inconclusive: p=0.041 but the interval [-0.5%, +8.0%] includes no change", "tok/s"},
		{schema.Comparison{Ratio: 1.03, Lo: 1.01, Hi: 1.05, P: 0.09, Disagreement: "interval-without-p", N1: 6, N2: 6}, true, true, "inconclusive: the interval [+1.0%, +5.0%] excludes no change but p=0.09 is not significant", "tok/s"},
		{schema.Comparison{Ratio: 1.05, Lo: 1.03, Hi: 1.07, P: 0.01, AdjustedP: 0.02, Significant: true, N1: 6, N2: 6}, true, true, "+5.0% faster [+3.0%, +7.0%], p=0.01, Holm-adjusted p=0.02", "tok/s"},
		{schema.Comparison{Ratio: 0.894, Lo: 0.809, Hi: 0.988, P: 0.033, Significant: true, N1: 5, N2: 5}, false, true, "-10.6% lower (better) [-19.1%, -1.2%], p=0.033", "J/tok"},
		{schema.Comparison{Ratio: 1.2, Lo: 1.1, Hi: 1.3, P: 0.01, Significant: true, N1: 5, N2: 5}, false, true, "+20.0% higher (worse) [+10.0%, +30.0%], p=0.01", "J"},
	} {
		if got := styleOf(schema.RuleCurrent, false).comparisonSentence(tc.c, senseOfUnit(tc.higher, tc.unit), tc.judged); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want prefix %q", tc.c, got, tc.want)
		}
	}
}

func TestFormatP(t *testing.T) {
	for p, want := range map[float64]string{
		0: "p<0.001", 0.00099: "p<0.001", 0.001: "p=0.001", 0.0079365: "p=0.0079",
		0.008: "p=0.008", 0.016: "p=0.016", 0.05: "p=0.05", 0.546: "p=0.55", 1: "p=1",
	} {
		if got := formatP(p); got != want {
			t.Errorf("formatP(%v) = %q, want %q", p, got, want)
		}
	}
}

// A share of runs reads 61.1%, never 61.111111111111114%; the remedy
// names the busy processes the runs caught, and points at none when none
// was caught; a v2 record's sentence stays as it was.
func TestContendedHostSentence(t *testing.T) {
	r := schema.ContendedHost{Contended: schema.Contended{Runs: 11, Judged: 18, ContendedCPU: 0.07, MaxContended: 0.2}}
	rec := &schema.Record{Schema: schema.Schema}
	got := ReasonText(rec, r)
	if !strings.Contains(got, "in 11 of 18 runs (61.1%) other processes used more than 7% of the CPU") || strings.Contains(got, "61.11") {
		t.Errorf("share: %s", got)
	}
	if strings.Contains(got, "stop the busy processes") || !strings.Contains(got, "no single process was caught") {
		t.Errorf("no process was caught, yet: %s", got)
	}
	rec.Runs = []schema.Run{{Contention: &schema.ContentionSample{Culprit: &schema.HostProcess{Name: "cc1plus", PID: 42}}}}
	if got := ReasonText(rec, r); !strings.Contains(got, "stop the busy processes the raw runs name under \"busiest other process\" (`cc1plus`)") {
		t.Errorf("with a process caught: %s", got)
	}
	rec.Schema = schema.SchemaV2
	if got := ReasonText(rec, r); !strings.Contains(got, "(61.111111111111114%)") || !strings.Contains(got, "named under Machine") {
		t.Errorf("a v2 record's sentence changed: %s", got)
	}
}

// The "output starts" column shows every byte an engine generated: bytes
// that are not UTF-8, controls and bidi overrides escaped, printable text
// as is; a v2 record's column stays as it was, but for its format
// characters, shown as everywhere (visibleFormat).
func TestOutputStartsEscapesBytes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Once upon a time", "Once upon a time"},
		{"caf\xc3\xa9 \xff\xfe ok", `café \xff\xfe ok`},
		{"a\x1b[31mred", `a\u001b[31mred`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"x\u0085y\u00a0z", `x\u0085y\u00a0z`},
		{`back\slash`, `back\\slash`},
		{"line\nbreak", `line\u000abreak`},
		{"0123456789012345678901234567890", "012345678901234567890123…"},
		{"\xe2\x82", `\xe2\x82`},
	} {
		if got := escapeBytes(c.in, 24); got != c.want {
			t.Errorf("escapeBytes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	rec := fixedRecord(schema.Inconclusive)
	rec.Runs[0].Output = "hi \xff\u202e"
	for _, tc := range []struct{ version, want string }{{schema.Schema, "`hi \\xff\\u202e`"}, {schema.SchemaV2, "`hi \ufffd\\u202e`"}} {
		rec.Schema = tc.version
		var buf strings.Builder
		if err := Markdown(&buf, rec); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "| "+tc.want+" |") {
			t.Errorf("%s: the output column lacks %s", tc.version, tc.want)
		}
	}
}

// Issue 18's contradiction, under the current rule: an arm slower than the
// baseline but faster than the control. The comparison with the control
// is stated by its own numbers (never "no significant difference" beside
// p=0.0087 and an interval excluding 1), and the arm does not separate
// from noise. An arm that is not significant says nothing of the control;
// the first rule's records render as before.
func TestArmVerdictRobustAgainstControl(t *testing.T) {
	vc := schema.Comparison{Ratio: 1.411, Lo: 1.124, Hi: 2.581, P: 0.0087, Significant: true, Robust: true, N1: 6, N2: 6}
	v := schema.ArmVerdict{Arm: "b", ControlArm: "ctl", VsControl: &vc, MDE: 0.05, MDEDown: 0.048, MDEAlpha: 0.05,
		Comparison: schema.Comparison{Ratio: 0.9, Lo: 0.85, Hi: 0.95, P: 0.001, Significant: true, Robust: true, N1: 6, N2: 6}}
	got := ArmVerdictText(&schema.Record{Method: schema.Method{Rule: schema.RuleCurrent}, Scenario: schema.ScenarioInfo{Baseline: "a", Primary: "decode_tok_s"}}, v)
	for _, want := range []string{"-10.0% slower", "separates from noise (vs control `ctl`: +41.1% faster [+12.4%, +158.1%], p=0.0087): no", "+5.0% (increase) / −4.8% (decrease)"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "no significant difference") {
		t.Errorf("%q contradicts its numbers", got)
	}
	v.Comparison = schema.Comparison{Ratio: 0.99, Lo: 0.97, Hi: 1.01, P: 0.4, Robust: true, N1: 6, N2: 6}
	if got := ArmVerdictText(&schema.Record{Method: schema.Method{Rule: schema.RuleCurrent}, Scenario: schema.ScenarioInfo{Baseline: "a", Primary: "decode_tok_s"}}, v); strings.Contains(got, "separates from noise") {
		t.Errorf("a non-significant arm is judged against the control: %q", got)
	}
}

// A probe that reproduced its run only through the divergence says where
// it left the run's output, and that its candidates still hold.
func TestDiagnosisLaterDifferenceSentence(t *testing.T) {
	got := style{}.diagnosis(schema.NoDiagnosis{Arm: "draft", Side: "classic", Why: string(schema.DiagnosisLaterDifference), Detail: "40"})
	for _, want := range []string{"draft", "classic", "through the first divergence", "byte 40"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}
