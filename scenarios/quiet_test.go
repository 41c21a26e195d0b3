package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

const quietBase = `feature: q
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: "Once", max_tokens: 16}
arms:
  - {name: a}
  - {name: b, args: [-x]}
baseline: a
allow_unverified: test
unmeasured: [Prefill.]
schedule:
  rounds: 4
`

func parseQuiet(t *testing.T, extra string) *Scenario {
	t.Helper()
	s, _, err := Parse("q.yaml", ".", []byte(quietBase+extra), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestQuietGateOffByDefault(t *testing.T) {
	s := parseQuiet(t, "")
	if s.Policy.Gates.Quiet != nil {
		t.Errorf("quiet gate on without gates.quiet: %+v", s.Policy.Gates.Quiet)
	}
	if s.Policy.Schedule.UntilQuiet != nil {
		t.Errorf("adaptive cooldown without until_quiet")
	}
}

func TestQuietGateDefaultsAndValues(t *testing.T) {
	s := parseQuiet(t, "gates:\n  quiet: {}\n")
	q := s.Policy.Gates.Quiet
	if q == nil || q.Window != 30*time.Second || q.Interval != 2*time.Second || q.MaxWait != 10*time.Minute || q.MaxCPU != 0.15 || q.OnBusy != schema.BusyWait {
		t.Fatalf("defaults: %+v", q)
	}
	s = parseQuiet(t, "gates:\n  quiet: {window: 10s, interval: 1s, max_cpu: 5%, deny: [spinner], max_wait: 1m, on_busy: abort}\n")
	q = s.Policy.Gates.Quiet
	if q.Window != 10*time.Second || q.Interval != time.Second || q.MaxWait != time.Minute || q.MaxCPU != 0.05 || q.OnBusy != schema.BusyAbort || strings.Join(q.Deny, ",") != "spinner" {
		t.Fatalf("values: %+v", q)
	}
	if parseQuiet(t, "gates:\n  quiet: {on_busy: mark}\n").Policy.Gates.Quiet.OnBusy != schema.BusyMark {
		t.Error("on_busy: mark not typed")
	}
}

func TestCooldownForms(t *testing.T) {
	fixed := parseQuiet(t, "  cooldown: 3s\n")
	if fixed.Schedule.Cooldown.Duration != 3*time.Second || fixed.Policy.Schedule.Cooldown != 3*time.Second || fixed.Policy.Schedule.UntilQuiet != nil || fixed.Schedule.Cooldown.String() != "3s" {
		t.Fatalf("fixed: %+v", fixed.Schedule.Cooldown)
	}
	// A fixed cooldown hashes as it did before the type could be adaptive.
	if b, _ := fixed.Schedule.Cooldown.MarshalJSON(); string(b) != `"3s"` {
		t.Errorf("fixed cooldown JSON %s", b)
	}
	ad := parseQuiet(t, "  cooldown: {until_quiet: {min: 1s, max: 40s}}\n")
	if u := ad.Policy.Schedule.UntilQuiet; u == nil || u.Min != time.Second || u.Max != 40*time.Second {
		t.Fatalf("adaptive: %+v", u)
	}
	if got := ad.Schedule.Cooldown.String(); got != "until quiet (1s–40s)" {
		t.Errorf("String %q", got)
	}
	if fixed.Hash() == ad.Hash() {
		t.Error("fixed and adaptive cooldowns hash alike")
	}
	def := parseQuiet(t, "  cooldown: {until_quiet: {}}\n")
	if u := def.Policy.Schedule.UntilQuiet; u == nil || u.Min != DefaultCooldownMin || u.Max != DefaultCooldownMax {
		t.Fatalf("adaptive defaults: %+v", u)
	}
	// min defaults to 5s, above a max of 3s: refused.
	if _, _, err := Parse("q.yaml", ".", []byte(quietBase+"  cooldown: {until_quiet: {max: 3s}}\n"), Options{LookupEnv: noEnv}); err == nil || !strings.Contains(err.Error(), "until_quiet.min 5s is longer than max 3s") {
		t.Errorf("min above max: %v", err)
	}
}
