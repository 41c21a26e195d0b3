package recorder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// This file is where the analysis' reason codes become sentences: a
// reason's own sentence is its first, any remedy follows.

// reason states one reason.
func (f style) reason(r schema.Reason) string {
	if s, ok := f.verdictReason(r); ok {
		return s
	}
	if s, ok := f.noteReason(r); ok {
		return s
	}
	if s, ok := f.historyReason(r); ok {
		return s
	}
	return fmt.Sprintf("Unknown reason code %s.", f.code(string(r.Code())))
}

// verdictReason states the reasons that decide a verdict or flag it.
func (f style) verdictReason(r schema.Reason) (string, bool) {
	switch r := r.(type) {
	case schema.SourceAbsent:
		return sentences(
			fmt.Sprintf("Scenario error: counter %s reads the %s source %s, which was absent in all %d runs of every arm.", f.code(r.Counter), f.text(r.Kind), f.code(r.Source), r.Runs),
			"A source no run could read is a misspelled name or one this engine does not expose, not a zero; fix the scenario."), true
	case schema.ControlDiffers:
		return sentences(
			fmt.Sprintf("Negative control %s differs from the baseline %s on %s: %s%s, %s (alpha %s).", f.code(r.Arm), f.code(r.Baseline), f.code(r.Metric),
				pct.Signed(r.Ratio-1, 1), interval(r.Lo-1, r.Hi-1, true, r.Lo == 0 && r.Hi == 0), formatP(r.P), count(r.Alpha)),
			"The method finds a difference where none exists, so no arm's difference can be trusted.",
			"Remedies: a quieter host, more rounds, or find what differs between the two (warm-up, launch order)."), true
	case schema.CounterFailed:
		seen := count(r.Value)
		if r.Text != "" {
			seen = f.code(r.Text)
		}
		if r.Stream > 0 {
			return fmt.Sprintf("Run %d (%s, round %d), stream %d: counter %s = %s, expected %s.", r.Run, f.code(r.Arm), r.Round, r.Stream, f.code(r.Counter), seen, r.Expected), true
		}
		return fmt.Sprintf("Run %d (%s, round %d): counter %s = %s, expected %s.", r.Run, f.code(r.Arm), r.Round, f.code(r.Counter), seen, r.Expected), true
	case schema.StreamsSerialised:
		return fmt.Sprintf("Run %d (%s, round %d): its %d streams never all decoded at once ", r.Run, f.code(r.Arm), r.Round, r.Streams) +
			fmt.Sprintf("(the last first token came %.1f ms after the release, the first stream had finished at %.1f ms): ", r.LatestFirstMs, r.EarliestLastMs) +
			"the engine served them one after another, so their rates are not concurrent rates. " +
			"Give the server at least as many slots as streams (llama-server: -np).", true
	case schema.Declined:
		return fmt.Sprintf("Run %d (%s, round %d): the engine declined the feature under test (%d matching log line(s)), e.g. %s.", r.Run, f.code(r.Arm), r.Round, r.Lines, f.code(r.First)), true
	case schema.RunFailed:
		attempt := ""
		if r.Attempt > 1 {
			attempt = fmt.Sprintf(", attempt %d", r.Attempt)
		}
		return fmt.Sprintf("Run %d (%s, round %d%s) failed: %s", r.Run, f.code(r.Arm), r.Round, attempt, f.text(r.Error)), true
	case schema.IdentityMismatch:
		return "Output identity: " + f.divergence(r.Divergence) + " (on_mismatch: fail).", true
	case schema.IdentityBroken:
		return "Output identity contract broken: " + f.divergence(r.Divergence) + " (on_mismatch: report keeps the timing results valid).", true
	case schema.IdentityUndecided:
		return "Output identity undecidable: see the Output identity section.", true
	case schema.Interrupted:
		return fmt.Sprintf("Interrupted after %d of %d planned runs.", r.Finished, r.Planned), true
	case schema.ThinArm:
		return fmt.Sprintf("Arm %s has %d successful run(s); at least 2 are needed to say anything.", f.code(r.Arm), r.Runs), true
	case schema.TooNoisy:
		return sentences(
			fmt.Sprintf("Too noisy: arm %s has a spread of %.1f%% (interquartile range over median of %s), %.1f points above the %s limit.", f.code(r.Arm), r.Spread*100, f.code(r.Metric), (r.Spread-r.Limit)*100, f.pct(r.Limit)),
			"Remedies: a quieter host (see Machine), or relax gates.max_spread (the record will disclose it)."), true
	case schema.TooFewRuns:
		return sentences(
			fmt.Sprintf("Too few runs: %s has %d finished run(s) and the baseline %d; the regression needs at least %d each to tell a stalled run from a change.", f.code(r.Arm), r.N2, r.N1, r.Min),
			f.tooFewRemedy(r.Min)), true
	case schema.NoComparison:
		return sentences(
			fmt.Sprintf("No comparison: %s could not be compared with its reference on %s although both have finished runs (a ratio needs values above 0).", f.code(r.Arm), f.code(r.Metric)),
			"Check what the engine reports for the metric in the raw runs."), true
	case schema.TooFewSamples:
		if r.Paired {
			return fmt.Sprintf("Too few samples: with %d rounds the signed-rank test cannot reach p < %s whatever the data ", r.N1, count(round4(r.Alpha))) +
				fmt.Sprintf("(smallest possible p is %.3f); run at least %d rounds.", r.SmallestP, signedRankRounds(r.Alpha)), true
		}
		return fmt.Sprintf("Too few samples: with %d and %d runs the U test cannot reach p < %s whatever the data ", r.N1, r.N2, count(round4(r.Alpha))) +
			fmt.Sprintf("(smallest possible p is %.3f); run at least %d rounds.", r.SmallestP, uTestRounds(r.Alpha)), true
	case schema.ContendedHost:
		remedy, runs, cpu, limit := f.busyRemedy(), pct.Share(r.Runs, r.Judged), f.pct(r.ContendedCPU), f.pct(r.MaxContended)
		if f.v2 {
			remedy, runs = "stop the busy processes named under Machine", pct.Exact(float64(r.Runs)/float64(max(r.Judged, 1)))
			cpu, limit = pct.Exact(r.ContendedCPU), pct.Exact(r.MaxContended)
		}
		return sentences(
			fmt.Sprintf("Contended host: in %d of %s (%s) other processes used more than %s of the CPU during the measured request, above the %s limit.", r.Runs, f.judgedRuns(r.Judged), runs, cpu, limit),
			fmt.Sprintf("Remedies: %s and run again, or relax gates.max_contended (the record will disclose it).", remedy)), true
	case schema.RelativeDrift:
		s := fmt.Sprintf("Drift: arm %s moved %+.1f%% over the campaign relative to the baseline %s ", f.code(r.Arm), r.Change*100, f.code(r.Baseline)) +
			fmt.Sprintf("(difference of trends, p=%s < %s): ", strconv.FormatFloat(r.P, 'g', 2, 64), count(r.Alpha)) +
			"a drift of that arm alone, which interleaving does not cancel; check the machine (heat, clocks)."
		if r.Start != 0 || r.End != 0 {
			s += fmt.Sprintf(" Its change against the baseline was %s at the campaign's start and %s at its end; the average hides that.", pct.Signed(r.Start, 1), pct.Signed(r.End, 1))
		}
		return s, true
	case schema.TooManyLostCounts:
		return sentences(
			fmt.Sprintf("Lost counts: %d of the %d attempts of arm %s failed because the command printed no line for counter %s, which the arm's expectation needs;", r.Lost, r.Attempts, f.code(r.Arm), f.code(r.Counter)),
			fmt.Sprintf("more than one, and more than one in %d of the arm's attempts, is more than a lost log tail explains.", analysis.LostCountShare),
			"The feature did not engage on those runs, which retrying them or leaving them out would hide."), true
	case schema.TooManyStalls:
		return fmt.Sprintf("Too many stalls: %d of the %d rounds of arm %s against the baseline are far out, more than a quarter; ", r.Far, r.Rounds, f.code(r.Arm)) +
			"stalls cannot be told from the arms' own levels (an arm whose median is itself stalled), so no change is decided. " +
			"Remedies: find what stalls the host (see Machine), or run more rounds.", true
	case schema.ClocksDisagree:
		return clocksSentence(f, r), true
	case schema.Drift:
		return sentences(
			fmt.Sprintf("Drift: arm %s drifted %+.1f%% over the campaign (first to last third; rank correlation with time %.2f).", f.code(r.Arm), r.Change*100, r.Rho),
			"Interleaving spreads drift over the arms, but check the machine."), true
	case schema.Contention:
		return fmt.Sprintf("Contention: %d of %s had other processes using more than %s of the CPU during the measured request (limit %s of runs).", r.Runs, f.judgedRuns(r.Judged), f.pct(r.ContendedCPU), f.pct(r.MaxContended)), true
	}
	return "", false
}

