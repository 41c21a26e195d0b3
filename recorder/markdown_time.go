package recorder

import (
	"fmt"
	"strconv"
	"time"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// phaseLabels say what each phase of a campaign's time is.
var phaseLabels = map[schema.Phase]string{
	schema.PhaseMeasured:    "measured requests (the windows every number comes from)",
	schema.PhaseStart:       "engine start, launch to ready",
	schema.PhaseWarmup:      "warmup requests",
	schema.PhaseReplay:      "token replay for the identity check (unmeasured)",
	schema.PhaseStop:        "engine stop",
	schema.PhaseCooldown:    "cooldown",
	schema.PhaseQuiet:       "waiting for the quiet gate",
	schema.PhaseInRuns:      "decodebench inside the runs (load and host samples, metric scrapes, counters, the engine files' check)",
	schema.PhaseDiagnosis:   "divergence diagnosis (its engines started again)",
	schema.PhaseInterrupted: "interrupted, until resumed",
	schema.PhaseCutOff:      "the run under way when the campaign stopped (cut off, its work lost)",
	schema.PhaseOutside:     "decodebench outside the runs (preparing the host, the journal, between runs)",
}

// commandPhaseLabels are the labels that differ for a command engine.
var commandPhaseLabels = map[schema.Phase]string{
	schema.PhaseMeasured: "measured runs (each the command's whole life, model load included)",
	schema.PhaseWarmup:   "warmup runs of the command",
}

// timeUse is the section that says where the campaign's wall time went;
// records whose runs did not time their phases have none.
func (m *mdWriter) timeUse(r *schema.Record) {
	t, ok := r.TimeUse()
	if !ok {
		return
	}
	m.h2("Where the time went")
	measured := t.Of(schema.PhaseMeasured)
	m.p("Measured **%s of %s, %s** of the campaign's wall time (%s from its start to its finish, %d runs). ",
		seconds(measured), seconds(t.WallS), pct.Fixed(t.Share(schema.PhaseMeasured), 1), r.Method.Finished.Sub(r.Method.Started).Round(time.Second), len(r.Runs))
	m.p("Each phase was timed on its own in every run and is summed over the campaign; decodebench's own time is what the phases leave of each run and of the campaign.\n\n")
	var rows []schema.PhaseTime
	for _, pt := range t.Phases {
		if pt.Phase == schema.PhaseMeasured || pt.Seconds != 0 {
			rows = append(rows, pt)
		}
	}
	label := func(p schema.Phase) string {
		if l, ok := commandPhaseLabels[p]; ok && r.Method.EngineKind == "command" {
			return l
		}
		return phaseLabels[p]
	}
	table(m, []column[schema.PhaseTime]{
		left("phase", func(pt schema.PhaseTime) string { return label(pt.Phase) }),
		right("runs", func(pt schema.PhaseTime) string {
			if pt.Runs == 0 {
				return "—"
			}
			return strconv.Itoa(pt.Runs)
		}),
		right("time", func(pt schema.PhaseTime) string { return seconds(pt.Seconds) }),
		right("share", func(pt schema.PhaseTime) string { return pct.Fixed(pt.Seconds/t.WallS, 1) }),
	}, rows)
	m.p("| **wall time** | %d | %s | 100%% |\n\n", len(r.Runs), seconds(t.WallS))
}

// seconds is a time in seconds to a tenth.
func seconds(s float64) string { return fmt.Sprintf("%.1f s", s) }
