package scenarios

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// adversarial constants: float neighbours, signed zeros, subnormals and the
// ends of the float range, where sampled decisions go wrong.
func adversarialConstants() []float64 {
	base := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, 1e300, -1e300,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		1 << 53, -(1 << 53), 0.1, 1e-300}
	var out []float64
	for _, c := range base {
		out = append(out, c, math.Nextafter(c, math.Inf(1)), math.Nextafter(c, math.Inf(-1)))
	}
	var finite []float64
	for _, c := range out {
		if !math.IsInf(c, 0) {
			finite = append(finite, c)
		}
	}
	return finite
}

func probes(a, b float64) []float64 {
	out := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1),
		math.MaxFloat64, -math.MaxFloat64, a/2 + b/2, (a + b) / 2}
	for _, c := range []float64{a, b} {
		out = append(out, c, math.Nextafter(c, math.Inf(1)), math.Nextafter(c, math.Inf(-1)))
	}
	return out
}

func TestDisjointProperty(t *testing.T) {
	consts := adversarialConstants()
	rng := rand.New(rand.NewSource(1))
	pick := func() float64 {
		switch rng.Intn(3) {
		case 0:
			return consts[rng.Intn(len(consts))]
		case 1:
			return float64(rng.Intn(7) - 3)
		}
		return math.Float64frombits(rng.Uint64()) // any bit pattern, filtered below
	}
	check := func(a, b Expectation) {
		w, ok := witness(a, b)
		if ok != !Disjoint(a, b) {
			t.Fatalf("witness and Disjoint disagree on %v, %v", a, b)
		}
		if ok {
			if !a.Holds(w) || !b.Holds(w) {
				t.Fatalf("%v and %v: witness %v does not satisfy both", a, b, w)
			}
			return
		}
		for _, v := range probes(a.Value, b.Value) {
			if a.Holds(v) && b.Holds(v) {
				t.Fatalf("Disjoint(%v, %v) but %v satisfies both", a, b, v)
			}
		}
	}
	// Every operator pair over every pair of adversarial constants.
	for _, x := range consts {
		for _, y := range consts {
			for _, o1 := range ops {
				for _, o2 := range ops {
					check(Expectation{Op: o1, Value: x}, Expectation{Op: o2, Value: y})
				}
			}
		}
	}
	for i := 0; i < 200000; i++ {
		x, y := pick(), pick()
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			continue
		}
		check(Expectation{Op: ops[rng.Intn(len(ops))], Value: x}, Expectation{Op: ops[rng.Intn(len(ops))], Value: y})
	}
}

