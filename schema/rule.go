package schema

// Rule names the statistical rule that turned a record's runs into its
// verdict. The record stores it (Method.Rule) so that check, diff and
// export re-derive a record by the rule it was written under: a record
// written before the field existed has none, and keeps the rule it had.
// The name is resolved once into the rule's parts (analysis.RuleOf);
// nothing else branches on it.
type Rule string

// Rules.
const (
	// RuleMedianU is the first rule: ratio of medians with a percentile
	// bootstrap interval, Mann–Whitney U p-value, Holm over test arms, the
	// control judged by non-significance, drift by Spearman's rho. The
	// empty Rule means it.
	RuleMedianU Rule = ""
	// RuleRobust1 compares arms by a regression of log values on the arm
	// and the run's position in the campaign (a trend common to the arms),
	// with stalled runs trimmed by their residual; t-test and t interval
	// of the arm's coefficient; MDE for an increase and a decrease;
	// drift as an arm's trend relative to the baseline's; the control as
	// an equivalence test with a stated margin; sequential looks with
	// Bonferroni-spent alpha when the schedule asks for them.
	RuleRobust1 Rule = "robust-1"
	// RuleRobust2 is RuleRobust1 with a minimum detectable effect that
	// models what makes a small campaign miss: the stalls the campaign's
	// comparisons saw (runs lost to trimming, runs far out but kept), the
	// chance that the control's own noise vetoes, and the sequential looks
	// taken; and the option to pool the controls into the reference.
	// Everything else is RuleRobust1's.
	RuleRobust2 Rule = "robust-2"
	// RuleRobust3 is RuleRobust2 with a minimum detectable effect that
	// takes the stalls' rate with its uncertainty: the rate a campaign saw
	// is an estimate from a few events (one or two stalls in thirty
	// runs), so the number of kept stalls a campaign like it meets is
	// averaged over the rate's posterior (beta-binomial), not taken at the
	// rate seen. On a host whose stalls are a few standard deviations out
	// (most of them kept), robust-2's MDE after ten fixed rounds was met
	// with 77% power; robust-3's is met with 78–85% on every host model of
	// the calibration. Everything else is RuleRobust2's.
	RuleRobust3 Rule = "robust-3"
	// RuleRobust4 compares each arm with its reference round by round (a
	// block per round: a host step, autocorrelated noise or a drift common
	// to the arms cancels within the round; each arm keeps its own
	// variance), trims a round as a stall only when it is at least 10% off
	// and refuses to decide when more than a quarter of the rounds are far
	// out; spends alpha over a sequential schedule's looks by a Lan-DeMets
	// function at the information reached, Holm's levels passed on to the
	// arms left at each look; judges every arm's test and interval at the
	// one level it was judged at; states an arm's drift at the campaign's
	// start and end, and does not stop a sequential schedule on it.
	RuleRobust4 Rule = "robust-4"
	// RuleRobust5 is RuleRobust4 refusing a comparison only when more
	// than a quarter of its rounds, and at least three, are far out on one
	// side (two stalls of six rounds leave the median clean), putting far
	// rounds back one at a time, and with a minimum detectable
	// effect that draws the far rounds from their rate's posterior even
	// when a campaign saw none, the refusals and the rounds trimmed
	// included: under robust-4 the MDE after six rounds on a quiet host
	// was met with 72% power, under robust-5 with 84%. Everything else is
	// RuleRobust4's.
	RuleRobust5 Rule = "robust-5"
	// RuleRobust6 is RuleRobust5 with a minimum detectable effect that
	// models the far rounds TrimOneByOne puts back: k of a comparison's f
	// far rounds stay in at the chance the trimming itself keeps k of
	// them at this comparison's clean noise and the far rounds' sizes the
	// campaign saw, where robust-5 took the share its comparisons kept.
	// Its MDE is met with 79-87% power on every calibration row and
	// audit host but one (the arm drifting alone, 90%), where robust-5's
	// noisier-arm MDE was met with 75% (3,000 campaigns a cell); planned
	// from eight sets of records a host it is met with 82-90% on average
	// (robust-5: 82-88%). Everything else is RuleRobust5's.
	RuleRobust6 Rule = "robust-6"
	// "robust-7" was current on main for an hour (commits fdb2a22 to
	// 92825cb, 2026-12-05) and withdrawn: it refused a side whose median
	// round looked stalled, and refused arms with a fast mode as well
	// (docs/reference/statistics.md, "A stalled median"). No committed
	// record carries it and RuleOf does not know it; the next rule is
	// robust-8, so that a record written in that hour is never read by
	// another rule of its name.

	// RuleRobust8 is RuleRobust6 with what a refused comparison states:
	// the hull of robust-6's t interval of the mean of every round and the
	// distribution-free interval of the median round (order statistics),
	// with a p that rejects only where the t-test and the sign test both
	// do on the same side (stats.RefusedByHull). The stalls that refused
	// it are either a side's stalls or its level; the hull holds both
	// readings. On the audit's host stalling one run in four, 88% of
	// robust-6's refused intervals held the true ratio at ten rounds and
	// 97% of robust-8's (1,200 campaigns). At the same level its interval
	// is never narrower nor its p smaller than robust-6's, so what reads an
	// undecided record's interval at a fixed level (an adaptive schedule's
	// width, a bisect step) decides no more often; a refused arm sorts
	// later in Holm's order, where robust-6's often sorted first and kept
	// every other arm from significance. Everything else is
	// RuleRobust6's, and so are the verdicts of fixed and sequential
	// schedules (an adaptive one may go on past a refused look).
	RuleRobust8 Rule = "robust-8"
	// RuleRobust9 is RuleRobust8 with what a comparison that keeps far
	// rounds in states (stats.FarKeptHull): the hull of the t interval of
	// the rounds kept and that of the rounds not far out, with a p that
	// rejects only where both t-tests do on the same side. TrimOneByOne
	// puts far rounds back when the fit of the rounds kept cannot tell
	// them from noise, and the put-back cascades, so far rounds on one
	// side go back in together and read as a shift: on the audit's host
	// whose test arm is four times noisier than its baseline, robust-8's
	// sequential schedule claimed a change in 6.0% of A/A campaigns,
	// robust-9's in 5.3%; the calibration's CV 9% sequential row 5.9% and
	// 5.3%; the throttled host's fixed coverage rose from 93.6% to 94.2%
	// (3,000 campaigns a cell). At the same level its interval is never
	// narrower nor its p smaller than robust-8's, and its MDE is
	// robust-8's, met with the same power on every calibration row and
	// audit host to a point. What it costs: an effect that shows in only
	// some of an arm's runs, each far out (a mode 15% faster in one run
	// in five), is claimed less often (30 rounds: 46% of campaigns under
	// robust-8, 30% under robust-9), since the rounds without it must
	// agree. Everything else is RuleRobust8's.
	RuleRobust9 Rule = "robust-9"
	// RuleRobust10 is RuleRobust9 stating in its record what its verdicts
	// judged, where robust-9's record said something else beside them:
	// the results table's primary row of an arm is the arm's verdict (its
	// comparison against the verdict's reference at the level it was
	// judged at: Holm's step, a look's boundary), where robust-9's was the
	// comparison with the baseline at the whole alpha (an interval
	// excluding 1 could stand beside "no significant difference", and
	// history exports and bisect steps read the row);
	// and a budgeted schedule's last look, where the test spends what is
	// left of alpha, is stated as the whole information and alpha, where
	// robust-9 stated the rounds run over the rounds planned (after 20 of
	// 23, 87% and about 0.036 of alpha 0.05 spent). The verdict line also
	// names the budget and the rounds it planned at each look. Its
	// verdicts, their intervals and MDEs are robust-9's, campaign for
	// campaign (analysis.TestRobust10JudgesAsRobust9).
	RuleRobust10 Rule = "robust-10"
	// RuleRobust11 is RuleRobust10 whose records state exactly what four
	// of robust-10's sentences rounded or assumed: the level of an early
	// sequential look (robust-10 rounded it to four decimals, "p<0.001 at
	// level 0"), a comparison by round without two rounds holding a run of
	// both arms (robust-10 said "neither arm has a finished run" of arms
	// with runs), the remedy for too few runs where the schedule planned
	// enough rounds (robust-10 said to run at least as many as it had
	// planned), and the runs a contended host's share is of (the runs whose
	// window was long enough to judge; robust-10 said "of N runs"). Its
	// verdicts are robust-10's, campaign for campaign
	// (analysis.TestRobust11JudgesAsRobust10).
	RuleRobust11 Rule = "robust-11"
	// RuleRobust12 is RuleRobust11 whose records state three things as
	// they ran, where robust-11's records said something else: the
	// method's first line names the rounds run (robust-11 named the
	// schedule's minimum, "5 rounds × 3 arms" above "Rounds run: 10"); the
	// cooldowns slept are the cooldowns (robust-11 stated the time from a
	// run's end to the next's start under that name, the quiet gate's hold
	// and decodebench's own work included); and a negative control's
	// counter expectation is the one it was judged by, the baseline's
	// where it has none of its own (robust-11 showed none, "—", beside a
	// reading marked as judged). Its verdicts are robust-11's, campaign
	// for campaign (analysis.TestRobust12JudgesAsRobust11).
	RuleRobust12 Rule = "robust-12"
	// RuleRobust13 is RuleRobust12 whose minimum detectable effect takes
	// the clean rounds' noise at the spread their choice gives it: the
	// rounds not far out are chosen by the sample's own robust scale, so
	// their sd spreads more than chi-square says and its median falls
	// further below the noise (stats.KeptByPutBackSpread). robust-12's MDE
	// on the calibration's CV 9% host was met with 78% power after thirty
	// rounds and 79% after ten. Its verdicts, intervals and p-values are
	// robust-12's (analysis.TestRobust13ChangesOnlyTheMDE).
	RuleRobust13 Rule = "robust-13"
	// RuleRobust14 is RuleRobust13 whose schedules that stop on their
	// intervals' width (until_ci_width) run in two stages (Stein's): the
	// rounds after the schedule's min are planned once from min's widest
	// interval, and each comparison's standard error is min's noise at
	// its degrees of freedom, so that a claim holds alpha (under
	// robust-13 such a schedule added a round until its intervals were
	// narrow enough, and claimed a change in up to 9.7% of A/A campaigns
	// at alpha 5%). Campaigns of any other schedule are judged as under
	// robust-13 (analysis.TestRobust14ChangesOnlyWidthSchedules).
	RuleRobust14 Rule = "robust-14"
	// RuleRobust15 is RuleRobust14 with five parts a review found wanting:
	// a comparison is refused when more than a quarter of its rounds, and
	// at least two, are far out on one side's better side of its own
	// median (its good runs,
	// trimmed because its median is itself stalled: an arm stalled in
	// three of five rounds claimed -29%); an arm's drift relative to the
	// baseline allows each arm its own line and noise (the pooled fit
	// flagged 10% of A/A arms whose noise was 4× the baseline's); a test
	// arm's comparison with the control is judged at the arm's own level;
	// a refused comparison steps down Holm's order last; and
	// stats.pool_control is refused (a control's artefact within the
	// equivalence margin moved a pooled reference by half of it: 44% of
	// A/A campaigns claimed a change).
	RuleRobust15 Rule = "robust-15"
	// RuleRobust16 is RuleRobust15 whose budgeted campaigns stopped past
	// their plans (interrupted between looks or in a look's round, or by
	// a run that failed its counter expectation) take the latest plan as
	// the most rounds allowed, not max: a record interrupted after its
	// first plan of 7 rounds (max unset: 99) said "2 of 33 looks taken, 6%
	// of the planned information", and one stopped between looks stated
	// 60% of the information where its arms were tested at the 50% of the
	// look before (the point past the plans was read at n/max, below that
	// look's information, and held at it). Campaigns that ran to their
	// stop plan at every look and are judged as under robust-15
	// (analysis.TestRobust16ChangesOnlyStopsPastThePlans).
	RuleRobust16 Rule = "robust-16"
	// RuleRobust17 is RuleRobust16 whose minimum detectable effect takes
	// the clean noise that each count of kept far rounds comes with (the
	// trimming puts a stall back where the clean rounds happen to be
	// noisy and trims it where they are quiet, so a comparison that
	// trimmed its stalls has a smaller error than the noise says) and the
	// far rounds' rate at its posterior mean (stats.KeptBySelection):
	// robust-16's MDE after six rounds on the calibration's CV 2% host was
	// met with 87% power, above the 80–85% it promises. Its verdicts,
	// intervals and p-values are robust-16's
	// (analysis.TestRobust17ChangesOnlyTheMDE).
	RuleRobust17 Rule = "robust-17"
	// RuleCurrent is the rule new records are written under.
	RuleCurrent = RuleRobust17
)

// RobustMinRuns is the fewest finished runs the baseline and each arm
// need under a rule that compares by regression: with two, a stalled run cannot be told from a
// change (there is no majority to trim against) and the regression has one
// residual degree of freedom.
const RobustMinRuns = 3
