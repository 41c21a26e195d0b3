package recorder

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// sense is how a change of a metric is worded: its direction, and whether
// it is a speed (a rate or a time), the only kind of metric a change makes
// "faster" or "slower". A change of any other metric (energy per token, a
// scenario's own metric) is "lower" or "higher", with whether that is
// better.
type sense struct {
	higher bool // higher is better
	speed  bool
}

// speedUnits are the units of rates and times.
var speedUnits = map[string]bool{"tok/s": true, "ms": true, "s": true}

func senseOfUnit(higherIsBetter bool, unit string) sense {
	return sense{higher: higherIsBetter, speed: speedUnits[unit]}
}

// senseOf is the sense of a record's metric as the analysis recorded it,
// else as the built-in registry knows it. Records written under a rule
// before robust-2 said "faster" or "slower" of every metric, and keep
// saying it (check re-renders them byte for byte).
func (f style) senseOf(r *schema.Record, metric string) sense {
	return f.senseIn(senseOfMetric(r, metric))
}

func senseOfMetric(r *schema.Record, metric string) sense {
	if res, ok := r.Result(metric); ok {
		return senseOfUnit(res.HigherIsBetter, res.Unit)
	}
	m := schema.MetricOf(metric)
	return senseOfUnit(m.HigherIsBetter, m.Unit)
}

// senseIn is s as the record's rule words it.
func (f style) senseIn(s sense) sense {
	if f.rule.Wording == analysis.SpeedWords {
		s.speed = true
	}
	return s
}

// word names a change of ratio (new/old): "faster" or "slower" for a
// speed, else "lower (better)", "higher (worse)" and so on.
func (s sense) word(ratio float64) string {
	better := (ratio > 1) == s.higher
	if s.speed {
		if better {
			return "faster"
		}
		return "slower"
	}
	dir := "lower"
	if ratio > 1 {
		dir = "higher"
	}
	if better {
		return dir + " (better)"
	}
	return dir + " (worse)"
}
