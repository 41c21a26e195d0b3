package recorder

import (
	"slices"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// hostInput sets the analysis' host fields of a run: the machine warnings
// seen before or after it, and whether the quiet gate gave up before it.
func hostInput(ar *analysis.Run, r schema.Run) {
	var warnings [][]schema.HostWarning
	for _, c := range []*schema.HostConditions{r.ConditionsBefore, r.ConditionsAfter} {
		if c != nil {
			warnings = append(warnings, c.Warnings)
			if c.PowerMode != "" {
				ar.PowerModes = append(ar.PowerModes, c.PowerMode)
			}
		}
	}
	if r.GPUWindow != nil {
		warnings = append(warnings, r.GPUWindow.Warnings)
	}
	for _, ws := range warnings {
		for _, w := range ws {
			if hc := analysis.HostCondition(w.Code); !slices.Contains(ar.HostWarnings, hc) {
				ar.HostWarnings = append(ar.HostWarnings, hc)
			}
		}
	}
	if q := r.Quiet; q != nil && q.EndedBy == schema.QuietMaxWait {
		ar.QuietTimedOut = true
		ar.HostBusy = q.OnBusy == schema.BusyMark
	}
	ar.OutputFlood = r.EngineOutput != nil && r.EngineOutput.Flood
	ar.Impossible = len(r.Impossible) > 0
}
