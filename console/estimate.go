package console

import (
	"fmt"
	"strings"
	"time"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/internal/termsafe"
)

// EstimateBasis says what an estimate went by: the record and the costs
// taken from it, or that it is a guess and what it assumed (dir is the
// records folder that had no record to go by).
func EstimateBasis(s estimate.Shape, c estimate.Costs, dir string) string {
	if c.Basis == estimate.BasisGuess {
		return fmt.Sprintf("a guess: %s; no record of %s in %s with a noise anatomy or run times to go by", guessed(s, c), s.Feature, dir) + unreadNote(c.Unread)
	}
	var notes []string
	switch c.Basis {
	case estimate.BasisAnatomy:
		notes = append(notes, "by its noise anatomy")
	case estimate.BasisRuns:
		notes = append(notes, "by its runs' times")
	}
	if c.RecordTokens > 0 {
		notes = append(notes, fmt.Sprintf("scaled from its %d tokens to %d", c.RecordTokens, s.MaxTokens))
	}
	if c.Adjusted {
		notes = append(notes, "the start moved to this scenario's cooldown and warmups")
	}
	if c.OtherHardware {
		notes = append(notes, fmt.Sprintf("a record of other hardware (%s): none of %s could be used", c.Hardware, whose(s.Hardware, "")))
	}
	start, one := "start", "request"
	if s.Command {
		start, one = "between runs", "a run of the command"
	}
	return fmt.Sprintf("from %s: %s %s, %s %s, %s", c.Record, start, secs(c.Start), one, secs(c.Request), strings.Join(notes, "; ")) + unreadNote(c.Unread)
}

// unreadNote names the feature's records that could not be read, which
// an estimate went without (at most three, then how many more).
func unreadNote(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	shown := paths[:min(3, len(paths))]
	more := ""
	if n := len(paths) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("; passed over %d record(s) of %s that cannot be read: %s%s", len(paths), "the feature", termsafe.String(strings.Join(shown, ", ")), more)
}

// whose says whose records could not be used where other hardware's were:
// those of the hardware a scenario names (hardware), else this machine's
// (here, when given, its slug).
func whose(hardware, here string) string {
	switch {
	case hardware != "" && hardware != "auto":
		return termsafe.String(hardware) + "'s, the hardware the scenario names,"
	case here != "":
		return "this machine's (" + termsafe.String(here) + ")"
	}
	return "this machine's"
}

// guessed is what a guess assumed.
func guessed(s estimate.Shape, c estimate.Costs) string {
	start, speed, over := estimate.GuessEngineStart, estimate.GuessTokensPerSecond, estimate.GuessRequestOverhead
	if s.Command {
		return fmt.Sprintf("a run of the command %s (its start %s, its tokens at %d tok/s and %s besides)", c.Request, start, speed, over)
	}
	return fmt.Sprintf("an engine start of %s, %d tok/s and %s a request besides its tokens", start, speed, over)
}

// secs writes a cost in seconds with two decimals.
func secs(d time.Duration) string {
	return fmt.Sprintf("%.2f s", d.Seconds())
}
