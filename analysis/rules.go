package analysis

import (
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// rules are the rules a record can name, each a combination of parts; a
// record keeps the rule it was written under (schema.Rule says why each
// came).
var rules = map[schema.Rule]Rule{
	// The first rule: ratio of medians with a percentile bootstrap
	// interval and the U test (or by round, the signed-rank test); the
	// MDE from the two groups' noise; the control judged by its own
	// significance; drift by Spearman's rho; looks ignored.
	schema.RuleMedianU: {Name: schema.RuleMedianU, Comparison: RatioOfMedians{}, MDE: NoiseMDE{},
		Control: SignificantControl{}, Drift: RankDrift{}, Looks: FixedLevel{}},
	// A regression of log values on arm and run position with stalls
	// trimmed; the MDE from its standard error; the control as an
	// equivalence test; drift as an arm's trend relative to the baseline's;
	// sequential looks with Bonferroni-spent alpha.
	schema.RuleRobust1: {Name: schema.RuleRobust1, Comparison: LogRegression{}, MDE: RegressionMDE{},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: RelativeDrift{Alpha: DriftAlpha}, Looks: BonferroniLooks{}, Pooling: PoolsUnstated},
	// robust-1 with an MDE that models the campaign's stalls at the rate
	// it saw, the control's veto and the looks.
	schema.RuleRobust2: {Name: schema.RuleRobust2, Comparison: LogRegression{}, MDE: ModelledMDE{StallRate: stats.StallRateSeen},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: RelativeDrift{Alpha: DriftAlpha}, Looks: BonferroniLooks{}, Pooling: Pools, Wording: SenseWords},
	// robust-2 with the stalls' rate taken with its uncertainty.
	schema.RuleRobust3: {Name: schema.RuleRobust3, Comparison: LogRegression{}, MDE: ModelledMDE{StallRate: stats.StallRateUncertain},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: RelativeDrift{Alpha: DriftAlpha}, Looks: BonferroniLooks{}, Pooling: Pools, Wording: SenseWords},
	// Each arm against its reference round by round, stalls trimmed only
	// when far off and refused when too many; alpha spent over the looks
	// by the information reached; an arm's own drift stated at the start
	// and the end, never stopped on.
	schema.RuleRobust4: {Name: schema.RuleRobust4, Comparison: RoundBlocks{}, MDE: BlocksMDE{StallRate: stats.StallRateUncertain},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF}, Pooling: Pools, Wording: SenseWords},
	// robust-4 refusing from three far rounds on one side, far rounds put
	// back one at a time, and an MDE whose far rounds, refusals and
	// trimmed rounds come from their rate's posterior.
	schema.RuleRobust5: {Name: schema.RuleRobust5, Comparison: RoundBlocks{Trim: stats.TrimOneByOne}, MDE: RoundsMDE{},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF}, Pooling: Pools, Wording: SenseWords},
	// robust-5 with an MDE whose far rounds stay in at the chance the
	// trimming puts them back at this comparison's noise.
	schema.RuleRobust6: {Name: schema.RuleRobust6, Comparison: RoundBlocks{Trim: stats.TrimOneByOne}, MDE: RoundsMDE{Kept: stats.KeptByPutBack},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF}, Pooling: Pools, Wording: SenseWords},
	// robust-6 whose refused comparisons state the hull of the t interval
	// and the median's order-statistic interval, with a p that needs the
	// t-test and the sign test on one side.
	schema.RuleRobust8: {Name: schema.RuleRobust8, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull}, MDE: RoundsMDE{Kept: stats.KeptByPutBack},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF}, Pooling: Pools, Wording: SenseWords},
	// robust-8 whose comparisons that keep far rounds in state the hull
	// of the t intervals of the rounds kept and of the rounds not far out,
	// with a p that needs both t-tests on one side.
	schema.RuleRobust9: {Name: schema.RuleRobust9, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull}, MDE: RoundsMDE{Kept: stats.KeptByPutBack},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF}, Pooling: Pools, Wording: SenseWords},
	// robust-9 stating what its verdicts judged: the primary metric's rows
	// at each arm's level, the budget's last look as the whole
	// information (schema.RuleRobust10).
	schema.RuleRobust10: {Name: schema.RuleRobust10, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull}, MDE: RoundsMDE{Kept: stats.KeptByPutBack},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested},
		Pooling: Pools, Wording: SenseWords, Rows: RowsAsJudged},
	// robust-10 stating exactly what four of its sentences rounded or
	// assumed (schema.RuleRobust11).
	schema.RuleRobust11: {Name: schema.RuleRobust11, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull}, MDE: RoundsMDE{Kept: stats.KeptByPutBack},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested},
		Pooling: Pools, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsExact},
	// robust-11 stating the rounds run, the cooldowns slept and a
	// control's counter expectation as they were (schema.RuleRobust12).
	schema.RuleRobust12: {Name: schema.RuleRobust12, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull}, MDE: RoundsMDE{Kept: stats.KeptByPutBack},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested},
		Pooling: Pools, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsAsRun},
	// robust-12 with an MDE whose clean noise is taken at the spread its
	// choice gives it (schema.RuleRobust13).
	schema.RuleRobust13: {Name: schema.RuleRobust13, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull}, MDE: RoundsMDE{Kept: stats.KeptByPutBackSpread},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested},
		Pooling: Pools, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsAsRun},
	// robust-13 whose width schedules run in two stages
	// (schema.RuleRobust14).
	schema.RuleRobust14: {Name: schema.RuleRobust14, Comparison: RoundBlocks{Trim: stats.TrimOneByOne, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull, Stage: stats.StageStein}, MDE: RoundsMDE{Kept: stats.KeptByPutBackSpread},
		Control: EquivalentControl{Margin: EquivalenceMargin}, Drift: BlockDrift{Alpha: DriftAlpha}, Looks: SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested},
		Pooling: Pools, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsAsRun},
	// robust-14 refusing a comparison that would trim a side's good runs,
	// with drift from each arm's own line and noise, the control judged at each
	// arm's level, refused arms last in Holm's order, and no pooling
	// (schema.RuleRobust15).
	schema.RuleRobust15: {Name: schema.RuleRobust15, Comparison: RoundBlocks{Trim: stats.TrimGoodRuns, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull, Stage: stats.StageStein}, MDE: RoundsMDE{Kept: stats.KeptByPutBackSpread},
		Control: EquivalentControl{Margin: EquivalenceMargin, AtArmLevel: true}, Drift: BlockDrift{Alpha: DriftAlpha, Welch: true},
		Looks:   SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested, RefusedLast: true},
		Pooling: NoPooling, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsAsRun},
	// robust-15 whose campaigns stopped past their budget's plans go by
	// the latest plan (schema.RuleRobust16).
	schema.RuleRobust16: {Name: schema.RuleRobust16, Comparison: RoundBlocks{Trim: stats.TrimGoodRuns, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull, Stage: stats.StageStein}, MDE: RoundsMDE{Kept: stats.KeptByPutBackSpread},
		Control: EquivalentControl{Margin: EquivalenceMargin, AtArmLevel: true}, Drift: BlockDrift{Alpha: DriftAlpha, Welch: true},
		Looks:   SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested, RefusedLast: true, LatestPlan: true},
		Pooling: NoPooling, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsAsRun},
	// robust-16 whose MDE takes the clean noise each count of kept far
	// rounds comes with, and their rate at its posterior mean (the
	// current rule, schema.RuleRobust17).
	schema.RuleRobust17: {Name: schema.RuleRobust17, Comparison: RoundBlocks{Trim: stats.TrimGoodRuns, Refused: stats.RefusedByHull, FarKept: stats.FarKeptHull, Stage: stats.StageStein}, MDE: RoundsMDE{Kept: stats.KeptBySelection},
		Control: EquivalentControl{Margin: EquivalenceMargin, AtArmLevel: true}, Drift: BlockDrift{Alpha: DriftAlpha, Welch: true},
		Looks:   SpendingLooks{Spending: stats.SpendOBF, Budget: BudgetAsTested, RefusedLast: true, LatestPlan: true},
		Pooling: NoPooling, Wording: SenseWords, Rows: RowsAsJudged, Statements: StatementsAsRun},
}