// Pairs that the old sampled Disjoint (lo-1, lo, mid, hi, hi+1) got wrong.
func TestDisjointEdges(t *testing.T) {
	next := func(c float64) float64 { return math.Nextafter(c, math.Inf(1)) }
	tests := []struct {
		a, b Expectation
		want bool
	}{
		// One value between them: next(0) meets both.
		{Expectation{Op: ">", Value: 0}, Expectation{Op: "<", Value: next(next(0))}, false},
		{Expectation{Op: ">", Value: 1e300}, Expectation{Op: "<", Value: 1e300 + 1e285}, false},
		{Expectation{Op: "!=", Value: 1e17}, Expectation{Op: "==", Value: 1e17 + 16}, false},
		{Expectation{Op: "!=", Value: 0}, Expectation{Op: "!=", Value: 1}, false},
		{Expectation{Op: ">", Value: 0}, Expectation{Op: "<", Value: next(0)}, true},
		{Expectation{Op: ">", Value: math.MaxFloat64}, Expectation{Op: ">=", Value: 0}, true},
		{Expectation{Op: "<", Value: -math.MaxFloat64}, Expectation{Op: "<=", Value: 0}, true},
		{Expectation{Op: "==", Value: 0}, Expectation{Op: "==", Value: math.Copysign(0, -1)}, false},
		{Expectation{Op: ">", Value: math.Copysign(0, -1)}, Expectation{Op: "<=", Value: 0}, true},
		// Beyond 2^53, c+1 == c: the old lo-1/hi+1 probes found nothing.
		{Expectation{Op: ">", Value: 1e17}, Expectation{Op: ">=", Value: 1e17}, false},
		{Expectation{Op: "<", Value: -1e300}, Expectation{Op: "<", Value: -1e300}, false},
		{Expectation{Op: ">=", Value: math.MaxFloat64}, Expectation{Op: "<=", Value: -math.MaxFloat64}, true},
	}
	for _, tt := range tests {
		if got := Disjoint(tt.a, tt.b); got != tt.want {
			t.Errorf("Disjoint(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Disjoint(tt.b, tt.a); got != tt.want {
			t.Errorf("Disjoint(%v, %v) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestHoldsRefusesNonFinite(t *testing.T) {
	for _, op := range ops {
		for _, c := range []float64{0, 1, -1, math.MaxFloat64} {
			e := Expectation{Op: op, Value: c}
			for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				if e.Holds(v) {
					t.Errorf("%v holds for %v", e, v)
				}
			}
		}
	}
}

func TestParseExpectationRefusesNonFinite(t *testing.T) {
	for _, s := range []string{"== NaN", "!= nan", "> inf", "< -Inf", ">= +Infinity", "== 1e999", "<= -1e400"} {
		if e, err := ParseExpectation(s); err == nil {
			t.Errorf("ParseExpectation(%q) = %v, want an error", s, e)
		}
	}
	if _, err := ParseExpectation("== 1e308"); err != nil {
		t.Errorf("a large finite constant refused: %v", err)
	}
}

// Text expectations (props and version counters): == and != compare text,
// a number is still a number, and Disjoint is exact for text.
func TestTextExpectations(t *testing.T) {
	parse := func(s string) Expectation {
		e, err := ParseTextExpectation(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return e
	}
	for _, bad := range []string{"> b1", "== ", "<= x"} {
		if _, err := ParseTextExpectation(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := ParseExpectation("== b11669"); err == nil {
		t.Error("a numeric counter accepted a text expectation")
	}
	if e := parse(`== "b11669"`); !e.IsText || e.Text != "b11669" || !e.HoldsText("b11669", 0) || e.HoldsText("b11670", 0) {
		t.Errorf("quoted text: %+v", e)
	}
	if e := parse("== 11669"); e.IsText || !e.HoldsText("11669", 11669) || e.HoldsText("b11669", 0) {
		t.Errorf("a number stays a number: %+v", e)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"== b1", "!= b1", true},
		{"== b1", "== b2", true},
		{"== b1", "== b1", false},
		{"!= b1", "!= b2", false},
		{"!= b1", "== b2", false},
		{"== b1", "> 0", true},
		{"!= b1", "> 0", false},
		{"!= b1", "== 5", false},
	} {
		a, b := parse(c.a), parse(c.b)
		if Disjoint(a, b) != c.want || Disjoint(b, a) != c.want {
			t.Errorf("Disjoint(%s, %s) = %v, want %v", c.a, c.b, !c.want, c.want)
		}
		// Exact: no witness among the texts and numbers in play when
		// disjoint, one when not.
		found := false
		for _, w := range []struct {
			text string
			v    float64
		}{{"b1", 0}, {"b2", 0}, {"b3", 0}, {"5", 5}, {"1", 1}} {
			if a.HoldsText(w.text, w.v) && b.HoldsText(w.text, w.v) {
				found = true
			}
		}
		if found == c.want {
			t.Errorf("%s and %s: Disjoint %v but a common value found: %v", c.a, c.b, c.want, found)
		}
	}
}

// A text expectation may hold numeric text (`== "7"`): Disjoint of a text
// and a numeric expectation is decided on the readings CounterHolds would
// accept for both, so `== "7"` and `== 7` (both met by the reading "7")
// prove nothing. Checked exactly against every reading in play: the
// texts, their numbers' spellings, and the numeric witnesses' spellings.
func TestDisjointNumericText(t *testing.T) {
	parse := func(s string) Expectation {
		e, err := ParseTextExpectation(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return e
	}
	texts := []string{`== "7"`, `!= "7"`, `== " 7"`, `== "7.0"`, `== "0x1p3"`, `== "1e400"`, `== "NaN"`, `== "-0"`, `!= "-0"`, `== b1`, `!= b1`}
	nums := []string{"== 7", ">= 5", "< 5", "!= 7", "> 7", "== 8", "== 0", "> 1.7976931348623157e308", "< -1.7976931348623157e308", "!= 0"}
	holds := func(e Expectation, r string) bool {
		v, _ := TextNumber(r)
		return e.HoldsText(r, v)
	}
	want := map[[2]string]bool{
		{`== "7"`, "== 7"}: false, {`== "7"`, ">= 5"}: false, {`== "7"`, "< 5"}: true,
		{`!= "7"`, "== 7"}: false, {`== "0x1p3"`, "== 8"}: false, {`== "1e400"`, "> 7"}: true,
		{`!= b1`, "> 1.7976931348623157e308"}: true, {`== "-0"`, "== 0"}: false,
	}
	for _, ts := range texts {
		for _, ns := range nums {
			a, b := parse(ts), parse(ns)
			if b.IsText {
				t.Fatalf("%s parsed as text", ns)
			}
			got := Disjoint(a, b)
			if Disjoint(b, a) != got {
				t.Errorf("Disjoint(%s, %s) is not symmetric", ts, ns)
			}
			if w, has := want[[2]string{ts, ns}]; has && got != w {
				t.Errorf("Disjoint(%s, %s) = %v, want %v", ts, ns, got, w)
			}
			readings := []string{a.Text, "b1", "7", "7.0", "8", "0"}
			if w, ok := witness(b, b); ok {
				for _, f := range []byte{'g', 'e', 'f'} {
					readings = append(readings, strconv.FormatFloat(w, f, -1, 64))
				}
			}
			common := ""
			for _, r := range readings {
				if holds(a, r) && holds(b, r) {
					common = r
				}
			}
			if got && common != "" {
				t.Errorf("Disjoint(%s, %s) but the reading %q meets both", ts, ns, common)
			}
			if !got && common == "" {
				t.Errorf("Disjoint(%s, %s) false but no reading in play meets both", ts, ns)
			}
		}
	}
}
