package schema

import "time"

// Phases is where one run's time went, each phase timed on its own, in
// seconds; nil in runs from before decodebench timed them. SpanS is the
// run's whole share of the campaign, from the start of the cooldown
// before it to the moment it was journaled; what the phases leave of it
// is decodebench's own work inside the run (load and host samples, metric
// scrapes, counters, the check of the engine's files).
type Phases struct {
	SpanS float64 `json:"span_s"`
	// CooldownS is the wait before the run (fixed or until quiet), QuietS
	// the quiet gate's past it (the gate watches a fixed cooldown as it
	// passes, so that its window may begin with it; in records from
	// before, the gate began after the cooldown). Where the engine started
	// and warmed up while the gate watched on, QuietS is what the gate
	// held the run past its warmups.
	CooldownS float64 `json:"cooldown_s,omitempty"`
	QuietS    float64 `json:"quiet_s,omitempty"`
	// StartS is the engine's launch to its ready answer (ReadyS).
	StartS float64 `json:"start_s,omitempty"`
	// WarmupS is the discarded warmup requests (a command engine's warmup
	// runs).
	WarmupS float64 `json:"warmup_s,omitempty"`
	// MeasuredS is the measured window: every measured request, from
	// sending the first to the end of the last (a command engine's
	// measured run, its whole life).
	MeasuredS float64 `json:"measured_s,omitempty"`
	// ReplayS is the token replay: the request sent again, unmeasured,
	// for the token ids its stream left out.
	ReplayS float64 `json:"replay_s,omitempty"`
	// StopS is the engine's stop, its process group ended and reaped.
	StopS float64 `json:"stop_s,omitempty"`
}

// Phase is one part of a campaign's wall time.
type Phase string

// The phases of a campaign, in the order a record lists them: the
// measured windows, the rest of every run, then what lies outside the
// runs.
const (
	PhaseMeasured Phase = "measured"
	PhaseStart    Phase = "start"
	PhaseWarmup   Phase = "warmup"
	PhaseReplay   Phase = "replay"
	PhaseStop     Phase = "stop"
	PhaseCooldown Phase = "cooldown"
	PhaseQuiet    Phase = "quiet"
	// PhaseInRuns is decodebench's own work inside the runs: each run's
	// span less its timed phases.
	PhaseInRuns Phase = "in-runs"
	// PhaseDiagnosis is the divergence diagnosis after the last run
	// (Method.DiagnosisS).
	PhaseDiagnosis Phase = "diagnosis"
	// PhaseInterrupted is the time from the last run before an
	// interruption (or the resume before it, where no run ended since) to
	// the resume (Method.Resumed).
	PhaseInterrupted Phase = "interrupted"
	// PhaseCutOff is the run a stop cut off, its work lost
	// (Method.CutOffS).
	PhaseCutOff Phase = "cut-off"
	// PhaseOutside is decodebench's own work outside the runs: preparing
	// the host, journaling, between the runs, after the last one: the
	// wall time less everything above.
	PhaseOutside Phase = "outside"
)

// PhaseOrder lists every phase in the order a record lists them.
var PhaseOrder = []Phase{PhaseMeasured, PhaseStart, PhaseWarmup, PhaseReplay, PhaseStop, PhaseCooldown, PhaseQuiet,
	PhaseInRuns, PhaseDiagnosis, PhaseInterrupted, PhaseCutOff, PhaseOutside}

// PhaseTime is one phase's time, summed over the campaign.
type PhaseTime struct {
	Phase   Phase
	Seconds float64
	// Runs counts the runs in which the phase took time; 0 for the
	// phases outside the runs.
	Runs int
}

// TimeUse is where a campaign's wall time went: every phase, summed over
// its runs, the phases adding up to WallS.
type TimeUse struct {
	// WallS is the campaign's wall time, from Method.Started to
	// Method.Finished.
	WallS  float64
	Phases []PhaseTime
}

// Of is phase p's seconds.
func (t TimeUse) Of(p Phase) float64 {
	for _, pt := range t.Phases {
		if pt.Phase == p {
			return pt.Seconds
		}
	}
	return 0
}

// Share is phase p's share of the wall time.
func (t TimeUse) Share(p Phase) float64 {
	if t.WallS <= 0 {
		return 0
	}
	return t.Of(p) / t.WallS
}

// TimeUse sums the runs' phases over the campaign; ok is false when a run
// has none (a record from before decodebench timed them) or the campaign
// has no wall time.
func (r *Record) TimeUse() (TimeUse, bool) {
	m := r.Method
	wall := m.Finished.Sub(m.Started).Seconds()
	if len(r.Runs) == 0 || wall <= 0 {
		return TimeUse{}, false
	}
	sums := map[Phase]*PhaseTime{}
	for _, p := range PhaseOrder {
		sums[p] = &PhaseTime{Phase: p}
	}
	add := func(p Phase, s float64) {
		if s > 0 {
			sums[p].Seconds += s
			sums[p].Runs++
		}
	}
	var spans float64
	for _, run := range r.Runs {
		ph := run.Phases
		if ph == nil {
			return TimeUse{}, false
		}
		timed := []struct {
			p Phase
			s float64
		}{{PhaseMeasured, ph.MeasuredS}, {PhaseStart, ph.StartS}, {PhaseWarmup, ph.WarmupS}, {PhaseReplay, ph.ReplayS},
			{PhaseStop, ph.StopS}, {PhaseCooldown, ph.CooldownS}, {PhaseQuiet, ph.QuietS}}
		rest := ph.SpanS
		for _, t := range timed {
			add(t.p, t.s)
			rest -= t.s
		}
		add(PhaseInRuns, rest)
		spans += ph.SpanS
	}
	sums[PhaseDiagnosis].Seconds = m.DiagnosisS
	sums[PhaseInterrupted].Seconds = interrupted(r.Runs, m.Started, m.Resumed)
	sums[PhaseCutOff].Seconds = m.CutOffS
	sums[PhaseOutside].Seconds = wall - spans - m.DiagnosisS - sums[PhaseInterrupted].Seconds - m.CutOffS
	sums[PhaseInRuns].Runs, sums[PhaseOutside].Runs = 0, 0
	t := TimeUse{WallS: wall}
	for _, p := range PhaseOrder {
		t.Phases = append(t.Phases, *sums[p])
	}
	return t, true
}

// interrupted is the time nobody ran the campaign: to each resume from
// the latest of the campaign's start, the resume before it and the end of
// a run before it. A resume interrupted again before a run finished
// starts the next gap at itself, so that no gap is counted twice.
func interrupted(runs []Run, started time.Time, resumed []time.Time) float64 {
	var s float64
	from := started
	for _, at := range resumed {
		last := from
		for _, r := range runs {
			if end := r.Start.Add(time.Duration(r.Seconds * float64(time.Second))); end.Before(at) && end.After(last) {
				last = end
			}
		}
		if at.After(last) {
			s += at.Sub(last).Seconds()
		}
		if at.After(from) {
			from = at
		}
	}
	return s
}
