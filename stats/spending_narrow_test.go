package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// nudged is a design whose look at 0.9 is repeated, 1e-6 later, as the
// analysis and the planner nudge a look that brings no new information.
var nudged = []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.9 + 1e-6, 1}

// Looks close in information spend the design's alpha, as a number within
// [0, 1]: looks repeated 1e-6 later at one place or several, and a look
// every round. A look repeated 1e-6 later with the same boundary adds
// almost no chance of crossing, with or without an effect (the trapezoid
// rule over a kernel of sd 0.001 on a grid spaced 0.03 gave 0.331 for
// 0.076).
func TestBoundsCloseLooks(t *testing.T) {
	every := func(first, last int) []float64 {
		var ts []float64
		for i := first; i <= last; i++ {
			ts = append(ts, float64(i)/float64(last))
		}
		return ts
	}
	for _, tc := range []struct {
		s  Spending
		ts []float64
	}{
		{SpendOBF, nudged},
		{SpendPocock, nudged},
		{SpendOBF, []float64{0.2, 0.2 + 1e-6, 0.4, 0.6, 0.6 + 1e-6, 0.6 + 2e-6, 0.8, 1}},
		{SpendPocock, []float64{0.25, 0.5, 0.5 + 1e-6, 0.75, 0.75 + 1e-6, 1}},
		{SpendOBF, []float64{0.3, 0.6, 1 - 1e-6, 1}},
		{SpendOBF, every(5, 200)},
		{SpendOBF, every(5, 1000)},
		{SpendPocock, every(5, 1000)},
	} {
		cs := Bounds(tc.s, 0.05, tc.ts)
		p := CrossProb(cs, tc.ts, 0)
		if p < 0 || p > 1 || math.Abs(p-0.05) > 1e-3 {
			t.Errorf("%v, %d looks %v: bounds spend %v, want 0.05", tc.s, len(tc.ts), tc.ts[:min(len(tc.ts), 8)], p)
		}
	}
	for _, theta := range []float64{0, 2.8} {
		once := CrossProb([]float64{2, 2}, []float64{0.5, 1}, theta)
		twice := CrossProb([]float64{2, 2, 2}, []float64{0.5, 0.5 + 1e-6, 1}, theta)
		if twice < 0 || twice > 1 || math.Abs(twice-once) > 1e-3 {
			t.Errorf("drift %v: a look repeated 1e-6 later takes the chance of crossing from %v to %v", theta, once, twice)
		}
	}
}

