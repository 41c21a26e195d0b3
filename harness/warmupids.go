package harness

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// warmIDs are the text and token ids a start's last warmup generated when
// it went whole (wholeWarmup); nil ids otherwise.
type warmIDs struct {
	text string
	ids  []int
}

// wholeWarmup reports whether a start's last warmup, req, goes whole (not
// streamed) for its token ids, where the stream of a measured request
// would leave some out and a token replay after the window would ask the
// same request again (replay.go): the warmup then does the replay's work
// before the window, and the replay is asked only if the measured text
// differs from the warmup's. It does where a replay could stand for the
// start's requests: an arm whose outputs the identity check compares, the
// same request warmed up and measured (no distinct prefix, no random
// seed), one stream, and no earlier whole reply of the arm that came back
// without every id. It needs two requests a start besides it, so that the
// noise anatomy, which leaves it out (it has no streamed figures), still
// sees a start's requests vary.
func (c *campaign) wholeWarmup(arm string, req engine.Request) bool {
	x, s := c.policy.Exactness, c.scenario
	switch {
	case x == nil, s.Schedule.Warmup < 1, s.Schedule.Warmup+c.policy.Schedule.Requests < schema.WholeWarmupMin, s.Concurrent():
		return false
	case arm != x.Against && !slices.Contains(x.Compare, arm):
		return false
	case req.PrefixCache == schema.PrefixCacheDistinct, req.Temperature > 0 && req.Seed < 0:
		return false
	case c.wholeFailed[arm]:
		return false
	}
	for k := range c.replayGaps {
		if k.arm == arm {
			return false
		}
	}
	return true
}

// warmWhole sends a start's last warmup whole: the served request it
// records (its wall time its only figure) and the ids it generated. A
// reply without every id is no failure: it is noted as a replay's would
// be (noteGap), and the warmup served its purpose. Nor is a whole reply
// that failed otherwise (an HTTP error, a reply that does not parse, a
// timeout that a stream might have passed): a token replay's failure only
// ever cost a run its ids, and a warmup sent whole for them must not cost
// it more. The arm's warmups stream from then on (its runs are replayed
// after the window, as before), and the run goes on; an engine that truly
// failed fails its measured request.
func (c *campaign) warmWhole(ctx context.Context, slot Slot, baseURL string, req engine.Request) (schema.ServedRequest, warmIDs, error) {
	began := time.Now()
	text, ids, err := engine.Replay(ctx, baseURL, req)
	sr := schema.ServedRequest{Kind: schema.RequestWarmup, Whole: true, Tokens: len(ids),
		Metrics: map[string]float64{schema.WallS: time.Since(began).Seconds()}}
	var gap *engine.ReplayGap
	switch {
	case errors.As(err, &gap):
		c.noteGap(slot.Arm, text, err)
		sr.Tokens = gap.Tokens
		return sr, warmIDs{}, nil
	case err != nil && ctx.Err() != nil:
		return sr, warmIDs{}, err
	case err != nil:
		if c.wholeFailed == nil {
			c.wholeFailed = map[string]bool{}
		}
		c.wholeFailed[slot.Arm] = true
		c.progress.Printf("run %d: the warmup sent whole for the token ids failed (%v); arm %s's warmups stream from now on, and its runs are replayed after the window for their ids", slot.Seq, err, slot.Arm)
		return sr, warmIDs{}, nil
	}
	return sr, warmIDs{text: text, ids: ids}, nil
}

// noteGap remembers that a whole reply in arm that generated text came
// back without every id (engine.ReplayGap): a later run of the arm that
// measured the same text would be answered the same.
func (c *campaign) noteGap(arm, text string, err error) {
	if c.replayGaps == nil {
		c.replayGaps = map[replayKey]string{}
	}
	c.replayGaps[replayKey{arm, text}] = strings.TrimPrefix(err.Error(), "token replay: ")
}
