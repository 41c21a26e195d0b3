package export

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
	"golang.org/x/perf/benchfmt"
)

// A scenario's unit is reduced to letters, digits and _ . / % - in the
// export: markup, a control or format character, a space or a | of it
// reaches neither benchstat's token nor what renders its tables, and a
// plain unit stays as it is.
func TestBenchstatUnitsReduced(t *testing.T) {
	for unit, want := range map[string]string{
		"tok/s": "drafted-tok/s", "GB/s": "drafted-GB/s", "%": "drafted-%", "": "drafted",
		"tok</text><script>alert(1)</script> 5 fake\x1b[31m\u202e | ` <img src=x>": "drafted-tok_/text_script_alert_1_/script_5_fake_31m_img_src_x",
		"tok per s": "drafted-tok_per_s", "\u200b": "drafted",
	} {
		rec := &schema.Record{Feature: "spec-draft", Verdict: schema.Valid}
		rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
		rec.Scenario.Arms = []schema.ArmInfo{{Name: "classic"}}
		rec.Analysis.Results = []schema.MetricResult{{Metric: "drafted", Unit: unit}}
		rec.Runs = []schema.Run{{Seq: 1, Arm: "classic", Metrics: map[string]float64{"decode_tok_s": 100, "drafted": 3}}}
		var buf bytes.Buffer
		if err := Benchstat(&buf, rec, "x"); err != nil {
			t.Fatal(err)
		}
		r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "x")
		var units []string
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				for _, v := range res.Values {
					units = append(units, v.Unit)
				}
			}
		}
		if len(units) != 2 || units[1] != want {
			t.Errorf("unit %q exported as %q, want %q", unit, units, want)
		}
		if line := buf.String()[strings.LastIndex(strings.TrimSpace(buf.String()), "\n")+1:]; !regexp.MustCompile(`^[A-Za-z0-9_./%= \t-]+\n$`).MatchString(line) {
			t.Errorf("unit %q: the run's line is %q", unit, line)
		}
	}
}
