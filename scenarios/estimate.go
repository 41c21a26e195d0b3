package scenarios

import (
	"math"
	"slices"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// The guess Estimate makes when no record of the feature says what a start
// and a request cost: a small model served from a CPU. A large model takes
// longer to load, a GPU decodes faster.
const (
	// GuessEngineStart is an engine's launch, load, ready answer and stop.
	GuessEngineStart = 5 * time.Second
	// GuessTokensPerSecond is the decode speed assumed for a request.
	GuessTokensPerSecond = 50
	// GuessRequestOverhead is added to each request (prefill, HTTP).
	GuessRequestOverhead = 500 * time.Millisecond
)

// CostBasis says where an estimate's costs come from.
type CostBasis string

// Cost bases.
const (
	// CostGuess: the Guess constants, no record to go by.
	CostGuess CostBasis = "guess"
	// CostAnatomy: a record's noise anatomy (its pooled start and request
	// costs).
	CostAnatomy CostBasis = "anatomy"
	// CostRuns: a record's runs (their whole times and measured wall
	// times).
	CostRuns CostBasis = "runs"
)

// Costs are what one engine start and one request of this scenario take,
// the inputs of Estimate.
type Costs struct {
	Basis CostBasis
	// Record is the record file the costs come from; empty for a guess.
	Record string
	// Hardware is that record's hardware. OtherHardware is set when it is
	// not the hardware the campaign would record: the scenario says
	// "auto" and no record of this machine's hardware could be used.
	Hardware      string
	OtherHardware bool
	// Start is a start's fixed cost for this scenario, in the noise
	// anatomy's sense: its cooldown, the engine's launch to ready, its
	// warmups and its stop; everything but its measured requests.
	Start time.Duration
	// Request is one request of this scenario's max_tokens.
	Request time.Duration
	// RecordTokens is the record's max_tokens when Request was scaled from
	// it to this scenario's; 0 when not scaled.
	RecordTokens int
	// Adjusted is set when Start was moved from the record's to this
	// scenario's cooldown, warmups or request length.
	Adjusted bool
}

// GuessCosts are the costs assumed without a record: the engine start
// (GuessEngineStart, or ready.timeout when that is shorter), and requests
// of max_tokens at GuessTokensPerSecond plus GuessRequestOverhead (or
// request.timeout when that is shorter). A command engine starts afresh
// for each run, warmups included: its Request is the whole run and its
// Start only the cooldown and warmups.
func (s *Scenario) GuessCosts() Costs {
	req := GuessRequestOverhead + time.Duration(float64(s.Engine.Request.MaxTokens)/GuessTokensPerSecond*float64(time.Second))
	if t := s.Engine.Request.Timeout.Duration; t > 0 {
		req = min(req, t)
	}
	start := min(GuessEngineStart, s.Engine.Ready.Timeout.Duration)
	if s.Engine.IsCommand() {
		start, req = 0, GuessEngineStart+req
	}
	return Costs{Basis: CostGuess, Request: req, Start: s.startCost(start, req)}
}

// startCost is a start's fixed cost for this scenario from the engine's
// own cost (launch to ready, and stop) and a request's.
func (s *Scenario) startCost(engine, req time.Duration) time.Duration {
	return s.Schedule.Cooldown.Longest() + engine + time.Duration(s.Schedule.Warmup)*req
}

// CostsFromRecord derives this scenario's costs from a record of an
// earlier campaign at path: from its noise anatomy when it has the pooled
// costs, else from its runs' whole times and measured wall times (rec.Runs,
// read by the caller). A request's cost is scaled to this scenario's
// max_tokens when the record's differs, and the start's cost moved to this
// scenario's cooldown and warmups. ok is false when the record has neither.
func (s *Scenario) CostsFromRecord(path string, rec *schema.Record) (c Costs, ok bool) {
	m := rec.Method
	startS, reqS := 0.0, 0.0
	switch an := rec.Analysis.Anatomy; {
	case an != nil && an.Pooled != nil && an.Pooled.StartS > 0 && an.Pooled.RequestS > 0:
		c.Basis, startS, reqS = CostAnatomy, an.Pooled.StartS, an.Pooled.RequestS
	default:
		var whole, wall []float64
		for _, r := range rec.Runs {
			if w := r.Metrics[schema.WallS]; r.Error == "" && r.Seconds > 0 && w > 0 {
				whole, wall = append(whole, r.Seconds+max(0, r.CooldownS)), append(wall, w)
			}
		}
		if len(whole) == 0 {
			return Costs{}, false
		}
		reqS = median(wall)
		c.Basis, startS = CostRuns, median(whole)-float64(max(1, m.Requests))*reqS
	}
	if bad(startS) || bad(reqS) {
		return Costs{}, false
	}
	recReq := seconds(reqS)
	c.Record, c.Request = path, recReq
	if n, rn := s.Engine.Request.MaxTokens, rec.Scenario.Request.MaxTokens; n > 0 && rn > 0 && n != rn {
		c.Request, c.RecordTokens = time.Duration(float64(recReq)*float64(n)/float64(rn)), rn
	}
	recStart := seconds(startS)
	cool, err := time.ParseDuration(m.Cooldown)
	if err != nil || cool < 0 {
		cool = s.Schedule.Cooldown.Longest() // not known: taken as this scenario's
	}
	engine := max(0, recStart-cool-time.Duration(m.Warmup)*recReq)
	c.Start = s.startCost(engine, c.Request)
	c.Adjusted = c.Start != recStart
	return c, true
}

// Estimate is a rough duration of the whole campaign at its most rounds,
// from the guessed costs (GuessCosts); see EstimateWith.
func (s *Scenario) Estimate() time.Duration {
	return s.EstimateWith(s.GuessCosts())
}

// EstimateWith is a rough duration of the whole campaign at its most
// rounds: rounds × arms × (a start's fixed cost + its measured requests).
// It is meant for telling minutes from days, not for scheduling.
func (s *Scenario) EstimateWith(c Costs) time.Duration {
	run := float64(c.Start) + float64(max(1, s.Schedule.Requests))*float64(c.Request)
	runs := float64(max(s.Schedule.Rounds.Max, s.Schedule.Rounds.Min)) * float64(len(s.Arms))
	if est := runs * run; est < float64(1<<62) {
		return time.Duration(est)
	}
	return 1 << 62
}

func bad(x float64) bool {
	return math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 || x > MaxTimeout.Seconds()
}

func seconds(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }

func median(xs []float64) float64 {
	xs = slices.Sorted(slices.Values(xs))
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
