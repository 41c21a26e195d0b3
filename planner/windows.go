package planner

import "time"

// windows is the first longer window (max_tokens ×2, ×4, ×8) whose best
// schedule of shape g within budget reaches the MDE x, else the longest
// tried; none where the host's noise is not split (a request's own noise
// is what a longer window lowers) or the engine is a command. The engine's
// context (model.slot) bounds the windows tried: slot is its tokens a
// request where it left a longer window out, 0 where it left none out.
func (m model) windows(g shape, ks []int, x float64, budget time.Duration) (w *Schedule, slot int) {
	if !m.host.Split || m.command {
		return nil, 0
	}
	for _, f := range []int{2, 4, 8} {
		if m.slot > 0 && m.tokens*f > m.slot {
			return w, m.slot // the engine's context holds no longer request
		}
		if s := m.best(g, ks, m.tokens*f, budget, m.host.Between); s != nil {
			w = s
			if s.MDE() <= x {
				return w, 0
			}
		}
	}
	return w, 0
}
