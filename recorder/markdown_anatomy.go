package recorder

import (
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

// anatomy writes the "Noise anatomy" section: where the primary metric's
// noise comes from (between engine starts, within a start), what a start
// and a request cost, and how many measured requests per start would give
// the narrowest interval per minute. Only records that store an anatomy
// (written since it was measured) have the section.
func (m *mdWriter) anatomy(r *schema.Record) {
	an := r.Analysis.Anatomy
	m.h2("Noise anatomy")
	if an.Gap != "" {
		m.p("Not estimated for %s: %s.\n\n", code(an.Metric), anatomyGap(an))
		return
	}
	served := fmt.Sprintf("%d warmup(s) and %d measured, the same request", an.Warmup, an.Requests)
	if an.LastWarmupLeftOut {
		served += "; the last warmup, sent whole for the identity check's token ids, has no streamed figures and is left out"
	}
	m.p("Where the noise of %s comes from, estimated from every request each engine start served (%s): ", code(an.Metric), served)
	m.p("log values in a two-level nested layout, the start random and the request's position within the start fixed (so a slower first request is not counted as noise); ")
	m.p("the pooled row adds the arms' sums of squares and degrees of freedom; the figures below are coefficients of variation. ")
	m.p("A start's cost is its whole time with the cooldown before it, less its measured requests; a request's, its wall time (medians).\n\n")
	rows := append(append([]schema.AnatomyFigures(nil), an.Arms...), *an.Pooled)
	table(m, []column[schema.AnatomyFigures]{
		left("arm", func(f schema.AnatomyFigures) string {
			if f.Arm == "" {
				return "pooled"
			}
			return code(f.Arm)
		}),
		right("starts", func(f schema.AnatomyFigures) string { return fmt.Sprint(f.Starts) }),
		right("requests each", func(f schema.AnatomyFigures) string { return fmt.Sprint(f.PerStart) }),
		right("between starts", func(f schema.AnatomyFigures) string { return num(f.BetweenCV, 3) + "%" }),
		right("within a start", func(f schema.AnatomyFigures) string { return num(f.WithinCV, 3) + "%" }),
		right("launch to ready", func(f schema.AnatomyFigures) string { return num(f.ReadyS, 3) + " s" }),
		right("a start", func(f schema.AnatomyFigures) string { return num(f.StartS, 3) + " s" }),
		right("a request", func(f schema.AnatomyFigures) string { return num(f.RequestS, 3) + " s" }),
	}, rows)
	m.ln("")
	p := an.Pooled
	optimum := "k* = √((start/request)·(within/between))"
	switch {
	case an.Unbounded:
		optimum += fmt.Sprintf(" is unbounded: the means of the %d starts varied no more than their requests' own noise explains (the between-start estimate is floored at 0; from few starts it is rough)", p.Starts)
	default:
		optimum += " = " + num(an.Optimum, 3)
	}
	replay := ""
	if an.ReplayBelow > 1 {
		replay = fmt.Sprintf(" (and a token replay, a request's time, for k below %d: with fewer requests beside it the last warmup does not give the identity check's ids)", an.ReplayBelow)
	}
	m.p("- Allocation: with k measured requests a start costs %s s + k·%s s%s and its mean varies by between + within/k; %s. ", num(p.StartS, 3), num(p.RequestS, 3), replay, optimum)
	m.p("The whole k from 1 to %d with the least product of the two (the floor or ceiling of k*, bounded) is **%d**.\n", an.AdviceMax, an.Advice)
	m.p("- %s\n\n", anatomyAdvice(an))
}

// anatomyAdvice is the section's advice sentence.
func anatomyAdvice(an *schema.Anatomy) string {
	change := num(-100*an.WidthChange, 2) + "%"
	switch {
	case an.Advice == an.Requests:
		return fmt.Sprintf("Advice: keep %s (this campaign's allocation is the best one on these figures).", code(fmt.Sprintf("schedule.requests: %d", an.Requests)))
	case an.WidthChange > -0.02:
		return fmt.Sprintf("Advice: %s would make an interval of the same campaign time %s narrower than %d did: about the same, so the allocation hardly matters here.", code(fmt.Sprintf("schedule.requests: %d", an.Advice)), change, an.Requests)
	}
	return fmt.Sprintf("Advice: set %s: for the same campaign time the interval would be about %s narrower than with %d measured request(s) per start.", code(fmt.Sprintf("schedule.requests: %d", an.Advice)), change, an.Requests)
}

// anatomyGap says why the anatomy was not estimated.
func anatomyGap(an *schema.Anatomy) string {
	switch an.Gap {
	case schema.AnatomyOneRequest:
		return "every start served one request (no warmup, one measured), so nothing varies within a start; a warmup or `schedule.requests` above 1 measures it"
	case schema.AnatomyNotPerRequest:
		return "the primary metric is not measured request by request (it is read over the measured window)"
	case schema.AnatomyFewStarts:
		return "some arm has fewer than three finished starts that served every request"
	case schema.AnatomyCommand:
		return "a command engine's run is one process serving one request"
	}
	return text(string(an.Gap))
}

// requestsMethod is the method section's line on the measured requests of
// a start, for records that store it (Method.Requests > 1).
func requestsMethod(me schema.Method) string {
	return fmt.Sprintf("Every engine start serves %d measured requests, one after the other in one measured window; ", me.Requests) +
		"the start is the unit of replication: each metric's value for a start is the mean of its requests' logs (their geometric mean), analysed as one run; " +
		"the raw runs keep every request."
}
