package scenarios

import "testing"

// SlotTokens reads llama-server's context as the engine does (the last
// -c or --ctx-size, an arm's args after the command's, else
// LLAMA_ARG_CTX_SIZE), splits it across -np slots, takes the least over
// the arms and leaves out the prompt ("hi": 2 bytes and a BOS); no
// context given, nothing is known.
func TestSlotTokens(t *testing.T) {
	for _, tc := range []struct {
		name, command, arms string
		want                int
		ok                  bool
	}{
		{"none", "", "  - {name: s1}\n  - {name: s2, args: [-t, '1']}\n", 0, false},
		{"-c", `, -c, "1024"`, "  - {name: s1}\n  - {name: s2, args: [-t, '1']}\n", 1021, true},
		{"--ctx-size=, split", `, --ctx-size=2048, -np, "2"`, "  - {name: s1}\n  - {name: s2, args: [-t, '1']}\n", 1021, true},
		{"an arm's own, the least", `, -c, "4096"`, "  - {name: s1}\n  - {name: s2, args: [-c, '512']}\n", 509, true},
		{"env", "", "  - {name: s1, env: {LLAMA_ARG_CTX_SIZE: '300'}}\n  - {name: s2, args: [-t, '1']}\n", 297, true},
		{"not a number", `, -c, "${CTX}"`, "  - {name: s1}\n  - {name: s2, args: [-t, '1']}\n", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := concScenario("", tc.command, tc.arms, "decode_tok_s")
			s, _, err := parseString(t, src, Options{LookupEnv: func(k string) (string, bool) { return "", k == "CTX" }})
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := s.SlotTokens(); got != tc.want || ok != tc.ok {
				t.Errorf("SlotTokens() = %d, %v; want %d, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
