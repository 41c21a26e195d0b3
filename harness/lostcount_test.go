package harness

import (
	"os"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// countersOf reads a scenario's counters from command output lines, as a
// command engine's run does.
func countersOf(t *testing.T, p scenarios.Policy, lines []string) map[string]schema.CounterReading {
	t.Helper()
	out := map[string]schema.CounterReading{}
	for _, c := range p.Counters {
		k, err := engine.NewCounter(c)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := k.Read(engine.Observation{Window: lines})
		if err != nil {
			t.Fatal(err)
		}
		out[c.Name] = schema.CounterReading{Value: rd.Value, Absent: rd.Absent}
	}
	return out
}

// A llama-speculative run whose log lost its last lines (real output, cut
// after the timing line as the CLI's unflushed log thread cuts it) fails,
// to be retried, instead of reading its draft size and drafted count as 0
// and rejecting the campaign, and names the counter it lost; the whole
// output passes, and a count whose absence the arm's expectation allows
// stays recorded as absent.
func TestLostCountFailsTheRun(t *testing.T) {
	s, _, err := scenarios.Load("llamacpp-speculative-cli", scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/llama-speculative-draft3.out")
	if err != nil {
		t.Fatal(err)
	}
	whole := strings.Split(string(b), "\n")
	cut := 0
	for i, l := range whole {
		if strings.Contains(l, "decoded ") {
			cut = i + 1
		}
	}
	run := &schema.Run{Arm: "draft3", Counters: countersOf(t, s.Policy, whole)}
	if err := lostCount(s.Policy, run); err != nil || run.Counters["drafted"].Value != 24 || run.LostCount != "" {
		t.Fatalf("the whole output: %v, counters %+v, lost %q", err, run.Counters, run.LostCount)
	}
	run.Counters = countersOf(t, s.Policy, whole[:cut])
	err = lostCount(s.Policy, run)
	if err == nil || !strings.Contains(err.Error(), "has no match for counter draft_size") {
		t.Fatalf("the output without its last lines: %v, counters %+v", err, run.Counters)
	}
	// The run names the counter it lost, which the analysis bounds.
	if run.LostCount != "draft_size" {
		t.Errorf("the run's lost count: %q", run.LostCount)
	}
	allowed := s.Policy
	allowed.Counters = nil
	for _, c := range s.Policy.Counters {
		if c.Name == "accepted" { // expects >= 0
			allowed.Counters = append(allowed.Counters, c)
		}
	}
	if err := lostCount(allowed, run); err != nil || !run.Counters["accepted"].Absent {
		t.Errorf("a count whose absence the expectation allows: %v, %+v", err, run.Counters["accepted"])
	}
}
