package analysis

import (
	"encoding/json"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A NaN counter reading is recorded as an absent 0 marked impossible: it
// meets no expectation, not even the baseline's "== 0", so the campaign is
// not VALID and no run is said to have shown its evidence; and a source
// that read only NaN is not "absent".
func TestImpossibleReadingMeetsNoExpectation(t *testing.T) {
	p := policy("a", "b")
	var rec schema.CounterReading
	if err := json.Unmarshal([]byte(`{"value":0,"absent":true,"impossible":true}`), &rec); err != nil || !rec.Impossible {
		t.Fatalf("the record's reading: %+v %v", rec, err)
	}
	nan := runOf(schema.Run{Counters: map[string]schema.CounterReading{"c": rec}}).Counters["c"]
	if !nan.Impossible || CounterHolds(p.Counters[0], p.Counters[0].Expect["a"], nan) {
		t.Fatalf("an impossible reading %+v meets == 0", nan)
	}
	in := campaign(p, 6, level(map[string]float64{"a": 100, "b": 110}), func(arm string) Reading {
		if arm == "a" {
			return nan
		}
		return Reading{Value: 5}
	})
	a := Analyze(in)
	if r, ok := first(a.Reasons).(schema.CounterFailed); a.Verdict == schema.Valid || !ok || r.Arm != "a" || r.Text == "" {
		t.Fatalf("NaN in the baseline: %s %+v", a.Verdict, a.Reasons)
	}
	for i, m := range a.Marks {
		if in.Runs[i].Arm == "a" && m.CounterOK["c"] {
			t.Fatalf("run %d: NaN marked as meeting == 0", m.Seq)
		}
	}
	in = campaign(p, 6, level(map[string]float64{"a": 100, "b": 110}), func(string) Reading { return nan })
	if r, ok := first(Analyze(in).Reasons).(schema.CounterFailed); !ok {
		t.Fatalf("NaN everywhere: first reason %+v, want counter-failed", r)
	}
}
