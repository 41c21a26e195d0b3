package harness

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/outputs"
	"github.com/decodebench/decodebench/schema"
)

// replayChoice is what a finished run does about the token ids its stream
// left out.
type replayChoice int

const (
	// replayNone: nothing to do, the stream named every id, or the
	// scenario compares no outputs.
	replayNone replayChoice = iota
	// replayAsk: ask again, unmeasured.
	replayAsk
	// skipNotCompared: the arm's outputs are compared with nothing.
	skipNotCompared
	// skipEmpty: the output is empty or whitespace, an identity error
	// whatever its tokens.
	skipEmpty
	// skipStripped: a strip pattern changed the text, so the analysis
	// compares it without ids.
	skipStripped
	// skipRandom: sampled with a random seed, a second request cannot
	// generate the same text.
	skipRandom
	// skipGap: a replay in this arm that generated the same output came
	// back without every id (engine.ReplayGap); this one would too.
	skipGap
)

// replayNotes are the run's token notes, by choice; replayAsk's is the
// replay's outcome.
var replayNotes = map[replayChoice]string{
	skipNotCompared: "no token replay: the identity check compares this arm's outputs with nothing",
	skipEmpty:       "no token replay: the output is empty, which the identity check refuses whatever its tokens",
	skipStripped:    "no token replay: a strip pattern changed the output, so its token ids would not be compared",
	skipRandom:      "no token replay: sampled with a random seed, a second request would not generate the same text",
	skipGap:         "no token replay: an earlier replay in this arm that generated the same output came back without every token id: ",
}

// replayChoice decides whether run's token ids are worth a second,
// unmeasured request. The identity check (analysis/identity.go, package
// outputs) compares each compared arm's output, and the baseline's, with
// the baseline's first, token ids too where both runs have every one; an
// output whose ids match while its text does not, or the reverse, is not
// identical. Equal texts need the ids as much as differing ones: where a
// stream leaves an id out (a token that ends inside a multi-byte
// character) the text holds U+FFFD for the incomplete character, so two
// different outputs can read the same. Every compared run whose stream
// lacked ids is therefore replayed, and no run lends its ids to another
// (within one start the replay stands for each request that generated
// its text, tokenIDs); the runs whose ids nothing would read are not.
func (c *campaign) replayChoice(arm string, req engine.Request, resp *engine.Response) replayChoice {
	x := c.policy.Exactness
	if x == nil || resp.CompleteTokenIDs() {
		return replayNone
	}
	text, reasoning := resp.Text, resp.Reasoning
	switch {
	case arm != x.Against && !slices.Contains(x.Compare, arm):
		return skipNotCompared
	case outputs.Empty(outputs.Output{Text: text, Reasoning: reasoning}) != "":
		return skipEmpty
	case c.stripped(text, x.Strip) > 0:
		return skipStripped
	case req.Temperature > 0 && req.Seed < 0:
		return skipRandom
	case c.replayGaps[replayKey{arm, text}] != "":
		return skipGap
	}
	return replayAsk
}

// replayKey is an arm's output, for the replays it came back without
// every id.
type replayKey struct{ arm, text string }

// stripped is how many spans the exactness strip patterns remove from
// text, as the analysis strips it, with the patterns the campaign
// compiled once when it started (or, without them, compiled now).
func (c *campaign) stripped(text string, patterns []*regexp.Regexp) int {
	if c.stripper == nil {
		_, removed, _ := outputs.Strip(text, patterns, 0)
		return removed
	}
	_, removed, _ := c.stripper.Strip(text, 0)
	return removed
}

// tokenIDs sets the run's token ids: the stream's where it named every
// one, else those of a replay of the request (outside the measured
// window) where the identity check needs them, used only if the replay
// generated exactly the measured text. Its time is the run's replay
// phase.
// The replay goes to the engine at baseURL; mark marks it in the engine's
// log.
func (c *campaign) tokenIDs(ctx context.Context, slot Slot, baseURL string, mark func(string, ...any), req engine.Request, resp *engine.Response, warm warmIDs, run *schema.Run) {
	if resp.CompleteTokenIDs() {
		run.TokenIDs = resp.IDs()
		return
	}
	choice := c.replayChoice(slot.Arm, req, resp)
	switch choice {
	case replayNone:
		return
	case replayAsk:
		if warm.ids != nil && warm.text == resp.Text {
			useIDs(run, warm.text, warm.ids, "token ids from the start's last warmup, sent whole (not streamed) before the measured window, which generated the same text (the stream omits some)")
			return
		}
	case skipGap:
		run.TokenNote = replayNotes[choice] + c.replayGaps[replayKey{slot.Arm, resp.Text}]
		return
	default:
		run.TokenNote = replayNotes[choice]
		return
	}
	c.progress.Phase(slot.Seq, slot.Arm, "token replay")
	mark("token replay request (identity check; not measured)")
	began := time.Now()
	text, ids, err := engine.Replay(ctx, baseURL, req)
	phasesOf(run).ReplayS = time.Since(began).Seconds()
	var gap *engine.ReplayGap
	switch {
	case errors.As(err, &gap):
		// Keyed by the text the replay generated (noteGap).
		c.noteGap(slot.Arm, text, err)
		run.TokenNote = "token replay failed: " + err.Error()
	case err != nil:
		run.TokenNote = "token replay failed: " + err.Error()
	case text != resp.Text:
		run.TokenNote = "token replay generated different text than the measured request; its ids are not used"
	default:
		useIDs(run, text, ids, "token ids from a non-streamed replay of the request (the stream omits some)")
	}
}

// useIDs sets the run's token ids, from a whole reply that generated its
// measured text, with the note that says where they came from. The reply
// stands for every measured request of the start that generated the same
// text, as it does for the first: the same request to the same engine
// process, its text the same.
func useIDs(run *schema.Run, text string, ids []int, note string) {
	run.TokenIDs, run.TokenNote = ids, note
	for i, q := range run.Requests {
		if q.Kind == schema.RequestMeasured && q.Output == text && q.TokenIDs == nil && text != "" {
			run.Requests[i].TokenIDs = ids
		}
	}
}
