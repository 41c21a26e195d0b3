package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

func TestOverridesApply(t *testing.T) {
	base, _, err := Load("llamacpp-speculative", Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	set := []string{"schedule.cooldown=0s", "engine.request.max_tokens=32", RoundsOverride(4),
		"engine.stop_grace=1s", "arms[2].args[0]=--spec-type", "vars.THREADS=1", "engine.request.ignore_eos=false"}
	s, _, err := Load("llamacpp-speculative", Options{LookupEnv: noEnv, Set: set})
	if err != nil {
		t.Fatal(err)
	}
	if s.Schedule.Cooldown.Duration != 0 || s.Engine.Request.MaxTokens != 32 || s.Schedule.Rounds != (Rounds{Min: 4, Max: 4}) ||
		s.Engine.StopGrace.Seconds() != 1 || s.Engine.Request.IgnoreEOS || s.Vars["THREADS"] != "1" {
		t.Errorf("overrides not applied: %+v %+v", s.Schedule, s.Engine.Request)
	}
	if !strings.Contains(strings.Join(s.Engine.Command, " "), "-t 1 ") {
		t.Errorf("vars override not used: %v", s.Engine.Command)
	}
	if strings.Join(s.Overrides, " ") != strings.Join(set, " ") {
		t.Errorf("Overrides = %q", s.Overrides)
	}
	if s.Hash() == base.Hash() {
		t.Error("an overridden scenario hashes like the original")
	}
	if len(base.Overrides) != 0 {
		t.Errorf("no overrides given, got %q", base.Overrides)
	}
	if s.Policy.Schedule.Rounds.Min != 4 {
		t.Errorf("policy not compiled from the overridden value: %+v", s.Policy.Schedule)
	}
}

// --rounds replaces adaptive rounds, a mapping, by a number.
func TestRoundsOverrideReplacesMapping(t *testing.T) {
	src := sweepScenario(sweepArms, `{classic: "== 0", "mtp-*": "> 0"}`)
	src = strings.Replace(src, "rounds: 6", "rounds: {min: 5, max: 30, until_ci_width: 2%}", 1)
	s, _, err := parseString(t, src, Options{Set: []string{RoundsOverride(7)}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Schedule.Rounds != (Rounds{Min: 7, Max: 7}) {
		t.Errorf("rounds %+v", s.Schedule.Rounds)
	}
	// Generated arms can be addressed.
	s, _, err = parseString(t, src, Options{Set: []string{"arms[6].args[1]=9"}})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := s.Arm("mtp-b4-t2"); a.Args[1] != "9" {
		t.Errorf("generated arm args %v", a.Args)
	}
}

func TestOverrideErrors(t *testing.T) {
	tests := []struct{ set, want string }{
		{"schedule.coldown=0s", `--set: schedule.coldown=0s: unknown key "schedule.coldown" (did you mean "cooldown"?)`},
		{"engine.nope.x=1", `unknown key "engine.nope"`},
		{"schedule.cooldown", `"schedule.cooldown": expected PATH=VALUE`},
		{"=3", `expected PATH=VALUE`},
		{"arms[9].name=x", `arms[9]: no such item (the list has 3)`},
		{"arms.name=x", `arms is a list: give an item's index, e.g. arms[0].name`},
		{"engine.request=3", `engine.request is a mapping: --set sets single values`},
		{"engine.command=x", `engine.command is a list`},
		{"exactness=x", `exactness is a mapping`},
		{"stats=x", `stats holds a mapping, not a single value`},
		{"schedule.cooldown.until_quiet=10", `schedule.cooldown is "2s", not a mapping`},
		{"feature[0]=x", `feature[0] is not a list`},
		{"a..b=1", `empty part`},
		{"arms[x].name=1", `bad index`},
		// Checked like a value written in the file, and said to come from --set.
		{"schedule.order=shuffle", `schedule.order: "shuffle" is not one of rotate, abba, random (value from --set schedule.order=shuffle)`},
		{"engine.request.max_tokens=many", `engine.request.max_tokens: expected an integer, got "many" (value from --set engine.request.max_tokens=many)`},
		{"schedule.cooldown=-1s", `schedule.cooldown: must not be negative (value from --set schedule.cooldown=-1s)`},
		{"schedule.rounds=0", `must be at least 1 (got 0) (value from --set schedule.rounds=0)`},
		// A gate's share written as a whole number (meant as a percentage)
		// read as 400%: the gate could never close.
		{"gates.max_contended=20", `gates.max_contended: must be at most 100% (got 2000%)`},
		{"gates.contended_cpu=150%", `gates.contended_cpu: must be at most 100% (got 150%)`},
		// A tag decodes to something other than what the check read.
		{"on_gate_failure=!!binary stop", `on_gate_failure: the value is tagged !!binary, which this field does not read`},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			_, _, err := Load("llamacpp-speculative", Options{LookupEnv: noEnv, Set: []string{tt.set}})
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("no %q in:\n%v", tt.want, err)
			}
		})
	}
}

