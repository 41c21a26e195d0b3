package scenarios

import "testing"

// TestDemoSchedule: the demo serves three measured requests a start (its
// own noise anatomy's advice, and what makes it measure more than 40% of
// its wall time) and looks at 5 and 10 rounds, so that it runs in a few
// minutes on 2 cores.
func TestDemoSchedule(t *testing.T) {
	s, _, err := Parse("t.yaml", ".", mustShipped(t), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Schedule.Rounds
	if s.Policy.Schedule.Requests != 3 || s.Schedule.Warmup != 1 || !r.Sequential() || r.Min != 5 || r.Max != 10 || len(r.Looks()) != 2 {
		t.Errorf("demo schedule: %d requests, %d warmups, rounds %+v (looks %v)", s.Policy.Schedule.Requests, s.Schedule.Warmup, r, r.Looks())
	}
}
