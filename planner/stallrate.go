package planner

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/decodebench/decodebench/stats"
)

// StallRange is what the schedule would detect were the stalls' rate at
// either end of its interval from the host's rounds: a plan from few
// records of a stalled host is as uncertain as their count of far rounds,
// and a long schedule's MDE follows that rate.
type StallRange struct {
	// Level is the interval's (0.8); Lo and Hi its ends, as shares of the
	// rounds compared that are far out (Seen the host's own share).
	Level float64 `json:"level"`
	Seen  float64 `json:"seen"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// UpLo and DownLo are the schedule's MDE with the stalls at Lo, UpHi
	// and DownHi at Hi (0 where none is reached).
	UpLo   float64 `json:"mde_up_lo"`
	DownLo float64 `json:"mde_down_lo"`
	UpHi   float64 `json:"mde_up_hi"`
	DownHi float64 `json:"mde_down_hi"`
}

// stallLevel is the level of a StallRange's interval.
const stallLevel = 0.8

// stallRange is s's StallRange on the host, nil where the host saw no far
// round (no size or share to move).
func (m model) stallRange(s Schedule) *StallRange {
	h := m.host
	if h.Far <= 0 || h.Compared <= 0 {
		return nil
	}
	// Jeffreys' interval for the share of rounds far out.
	post := distuv.Beta{Alpha: float64(h.Far) + 0.5, Beta: float64(h.Compared-h.Far) + 0.5}
	seen := float64(h.Far) / float64(h.Compared)
	out := &StallRange{Level: stallLevel, Seen: seen, Lo: post.Quantile((1 - stallLevel) / 2), Hi: post.Quantile((1 + stallLevel) / 2)}
	at := func(share float64) (up, down float64) {
		c := m
		c.host = h.atStallShare(share / seen)
		e := s
		c.evaluate(&e, h.Between)
		return e.Up, e.Down
	}
	out.UpLo, out.DownLo = at(out.Lo)
	out.UpHi, out.DownHi = at(out.Hi)
	return out
}

// certain is how many times its rounds a host's stalls are counted over
// at a fixed share: enough that the rate's own uncertainty is left out.
const certain = 100

// atStallShare is the host with its far rounds (trimmed and kept alike)
// f times as many, their rate taken as certain: each comparison's rounds
// counted certain times over, its sizes as they were.
func (h Host) atStallShare(f float64) Host {
	scale := func(n int, by float64) int { return int(math.Round(float64(n) * by)) }
	out := h
	out.Stalls = make([]stats.Stalls, len(h.Stalls))
	for i, st := range h.Stalls {
		st.Runs1, st.Runs2 = certain*st.Runs1, certain*st.Runs2
		st.Trimmed, st.Kept = scale(st.Trimmed, certain*f), scale(st.Kept, certain*f)
		out.Stalls[i] = st
	}
	out.Trimmed, out.Far = scale(h.Trimmed, f), scale(h.Far, f)
	return out
}