// A spread or drift gate past 100% loads (a heavy-tailed metric's spread,
// or a change, can be that large); a whole number there, a bare 4 meant as
// 4% that reads 400%, is warned of, and a percentage such as 150% is not.
func TestGatePastAHundredPercentWarns(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"gates.max_spread=4", "gates.max_spread: is 400%: a bare number is a fraction (0.04), so 4 is 400%; write 4% for that many percent"},
		{"gates.max_drift=2", "gates.max_drift: is 200%: a bare number is a fraction (0.04), so 2 is 200%; write 2% for that many percent"},
		{"gates.max_spread=150%", ""},
		{"gates.max_drift=1.5", ""},
	} {
		_, warns, err := Load("llamacpp-speculative", Options{LookupEnv: noEnv, Set: []string{c.set}})
		if err != nil {
			t.Fatalf("%s: %v", c.set, err)
		}
		got := fmt.Sprint(warns)
		if c.want != "" && !strings.Contains(got, c.want) || c.want == "" && strings.Contains(got, "a bare number") {
			t.Errorf("%s: warnings %v", c.set, got)
		}
	}
}

// --set schedule.rounds.max_time=0 drops a shipped scenario's budget: its
// max ends the schedule.
func TestOverrideDropsTheBudget(t *testing.T) {
	s, _, err := Load("llamacpp-speculative", Options{LookupEnv: noEnv, Set: []string{"schedule.rounds.max_time=0"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Schedule.Rounds; r.MaxTime.Duration != 0 || r.Max != 10 || r.Every != 5 {
		t.Errorf("rounds %+v, want the demo's without a budget", r)
	}
}

// A budgeted schedule whose max is off its looks' grid is warned of at max;
// one on the grid, one without a budget, and one whose max is the budget's
// default (the last look within 100 rounds), are not.
func TestBudgetMaxOffTheGridWarns(t *testing.T) {
	src, err := ShippedSource("llamacpp-speculative")
	if err != nil {
		t.Fatal(err)
	}
	const demo = "rounds: {min: 5, max: 10, max_time: 10m, every: 5}"
	if !strings.Contains(string(src), demo) {
		t.Fatalf("the demo's rounds are not %q", demo)
	}
	for rounds, want := range map[string]string{
		"{min: 10, max: 23, every: 5, max_time: 10m}": "schedule.rounds.max: under a budget a look goes on only when every (5) more rounds fit, so the look at max (23), 3 round(s) after the one at 20, is never taken: give max: 20 or 25",
		// A budget without max takes the last look within 100 rounds.
		"{min: 3, every: 5, max_time: 10m}":          "",
		"{min: 3, every: 3, max_time: 1m}":           "",
		"{min: 5, max: 25, every: 5, max_time: 10m}": "",
		"{min: 10, max: 23, every: 5}":               "",
		// A max past the grid's next look would be over the rounds' limit.
		"{min: 3, max: 1000, every: 5, max_time: 1h}": "schedule.rounds.max: under a budget a look goes on only when every (5) more rounds fit, so the look at max (1000), 2 round(s) after the one at 998, is never taken: give max: 998 (min",
	} {
		s, warns, err := Parse("t.yaml", ".", []byte(strings.Replace(string(src), demo, "rounds: "+rounds, 1)), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatalf("%s: %v", rounds, err)
		}
		// The estimate (and so validate's line and the 7-day bound) takes
		// the rounds the budget runs: the grid's last look, not max.
		if sh, r := s.EstimateShape(), s.Schedule.Rounds; want != "" && (sh.Rounds%5 != r.Min%5 || sh.Rounds >= r.Max || sh.Looks[len(sh.Looks)-1] != sh.Rounds) {
			t.Errorf("%s: estimated at %d rounds, looks %v", rounds, sh.Rounds, sh.Looks)
		}
		got := ""
		for _, w := range warns {
			if strings.Contains(w.Msg, "never taken") {
				got = w.Key + ": " + w.Msg
			}
		}
		if (want == "") != (got == "") || !strings.HasPrefix(got, want) {
			t.Errorf("%s: warning %q, want %q", rounds, got, want)
		}
		if m, ok := map[string]int{"{min: 3, every: 5, max_time: 10m}": 98, "{min: 3, every: 3, max_time: 1m}": 99}[rounds]; ok && s.Schedule.Rounds.Max != m {
			t.Errorf("%s: max %d by default, want %d", rounds, s.Schedule.Rounds.Max, m)
		}
	}
	// No look within 100 rounds after min: max must be given.
	_, _, err = Parse("t.yaml", ".", []byte(strings.Replace(string(src), demo, "rounds: {min: 98, every: 5, max_time: 1h}", 1)), Options{LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "schedule.rounds.max_time: without max, a budget's max is its last look within 100 rounds") {
		t.Errorf("{min: 98, every: 5, max_time: 1h}: %v", err)
	}
}
