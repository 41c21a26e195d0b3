package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
)

// maskedLaunches names each engine argument and environment value of a
// scenario read from its stored copy that holds a mask: decodebench
// stores no secret, so the engine would get "[redacted]" in its place (a
// resume's runs under another environment than the campaign's, which
// check cannot see: the copy hashes as the record says).
func maskedLaunches(s *scenarios.Scenario) []string {
	var out []string
	for _, l := range s.Launches() {
		for i, a := range l.Command {
			if strings.Contains(a, redact.Mask) {
				out = append(out, fmt.Sprintf("arm %s's argument %d", l.Arm, i))
			}
		}
		var names []string
		for k, v := range l.Env {
			if strings.Contains(v, redact.Mask) {
				names = append(names, k)
			}
		}
		slices.Sort(names)
		for _, k := range names {
			out = append(out, fmt.Sprintf("arm %s's %s", l.Arm, k))
		}
	}
	return out
}

// maskedError refuses to run a stored scenario copy that holds masks.
func maskedError(what string, masked []string) error {
	if len(masked) > 6 {
		masked = append(masked[:6], fmt.Sprintf("and %d more", len(masked)-6))
	}
	return fmt.Errorf("%s: the scenario's stored copy masks values decodebench never stores (%s): the engine would get %q in their place; run from the original scenario file, which holds them", what, strings.Join(masked, ", "), redact.Mask)
}
