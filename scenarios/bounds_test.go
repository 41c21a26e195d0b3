package scenarios

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestTooManyArms(t *testing.T) {
	var arms strings.Builder
	for i := 0; i < 65; i++ {
		fmt.Fprintf(&arms, "  - name: a%d\n    args: [\"--spec-type\", \"none\"]\n", i)
	}
	src := strings.Replace(string(mustShipped(t)), "arms:\n", "arms:\n"+arms.String(), 1)
	_, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "68 arms is more than the limit of 64") {
		t.Errorf("got %v", err)
	}
}

func TestEstimate(t *testing.T) {
	s, _, err := Parse("t.yaml", ".", mustShipped(t), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	// At most 10 rounds (the sequential schedule's last look) × 3 arms ×
	// (2s cooldown + 10s start + (1 warmup + 1 measured) × (1s + 256/20 s)).
	want := 30 * (2*time.Second + 10*time.Second + 2*(time.Second+12800*time.Millisecond))
	if got := s.Estimate(); got != want {
		t.Errorf("Estimate() = %v, want %v", got, want)
	}
	s.Schedule.Rounds = Rounds{Min: 5, Max: 20}
	if got := s.Estimate(); got != 2*want {
		t.Errorf("adaptive: Estimate() = %v, want the maximum rounds' %v", got, 2*want)
	}
}
