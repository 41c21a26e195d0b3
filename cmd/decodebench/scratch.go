package main

import (
	"strings"

	"github.com/decodebench/decodebench/scenarios"
)

// scratchOut is where run puts, without --out, what is not a record to
// publish: a quick look (an override of the schedule: --rounds, --set
// schedule.…) from the start, a failed try (FAILED, REJECTED) at its end.
// It is the clone's scratch/ folder, beside docs/benchmark_results, which
// git ignores and the index never reads.
const scratchOut = "scratch"

// quickLook returns the schedule overrides that make a campaign a quick
// look; none for one that runs its scenario's schedule.
func quickLook(s *scenarios.Scenario) []string {
	var out []string
	for _, o := range s.Overrides {
		if key, _, _ := strings.Cut(o, "="); strings.HasPrefix(key, "schedule.") {
			out = append(out, o)
		}
	}
	return out
}
