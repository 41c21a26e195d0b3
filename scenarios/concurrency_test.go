package scenarios

import (
	"strings"
	"testing"
)

// concScenario is a valid llama.cpp scenario whose arms, command tail and
// primary the caller writes.
func concScenario(kind, command, arms, primary string) string {
	return `feature: conc
engine:
  preset: llama.cpp
` + kind + `  command: [llama-server, --port, "${PORT}"` + command + `]
  request: {prompt: hi, max_tokens: 128}
arms:
` + arms + `baseline: s1
schedule: {rounds: 6, cooldown: 0s}
counters:
  - name: slots
    props: total_slots
    expect: {s1: "== 1", "s?": "> 1"}
metrics: {primary: ` + primary + `}
unmeasured: [everything else]
`
}

const concSweep = `  - matrix: {streams: [1, 2, 4]}
    name: "s${streams}"
    concurrency: "${streams}"
    args: [-np, "${streams}"]
`

func TestConcurrencyMatrixSweep(t *testing.T) {
	s, _, err := parseString(t, concScenario("", `, -c, "2048"`, concSweep, "aggregate_decode_tok_s"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Concurrent() {
		t.Fatal("a scenario whose arms set concurrency is not concurrent")
	}
	for arm, want := range map[string]int{"s1": 1, "s2": 2, "s4": 4, "nosuch": 1} {
		if got := s.Streams(arm); got != want {
			t.Errorf("Streams(%s) = %d, want %d", arm, got, want)
		}
	}
	plain, _, err := parseString(t, concScenario("", "", "  - {name: s1}\n  - {name: s2, args: [-t, '1']}\n", "decode_tok_s"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Concurrent() || plain.Streams("s2") != 1 {
		t.Error("a scenario without concurrency runs one stream an arm")
	}
}

// Every form of a bad concurrency is refused at load, at the line of the
// arm (the template's line for a matrix).
func TestConcurrencyRefused(t *testing.T) {
	for _, tc := range []struct {
		name, kind, command, arms, primary, want string
	}{
		{"zero", "", "", "  - {name: s1}\n  - {name: s2, concurrency: 0}\n", "decode_tok_s", "s.yaml:8:29: arms[1].concurrency: 0 streams: concurrency is 1 to 64"},
		{"too many", "", `, -np, "100"`, "  - {name: s1}\n  - {name: s2, concurrency: 65}\n", "decode_tok_s", "arms[1].concurrency: 65 streams: concurrency is 1 to 64"},
		{"negative", "", "", "  - {name: s1}\n  - {name: s2, concurrency: -2}\n", "decode_tok_s", "concurrency is 1 to 64"},
		{"not a number", "", "", "  - {name: s1}\n  - {name: s2, concurrency: many}\n", "decode_tok_s", `invalid concurrency (a number of streams) "many"`},
		{"matrix not a number", "", "", "  - {name: s1}\n  - matrix: {n: [2, x]}\n    name: s2-${n}\n    concurrency: ${n}\n", "decode_tok_s", `s.yaml:10:18: arms[2].concurrency: invalid concurrency (a number of streams) "x"`},
		{"command engine", "  kind: command\n  output: {metrics: {decode_tok_s: 'rate ([0-9.]+)'}}\n", "", "  - {name: s1}\n  - {name: s2, concurrency: 2}\n", "decode_tok_s", "a command engine runs one process per measured run"},
		{"no slots", "", "", "  - {name: s1}\n  - {name: s2, concurrency: 2}\n", "decode_tok_s", "2 streams need llama-server started with at least 2 slots: add -np 2"},
		{"too few slots", "", `, -np, "2"`, "  - {name: s1}\n  - {name: s2, concurrency: 4}\n", "decode_tok_s", "4 streams, but the command gives llama-server -np 2 slots"},
		{"too few slots, arg wins", "", `, --parallel=8`, "  - {name: s1}\n  - {name: s2, concurrency: 4, args: [-np, '3']}\n", "decode_tok_s", "-np 3 slots"},
		{"too few slots, env", "", "", "  - {name: s1}\n  - {name: s2, concurrency: 4, env: {LLAMA_ARG_N_PARALLEL: '2'}}\n", "decode_tok_s", "-np 2 slots"},
		{"context split", "", `, -np, "4", -c, "256"`, "  - {name: s1}\n  - {name: s2, concurrency: 4}\n", "decode_tok_s", "llama-server splits -c 256 across its 4 slots: 64 tokens each, fewer than max_tokens (128)"},
		{"several requests a start", "", "", "  - {name: s1}\n  - {name: s2, concurrency: 1, args: [-t, '1']}\nschedule: {requests: 3}\n", "decode_tok_s", "concurrent streams are measured once per engine start: give schedule.requests 1 (it is 3)"},
		{"stream metric without streams", "", "", "  - {name: s1}\n  - {name: s2}\n", "stream_decode_tok_s", `metrics.primary: "stream_decode_tok_s" is measured only when an arm sets concurrency`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseString(t, concScenario(tc.kind, tc.command, tc.arms, tc.primary), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// Enough slots, given any way llama-server reads them, load.
func TestConcurrencySlotsAccepted(t *testing.T) {
	for _, tc := range []struct{ command, arms string }{
		{`, -np, "4", -c, "2048"`, "  - {name: s1}\n  - {name: s2, concurrency: 4}\n"},
		{`, --parallel, "8"`, "  - {name: s1}\n  - {name: s2, concurrency: 4}\n"},
		{"", "  - {name: s1}\n  - {name: s2, concurrency: 4, env: {LLAMA_ARG_N_PARALLEL: '4'}}\n"},
		{"", "  - {name: s1, concurrency: 1}\n  - {name: s2, concurrency: 1, args: [-t, '1']}\n"},
	} {
		if _, _, err := parseString(t, concScenario("", tc.command, tc.arms, "decode_tok_s"), Options{}); err != nil {
			t.Errorf("%s %s: %v", tc.command, tc.arms, err)
		}
	}
}
