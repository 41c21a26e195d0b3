package bisect

import (
	"fmt"
	"os"

	"github.com/decodebench/decodebench/scenarios"
)

// loadStep loads the scenario with the two worktrees as its variables and
// set applied, and says the hash of the same bytes without set: the
// scenario the bisect started with (and was consented to), which a step
// run again at more rounds is held to. The file is read once.
func loadStep(path, candDir, refDir string, set []string) (*scenarios.Scenario, string, error) {
	lookup := func(name string) (string, bool) {
		switch name {
		case CandidateVar:
			return candDir, true
		case ReferenceVar:
			return refDir, true
		}
		return os.LookupEnv(name)
	}
	src, file, dir, err := scenarios.ReadSource(path)
	if err != nil {
		return nil, "", err
	}
	s, _, err := scenarios.Parse(file, dir, src, scenarios.Options{LookupEnv: lookup, Set: set})
	if err != nil {
		return nil, "", err
	}
	if len(set) == 0 {
		return s, s.Hash(), nil
	}
	plain, _, err := scenarios.Parse(file, dir, src, scenarios.Options{LookupEnv: lookup})
	if err != nil {
		return nil, "", err
	}
	return s, plain.Hash(), nil
}

// bisectArms finds the reference arm (the baseline) and the candidate
// (the one other arm that is not a control), and checks that the scenario
// uses both worktrees: without them every step would measure the same
// build.
func bisectArms(s *scenarios.Scenario) (ref, cand string, err error) {
	for _, a := range s.Arms {
		if a.Name == s.Baseline || a.Control {
			continue
		}
		if cand != "" {
			return "", "", fmt.Errorf("%s: a bisect compares two arms, the baseline (the good commit's build) and one candidate; %s and %s are both candidates", s.Path, cand, a.Name)
		}
		cand = a.Name
	}
	if cand == "" {
		return "", "", fmt.Errorf("%s: no arm besides the baseline to run the candidate commit's build", s.Path)
	}
	used := map[string]bool{}
	for _, kv := range s.VarsUsed() {
		used[kv.Key] = true
	}
	for _, v := range []string{CandidateVar, ReferenceVar} {
		if !used[v] {
			return "", "", fmt.Errorf("%s never uses ${%s}: the candidate arm's engine runs from ${%s}, the baseline's from ${%s}", s.Path, v, CandidateVar, ReferenceVar)
		}
	}
	return s.Baseline, cand, nil
}

// baseRounds is a step's first campaign's rounds per arm: the scenario's,
// the most an adaptive one may run.
func baseRounds(s *scenarios.Scenario) int {
	if s.Schedule.Rounds.Adaptive() {
		return s.Schedule.Rounds.Max
	}
	return s.Schedule.Rounds.Min
}