// noteReason states the warnings, what was not measured, the host's
// conditions and the identity check's notes.
func (f style) noteReason(r schema.Reason) (string, bool) {
	switch r := r.(type) {
	case schema.ComparisonNote:
		return fmt.Sprintf("%s vs %s: %s.", f.code(r.Arm), f.code(r.Baseline), f.text(r.Note)), true
	case schema.RunsExcluded:
		return fmt.Sprintf("%d run(s) failed and are excluded from the statistics (on_failure: %s).", r.Failed, f.text(r.OnFailure)), true
	case schema.LostCounts:
		return sentences(
			fmt.Sprintf("Lost counts: %d of the %d attempts of arm %s failed because the command printed no line for counter %s, which the arm's expectation needs;", r.Lost, r.Attempts, f.code(r.Arm), f.code(r.Counter)),
			fmt.Sprintf("within the bound of a lost log tail (one, or one in %d of an arm's attempts), they were retried or excluded,", analysis.LostCountShare),
			"and only the runs measured showed the counter's evidence."), true
	case schema.GatesRelaxed:
		return "This scenario relaxes the publishability gates (" + f.text(r.Which) + "); a VALID verdict here holds under those gates only.", true
	case schema.AllowUnverified:
		return fmt.Sprintf("Unverified: no counter tells the arms apart. The scenario's reason: %s.", f.text(strconv.Quote(r.Why))), true
	case schema.NoEngineTimings:
		return fmt.Sprintf("Engine-side timings: the engine reported no `timings.predicted_per_second` in %d run(s), so the client-side decode rate could not be cross-checked there.", r.Runs), true
	case schema.EventCounted:
		return fmt.Sprintf("Exact token counts in %d run(s): the engine returned no totals, so tokens were counted as stream events, which undercounts when the engine merges tokens.", r.Runs), true
	case schema.NoContention:
		return fmt.Sprintf("Contention during the measured request in %d run(s): the engine's CPU time could not be read, or the request took less than %ss, too short to judge.", r.Runs, count(r.WindowS)), true
	case schema.NotRun:
		return fmt.Sprintf("%d planned run(s) did not run.", r.Runs), true
	case schema.NoExactness:
		return "Output identity between arms: the scenario has no `exactness` block, so generated text was recorded (runs.jsonl) but not compared.", true
	case schema.NoEnergy:
		return fmt.Sprintf("Energy in %d run(s): %s.", r.Runs, f.text(r.Why)), true
	case schema.NoDiagnosis:
		return f.diagnosis(r), true
	case schema.KernelTiming:
		return "Engine-internal timing of individual kernels or layers: decodebench measures the production request path only.", true
	case schema.IdentityEmptyBaseline:
		return fmt.Sprintf("Refused: the baseline %s %s; an empty comparison proves nothing.", f.code(r.Arm), f.text(r.Why)), true
	case schema.IdentityUncomparable:
		return fmt.Sprintf("The baseline %s cannot show that it agrees with itself: %s (it needs at least 2 finished runs).", f.code(r.Arm), f.text(r.Why)), true
	case schema.IdentityNonDeterministic:
		return fmt.Sprintf("The baseline %s is not deterministic: %d of its %d runs differ from its first ", f.code(r.Arm), r.Disagreeing, r.Runs) +
			fmt.Sprintf("(first difference between runs %d and %d), so identity between arms is undecidable.", r.RunA, r.RunB), true
	case schema.IdentityEmptyArm:
		return fmt.Sprintf("Refused: arm %s %s.", f.code(r.Arm), f.text(r.Why)), true
	case schema.IdentityNoRuns:
		return fmt.Sprintf("Arm %s has no finished runs to compare.", f.code(r.Arm)), true
	case schema.HostOnBattery:
		return fmt.Sprintf("On battery: the machine ran on battery power around %d of %d finished runs; a Mac on battery may run slower than on AC.", r.Runs, r.Finished), true
	case schema.HostLowPower:
		return fmt.Sprintf("Low-power mode: low-power mode was on around %d of %d finished runs, which lowers clock speeds.", r.Runs, r.Finished), true
	case schema.HostPowerModeChanged:
		return fmt.Sprintf("Power mode changed during the campaign: macOS's energy mode was %s around different runs; the arms did not run under one regime.", f.text(strings.ReplaceAll(r.Modes, ",", ", then "))), true
	case schema.HostThermal:
		return fmt.Sprintf("Thermal warning: the machine reported a thermal limit around %d of %d finished runs (%s); throttled runs are slower than the hardware can be.", r.Runs, r.Finished, f.code(r.Conditions)), true
	case schema.HostGPUPowerCap:
		return fmt.Sprintf("GPU power capping: a GPU's clocks were capped for power around %d of %d finished runs.", r.Runs, r.Finished), true
	case schema.MetricNoValue:
		return sentences(
			fmt.Sprintf("No value: metric %s has no value in any of the %d finished runs, so it has no section; its source was absent in every run, or an input of its expression was.", f.code(r.Metric), r.Runs),
			"Check the source against an engine log or reply in the data folder."), true
	case schema.OutputFlood:
		return sentences(
			fmt.Sprintf("Engine output flood: in %d of %d finished runs the engine wrote more than %s MiB to its standard output and error during the measured request;", r.Runs, r.Finished, count(r.LimitMiB)),
			"writing it competes with decoding, so those runs count as contended. Their logs keep the first and last 4 MiB."), true
	case schema.ImpossibleValues:
		return fmt.Sprintf("Impossible values: in %d run(s) the engine reported numbers that cannot be true ", r.Runs) +
			"(not finite, negative, or more tokens than max_tokens allows); " +
			fmt.Sprintf("they are recorded as absent, and each run's %s list in %s says what they were.", f.code("impossible"), f.code("runs.jsonl")), true
	case schema.QuietTimedOut:
		return fmt.Sprintf("Busy host: the quiet gate did not find the host quiet before %d of %d finished runs, which then ran anyway (on_busy: %s).", r.Runs, r.Finished, f.text(r.OnBusy)), true
	}
	return "", false
}

