package harness

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

func order(t *testing.T, arms []string, rounds int, kind string, seed int64) string {
	t.Helper()
	o := map[string]schema.Order{"rotate": schema.OrderRotate, "abba": schema.OrderABBA, "random": schema.OrderRandom}[kind]
	p, err := Plan(arms, rounds, o, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range p {
		if s.Seq != i+1 || s.Round != i/len(arms)+1 {
			t.Fatalf("slot %d: %+v", i, s)
		}
	}
	return strings.Join(Arms(p), "")
}

func TestPlan(t *testing.T) {
	tests := []struct {
		arms   []string
		rounds int
		kind   string
		want   string
	}{
		{[]string{"A", "B"}, 4, "rotate", "ABBAABBA"},
		{[]string{"A", "B", "C"}, 3, "rotate", "ABCBCACAB"},
		{[]string{"A", "B"}, 3, "abba", "ABBAAB"},
		{[]string{"A", "B", "C"}, 2, "abba", "ABCCBA"},
		{[]string{"A"}, 3, "rotate", "AAA"},
	}
	for _, tt := range tests {
		if got := order(t, tt.arms, tt.rounds, tt.kind, 0); got != tt.want {
			t.Errorf("Plan(%v, %d, %s) = %s, want %s", tt.arms, tt.rounds, tt.kind, got, tt.want)
		}
	}
}

func TestPlanRandom(t *testing.T) {
	arms := []string{"A", "B", "C", "D"}
	a := order(t, arms, 20, "random", 7)
	if b := order(t, arms, 20, "random", 7); a != b {
		t.Errorf("same seed, different order: %s vs %s", a, b)
	}
	if c := order(t, arms, 20, "random", 8); a == c {
		t.Errorf("different seeds gave the same order %s", a)
	}
	// Each round is a permutation of the arms.
	for r := 0; r < 20; r++ {
		round := a[r*4 : r*4+4]
		for _, x := range arms {
			if strings.Count(round, x) != 1 {
				t.Fatalf("round %d = %s is not a permutation", r+1, round)
			}
		}
	}
	// Over 20 rounds every arm opens a round at least once.
	for _, x := range arms {
		opened := false
		for r := 0; r < 20; r++ {
			if a[r*4:r*4+1] == x {
				opened = true
			}
		}
		if !opened {
			t.Errorf("arm %s never opened a round in %s", x, a)
		}
	}
}

func TestPlanErrors(t *testing.T) {
	if _, err := Plan([]string{"A"}, 0, schema.OrderRotate, 0); err == nil {
		t.Error("zero rounds accepted")
	}
	if _, err := Plan([]string{"A"}, 1, schema.Order("shuffle"), 0); err == nil {
		t.Error("unknown order accepted")
	}
}