// A look repeated 1e-6 later spends next to nothing: the design's other
// boundaries are those without it (the last was 1.84, nominal 0.066, for
// 2.12 without).
func TestBoundsNudgedLook(t *testing.T) {
	for _, tc := range []struct {
		s           Spending
		with, witho []float64
	}{
		{SpendOBF, nudged, []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{SpendPocock, nudged, []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{SpendOBF, []float64{0.2, 0.2 + 1e-6, 0.4, 0.6, 0.6 + 1e-6, 0.6 + 2e-6, 0.8, 1}, []float64{0.2, 0.4, 0.6, 0.8, 1}},
	} {
		with, witho := Bounds(tc.s, 0.05, tc.with), Bounds(tc.s, 0.05, tc.witho)
		if got, want := with[len(with)-1], witho[len(witho)-1]; math.Abs(got-want) > 0.01 {
			t.Errorf("%v %v: last boundary %v, %v without the repeated looks", tc.s, tc.with, got, want)
		}
	}
}

// The nudged design's boundaries keep their type I error: Brownian paths
// through its looks (it was 7.5%).
func TestBoundsNudgedSimulated(t *testing.T) {
	cs := Bounds(SpendOBF, 0.05, nudged)
	const paths = 400000
	rng := rand.New(rand.NewPCG(7, 2))
	hits := 0
	for range paths {
		s, prev := 0.0, 0.0
		for k, tk := range nudged {
			s += math.Sqrt(tk-prev) * rng.NormFloat64()
			prev = tk
			if math.Abs(s/math.Sqrt(tk)) >= cs[k] {
				hits++
				break
			}
		}
	}
	got := float64(hits) / paths
	if se := math.Sqrt(0.05 * 0.95 / paths); math.Abs(got-0.05) > 3*se {
		t.Errorf("bounds %v: simulated type I error %.4f, want 0.05 ± %.4f", cs, got, 3*se)
	}
}

// Looks whose rounds stay the same (trimming kept no more) are nudged
// 1e-6 apart by designFactor: the drift the design detects stays that of
// a design of many looks, a little above one look's (it was 5e-9 of it).
func TestDesignFactorRepeatedLooks(t *testing.T) {
	d := Design{Spending: SpendOBF}
	for i := 5; i <= 1000; i++ {
		d.Ts = append(d.Ts, float64(i)/1000)
		d.Ns = append(d.Ns, min(i, 975))
	}
	if f := designFactor(d, 0.05, 0.8); f < 1 || f > 1.3 {
		t.Errorf("design factor %v", f)
	}
}

// Designs whose looks are not close are integrated as they always were:
// their boundaries and power are the very numbers committed records were
// checked with.
func TestBoundsUnchanged(t *testing.T) {
	sixths := []float64{1.0 / 6, 2.0 / 6, 3.0 / 6, 4.0 / 6, 5.0 / 6, 1}
	tenths := []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1}
	for _, tc := range []struct {
		s     Spending
		ts    []float64
		cs    []float64
		power float64
	}{
		{SpendOBF, sixths, []float64{4.8009116763495, 3.395021832047032, 2.7872409883396685, 2.4488477283633543, 2.2318622741904477, 2.0797941553712924}, 0.6862835216443453},
		{SpendPocock, sixths, []float64{2.4951154504894575, 2.476882286023855, 2.4549126971106077, 2.437179136944035, 2.4231580363320084, 2.4119017272422134}, 0.6058093771117166},
		{SpendOBF, []float64{0.2, 0.4, 0.6, 0.8, 1}, []float64{4.382612702882334, 3.099720920922344, 2.553307390280459, 2.2537797048475383, 2.0634130727586495}, 0.6883966971758111},
		{SpendPocock, []float64{0.2, 0.4, 0.6, 0.8, 1}, []float64{2.437976688050014, 2.426790612820387, 2.410144549834847, 2.3965649730475747, 2.385868832453646}, 0.6105483342652533},
		{SpendOBF, []float64{0.3, 0.45, 1}, []float64{3.578388287434315, 2.9336605292599636, 1.972374078161355}, 0.7027142235912188},
		{SpendPocock, []float64{0.3, 0.45, 1}, []float64{2.3118353038057933, 2.442179319054805, 2.2022931797088674}, 0.642743432213955},
		{SpendOBF, []float64{0.37, 0.81, 0.93}, []float64{3.2221609421335984, 2.184776495092944, 2.1410731295636474}, 0.6330786615672344},
		{SpendPocock, []float64{0.37, 0.81, 0.93}, []float64{2.2475404712455465, 2.23376581895689, 2.3745984646663167}, 0.5922886443694175},
		{SpendOBF, tenths, []float64{2.7718076486993617, 2.593012108102993, 2.434572786082555, 2.3082767076027793, 2.205799435244497, 2.120958301540661}, 0.6817018684264198},
		{SpendPocock, tenths, []float64{2.156999218344687, 2.3853926300405703, 2.4246127065265917, 2.4361478822776164, 2.4386646475108478, 2.4375482986337538}, 0.6163343945590682},
	} {
		cs := Bounds(tc.s, 0.05, tc.ts)
		for k := range cs {
			if cs[k] != tc.cs[k] {
				t.Errorf("%v %v: bounds %#v, were %#v", tc.s, tc.ts, cs, tc.cs)
				break
			}
		}
		if p := CrossProb(cs, tc.ts, 2.5); p != tc.power {
			t.Errorf("%v %v: power %#v, was %#v", tc.s, tc.ts, p, tc.power)
		}
	}
	// A look every round of 200: the kernel is still wide enough.
	var ts []float64
	for i := 5; i <= 200; i++ {
		ts = append(ts, float64(i)/200)
	}
	for _, tc := range []struct {
		s              Spending
		c0, c100, last float64
		power          float64
	}{
		{SpendOBF, 12, 2.8899707660391734, 2.2376219379670097, 0.6617777769266837},
		{SpendPocock, 3.075287172553306, 2.7363281814446516, 2.609958871317282, 0.5735764972226514},
	} {
		cs := Bounds(tc.s, 0.05, ts)
		if cs[0] != tc.c0 || cs[100] != tc.c100 || cs[len(cs)-1] != tc.last {
			t.Errorf("%v, 196 looks: bounds %#v, %#v … %#v, were %#v, %#v … %#v", tc.s, cs[0], cs[100], cs[len(cs)-1], tc.c0, tc.c100, tc.last)
		}
		if p := CrossProb(cs, ts, 2.5); p != tc.power {
			t.Errorf("%v, 196 looks: power %#v, was %#v", tc.s, p, tc.power)
		}
	}
}