// sentences joins sentences with a space.
func sentences(s ...string) string { return strings.Join(s, " ") }

// signedRankRounds is the fewest rounds whose signed-rank test can reach
// p < limit.
func signedRankRounds(limit float64) int {
	n := 1
	for n < 64 && stats.MinSignedRankP(n) >= limit {
		n++
	}
	return n
}

// uTestRounds is the fewest rounds (runs per arm) whose U test can reach
// p < limit.
func uTestRounds(limit float64) int {
	n := 1
	for n < 64 && analysis.MinP(n, n) >= limit {
		n++
	}
	return n
}

// divergence states where an arm first diverged.
func (f style) divergence(d schema.Divergence) string {
	where := fmt.Sprintf("byte %d", d.ByteOffset)
	if d.TokenIndex >= 0 {
		where = fmt.Sprintf("token %d / byte %d", d.TokenIndex, d.ByteOffset)
	}
	return fmt.Sprintf("arm %s diverges from %s (%d of %d runs) at %s", f.code(d.Arm), f.code(d.Against), d.Diverging, d.Runs, where)
}

// diagnosis states what a divergence diagnosis could not measure.
func (f style) diagnosis(r schema.NoDiagnosis) string {
	side := ""
	if r.Side != "" {
		side = " (" + f.code(r.Side) + ")"
	}
	var why string
	switch schema.DiagnosisProblem(r.Why) {
	case schema.DiagnosisArmNoCandidate:
		return fmt.Sprintf("Divergence diagnosis of %s: the arm's own candidates at the first divergence; ", f.code(r.Arm)) +
			"its engine returned none there (llama-server returns no log-probabilities for tokens accepted from a draft), " +
			"so only the baseline's margin is known."
	case schema.DiagnosisLaterDifference:
		return fmt.Sprintf("Divergence diagnosis of %s: the diagnosis request%s generated the measured run's output through the first divergence but not after it ", f.code(r.Arm), side) +
			fmt.Sprintf("(it leaves that output at byte %s), so its candidates at the divergence are the measured run's.", f.text(r.Detail))
	case schema.DiagnosisProbeFailed:
		why = "the diagnosis request failed" + side + ": " + f.text(r.Detail)
	case schema.DiagnosisNotReproduced:
		why = "the diagnosis request" + side + " did not generate the measured run's output again, so its candidates describe another output"
	case schema.DiagnosisNoDifference:
		why = "the two diagnosis replies do not differ within the engine's log-probability entries"
	case schema.DiagnosisNoCandidates:
		why = "the engine returned no candidates at the first divergence" + side
	case schema.DiagnosisMergedPiece:
		why = "the divergent token" + side + " ends inside a multi-byte character, and the engine merged it into the next entry, whose candidates are another token's"
	default:
		why = f.text(r.Why)
	}
	return fmt.Sprintf("Divergence diagnosis of %s: %s.", f.code(r.Arm), why)
}

// tooFewRemedy is the remedy for too few runs: more rounds, or under the
// rule's exact statements, where the schedule planned enough, the runs
// that failed or were not run (robust-10 told a campaign of thirty
// planned rounds, interrupted after one, to run at least three).
func (f style) tooFewRemedy(least int) string {
	if f.exact() && f.rounds >= least {
		return fmt.Sprintf("The schedule planned %d rounds: the runs that failed or were not run are under Raw runs.", f.rounds)
	}
	return fmt.Sprintf("Run at least %d rounds.", least)
}

// judgedRuns names the runs a contended share is of: under the rule's
// exact statements, those whose measured window was long enough to judge
// , which a campaign of short runs has fewer
// of than runs.
func (f style) judgedRuns(n int) string {
	if f.exact() {
		return fmt.Sprintf("the %d runs long enough to judge", n)
	}
	return fmt.Sprintf("%d runs", n)
}
