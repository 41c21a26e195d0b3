package stats

import (
	"math"
	"testing"
)

func TestSentence(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		c      Comparison
		higher bool
		want   string
	}{
		{"throughput up", Comparison{Ratio: 1.061, Lo: 1.039, Hi: 1.082, P: 0.008, Significant: true}, true,
			"faster by 6.1% [3.9%, 8.2%], p=0.008"},
		{"throughput down", Comparison{Ratio: 0.96, Lo: 0.937, Hi: 0.979, P: 0.016, Significant: true}, true,
			"slower by 4.0% [2.1%, 6.3%], p=0.016"},
		// Latency: ratio 0.94 is 6% less time, i.e. faster.
		{"latency down", Comparison{Ratio: 0.94, Lo: 0.918, Hi: 0.961, P: 0.0021645, Significant: true}, false,
			"faster by 6.0% [3.9%, 8.2%], p=0.0022"},
		{"latency up", Comparison{Ratio: 1.04, Lo: 1.021, Hi: 1.063, P: 0.0001, Significant: true}, false,
			"slower by 4.0% [2.1%, 6.3%], p<0.001"},
		{"throughput same", Comparison{Ratio: 0.996, Lo: 0.981, Hi: 1.012, P: 0.55}, true,
			"no significant difference (~): -0.4% [-1.9%, +1.2%], p=0.55"},
		// The same comparison of a latency: signs flip with the
		// orientation, the interval stays sorted.
		{"latency same", Comparison{Ratio: 0.996, Lo: 0.981, Hi: 1.012, P: 0.55}, false,
			"no significant difference (~): +0.4% [-1.2%, +1.9%], p=0.55"},
		// A tiny p but not Significant (below MinEffect): still "~".
		{"below min effect", Comparison{Ratio: 1.005, Lo: 1.003, Hi: 1.007, P: 0}, true,
			"no significant difference (~): +0.5% [+0.3%, +0.7%], p<0.001"},
		{"p one", Comparison{Ratio: 1, Lo: 0.99, Hi: 1.01, P: 1}, true,
			"no significant difference (~): +0.0% [-1.0%, +1.0%], p=1"},
		{"no interval", Comparison{Ratio: 1.02, Lo: nan, Hi: nan, P: 1}, true,
			"no significant difference (~): +2.0%, p=1"},
		{"no ratio", Comparison{Ratio: nan, Lo: nan, Hi: nan, P: 1}, true,
			"no comparison: ratio undefined, p=1"},
	}
	for _, tt := range tests {
		if got := Sentence(tt.c, tt.higher); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
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

func TestSeparatesFromNoise(t *testing.T) {
	control := Comparison{Ratio: 1.001, Lo: 0.99, Hi: 1.01}
	nan := math.NaN()
	tests := []struct {
		name string
		arm  Comparison
		want bool
	}{
		{"clear above", Comparison{Lo: 1.03, Hi: 1.06}, true},
		{"clear below", Comparison{Lo: 0.95, Hi: 0.98}, true},
		{"overlaps", Comparison{Lo: 1.005, Hi: 1.03}, false},
		{"touches", Comparison{Lo: 1.01, Hi: 1.03}, false},
		{"inside", Comparison{Lo: 0.995, Hi: 1.005}, false},
		{"covers", Comparison{Lo: 0.9, Hi: 1.1}, false},
		{"undefined", Comparison{Lo: nan, Hi: nan}, false},
	}
	for _, tt := range tests {
		if got := SeparatesFromNoise(tt.arm, control); got != tt.want {
			t.Errorf("%s: SeparatesFromNoise([%v, %v], [0.99, 1.01]) = %v, want %v", tt.name, tt.arm.Lo, tt.arm.Hi, got, tt.want)
		}
	}
	if SeparatesFromNoise(Comparison{Lo: 1.03, Hi: 1.06}, Comparison{Lo: nan, Hi: nan}) {
		t.Error("an undefined control separated")
	}
}
