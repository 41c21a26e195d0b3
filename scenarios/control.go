package scenarios

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// validateControls refuses a negative control that does not run what the
// baseline runs, on the expanded values (a baseline's "${THREADS}" is a
// control's "4" where THREADS is 4): its launch (notBaselines) and its
// counter expectations (controlExpectations). A stored scenario is not
// held to it: it is read as it ran.
func (s *Scenario) validateControls(p *problems) {
	if _, ok := s.Arm(s.Baseline); !ok {
		return // reported as an unknown baseline
	}
	base := s.Launch(s.Baseline)
	for i, a := range s.Arms {
		if !a.Control || a.Name == s.Baseline {
			continue
		}
		if why, verb := notBaselines(s.Launch(a.Name), base); why != "" {
			p.at(fmt.Sprintf("arms[%d].control", i), "a negative control runs the baseline's settings, and %s %s from baseline %s's: its equivalence would be reported of another setting", why, verb, s.Baseline)
		}
		if s.Streams(a.Name) != s.Streams(s.Baseline) {
			p.at(fmt.Sprintf("arms[%d].control", i), "a negative control runs the baseline's settings, and its concurrency (%d) is not baseline %s's (%d)",
				s.Streams(a.Name), s.Baseline, s.Streams(s.Baseline))
		}
		s.controlExpectations(p, a.Name)
	}
}

// notBaselines names what of a control arm's launch differs from the
// baseline's ("" when nothing), and the verb that agrees with it: its args, its environment, its engine's
// fixed arguments, its engine's own environment (its version command's)
// or its version command. Its engine binary may be another path (a copy
// of the baseline's binary is the check that copying changes nothing):
// the run refuses it unless it hashes as the baseline's (harness,
// engineSet.controlsHashed).
func notBaselines(control, baseline Launch) (why, verb string) {
	var what []string
	if !slices.Equal(control.Args, baseline.Args) {
		what = append(what, "its args")
	}
	if !maps.Equal(control.Env, baseline.Env) {
		what = append(what, "its environment")
	}
	if c, b := fixedArgs(control), fixedArgs(baseline); !slices.Equal(c, b) {
		what = append(what, fmt.Sprintf("its engine's fixed arguments (%s; the baseline's: %s)", words(c), words(b)))
	}
	if !maps.Equal(control.EngineEnv, baseline.EngineEnv) {
		what = append(what, "its engine's environment")
	}
	if !slices.Equal(control.VersionCommand, baseline.VersionCommand) {
		what = append(what, "its version command")
	}
	switch {
	case len(what) == 0:
		return "", ""
	case len(what) == 1 && what[0] != "its args" && !strings.HasPrefix(what[0], "its engine's fixed arguments"):
		return what[0], "differs"
	case len(what) == 1:
		return what[0], "differ"
	}
	return strings.Join(what[:len(what)-1], ", ") + " and " + what[len(what)-1], "differ"
}

// fixedArgs is the engine command's arguments, without its binary.
func fixedArgs(l Launch) []string {
	if len(l.EngineCommand) < 2 {
		return nil
	}
	return l.EngineCommand[1:]
}

func words(ws []string) string {
	if len(ws) == 0 {
		return "none"
	}
	return "[" + strings.Join(ws, " ") + "]"
}

// controlExpectations refuses a control's own counter expectation that is
// not the baseline's: the counter gate judges a control as the baseline,
// and one that expected another reading would pass with another engine
// or setting. A control may leave its expectation out: it takes the
// baseline's.
func (s *Scenario) controlExpectations(p *problems, arm string) {
	for i, c := range s.Counters {
		ex, own := c.Expect[arm]
		if !own {
			continue
		}
		key := fmt.Sprintf("counters[%d].expect.%s", i, arm)
		bx, ok := c.Expect[s.Baseline]
		if !ok {
			p.at(key, "a negative control is judged as the baseline, and baseline %s has no expectation for counter %q: drop the control's", s.Baseline, c.Name)
			continue
		}
		xc, errC := c.ParseExpect(ex)
		xb, errB := c.ParseExpect(bx)
		if errC == nil && errB == nil && xc != xb {
			p.at(key, "a negative control is judged as the baseline: %q is not baseline %s's %q; give it the baseline's, or leave it out to take it", ex, s.Baseline, bx)
		}
	}
}
