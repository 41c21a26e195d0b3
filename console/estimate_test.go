package console

import (
	"testing"
	"time"

	"github.com/decodebench/decodebench/estimate"
)

// What an estimate went by, said for a server and for a command engine:
// the guess with its assumptions, or the record with its costs and every
// way they were adjusted.
func TestEstimateBasis(t *testing.T) {
	server := estimate.Shape{Feature: "spec-draft", MaxTokens: 128, ReadyTimeout: time.Minute, Cooldown: time.Second, Rounds: 10, Arms: 2}
	command := server
	command.Command = true
	fromRecord := estimate.Costs{Basis: estimate.BasisAnatomy, Record: "recs/a.md", Hardware: "epyc", OtherHardware: true,
		Start: 3400 * time.Millisecond, Request: 1035 * time.Millisecond, RecordTokens: 256, Adjusted: true}
	for _, tc := range []struct {
		name  string
		shape estimate.Shape
		costs estimate.Costs
		want  string
	}{
		{"server guess", server, estimate.Guess(server),
			"a guess: an engine start of 5s, 50 tok/s and 500ms a request besides its tokens; no record of spec-draft in recs with a noise anatomy or run times to go by"},
		{"command guess", command, estimate.Guess(command),
			"a guess: a run of the command 8.06s (its start 5s, its tokens at 50 tok/s and 500ms besides); no record of spec-draft in recs with a noise anatomy or run times to go by"},
		{"server record", server, fromRecord,
			"from recs/a.md: start 3.40 s, request 1.03 s, by its noise anatomy; scaled from its 256 tokens to 128; " +
				"the start moved to this scenario's cooldown and warmups; a record of other hardware (epyc): none of this machine's could be used"},
		{"named hardware", func() estimate.Shape { s := server; s.Hardware = "h200"; return s }(), fromRecord,
			"from recs/a.md: start 3.40 s, request 1.03 s, by its noise anatomy; scaled from its 256 tokens to 128; " +
				"the start moved to this scenario's cooldown and warmups; a record of other hardware (epyc): none of h200's, the hardware the scenario names, could be used"},
		{"command runs", command, estimate.Costs{Basis: estimate.BasisRuns, Record: "recs/b.md", Start: time.Second, Request: 2 * time.Second},
			"from recs/b.md: between runs 1.00 s, a run of the command 2.00 s, by its runs' times"},
	} {
		if got := EstimateBasis(tc.shape, tc.costs, "recs"); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
