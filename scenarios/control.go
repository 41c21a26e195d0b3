package scenarios

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// validateControls refuses a negative control whose args or environment
// are not the baseline's, on the expanded values (a baseline's
// "${THREADS}" is a control's "4" where THREADS is 4). A stored scenario
// is not held to it: it is read as it ran.
func (s *Scenario) validateControls(p *problems) {
	for i, a := range s.Arms {
		if !a.Control || a.Name == s.Baseline {
			continue
		}
		if why := notBaselines(s.Launch(a.Name), s.Launch(s.Baseline)); why != "" {
			p.at(fmt.Sprintf("arms[%d].control", i), "a negative control runs the baseline's settings, and %s differ from baseline %s's: its equivalence would be reported of another setting", why, s.Baseline)
		}
	}
}

// notBaselines names what of a control arm's launch differs from the
// baseline's ("" when nothing): its arguments or its environment. Its
// engine command may name another path (a copy of the baseline's binary
// is the check that copying changes nothing), which the run compares by
// hash.
func notBaselines(control, baseline Launch) string {
	var what []string
	if !slices.Equal(control.Args, baseline.Args) {
		what = append(what, "its args")
	}
	if !maps.Equal(control.Env, baseline.Env) {
		what = append(what, "its environment")
	}
	return strings.Join(what, " and ")
}
