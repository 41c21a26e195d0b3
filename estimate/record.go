package estimate

import (
	"math"
	"time"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// MaxCost bounds a start's or a request's cost taken from a record: no
// timeout of a scenario may be longer (scenarios.MaxTimeout), so a record
// that says one took longer is not believed.
const MaxCost = 24 * time.Hour

// FromRecord derives the scenario's costs from a record of an earlier
// campaign at path: from its noise anatomy when it has the pooled costs,
// else from its runs' whole times and measured wall times (rec.Runs, read
// by the caller). A request's cost is scaled to the scenario's max_tokens
// when the record's differs, and the start's cost moved to the scenario's
// cooldown and warmups. ok is false when the record has neither.
func FromRecord(s Shape, path string, rec *schema.Record) (c Costs, ok bool) {
	m := rec.Method
	startS, reqS := 0.0, 0.0
	switch an := rec.Analysis.Anatomy; {
	case an != nil && an.Pooled != nil && an.Pooled.StartS > 0 && an.Pooled.RequestS > 0:
		c.Basis, startS, reqS = BasisAnatomy, an.Pooled.StartS, an.Pooled.RequestS
		c.IDs = an.LastWarmupLeftOut
	default:
		var whole, wall []float64
		for _, r := range rec.Runs {
			if w := r.Analysed()[schema.WallS]; r.Error == "" && r.Seconds > 0 && w > 0 {
				whole, wall = append(whole, r.Seconds+max(0, r.CooldownS)), append(wall, w)
			}
		}
		if len(whole) == 0 {
			return Costs{}, false
		}
		reqS = stats.Median(wall)
		c.Basis, startS = BasisRuns, stats.Median(whole)-float64(max(1, m.Requests))*reqS
	}
	if implausible(startS) || implausible(reqS) {
		return Costs{}, false
	}
	recReq := seconds(reqS)
	c.Record, c.Request = path, recReq
	if n, rn := s.MaxTokens, rec.Scenario.Request.MaxTokens; n > 0 && rn > 0 && n != rn {
		c.Request, c.RecordTokens = time.Duration(float64(recReq)*float64(n)/float64(rn)), rn
	}
	recStart := seconds(startS)
	cool, err := time.ParseDuration(m.Cooldown)
	if err != nil || cool < 0 {
		cool = s.Cooldown // not known: taken as this scenario's
	}
	engine := max(0, recStart-cool-time.Duration(m.Warmup)*recReq)
	c.Start = startCost(s, engine, c.Request)
	c.Adjusted = c.Start != recStart
	return c, true
}

// implausible is a cost in seconds no campaign could have measured.
func implausible(x float64) bool {
	return math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 || x > MaxCost.Seconds()
}

func seconds(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
