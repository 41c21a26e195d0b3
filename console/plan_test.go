package console

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/scenarios"
)

// shipped is the shipped scenario name with edit applied to its source,
// parsed offline.
func shipped(t *testing.T, name string, edit func(string) string) *scenarios.Scenario {
	t.Helper()
	src, err := scenarios.ShippedSource(name)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := scenarios.Parse(name+".yaml", ".", []byte(edit(string(src))), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plan is Plan's text of s on the guessed host, with opts.
func plan(t *testing.T, s *scenarios.Scenario, o planner.Options) string {
	t.Helper()
	p := planner.New(s, planner.Guess(s.EstimateShape(), s.Policy.Primary), o)
	var b bytes.Buffer
	if err := Plan(&b, s, p, "recs"); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The plan's header says the control's veto is made up for only where
// the scenario has a control.
func TestPlanHeaderControl(t *testing.T) {
	const veto = "a control's veto made up for"
	withControl := shipped(t, "llamacpp-speculative", func(s string) string { return s })
	if got := plan(t, withControl, planner.Options{}); !strings.Contains(strings.SplitN(got, "\n", 2)[0], veto) {
		t.Errorf("with a control: %q", got)
	}
	noControl := shipped(t, "llamacpp-speculative", func(s string) string {
		s = strings.Replace(s, "  - name: control\n    control: true\n    args: [\"--spec-type\", \"none\"]\n", "", 1)
		return strings.Replace(s, "compare: [draft, control]", "compare: [draft]", 1)
	})
	if got := plan(t, noControl, planner.Options{}); strings.Contains(got, veto) {
		t.Errorf("without a control: %q", strings.SplitN(got, "\n", 2)[0])
	}
}
