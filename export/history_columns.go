package export

import "github.com/decodebench/decodebench/history"

// HistoryTable is the SQLite table HistorySQLite writes.
const HistoryTable = "history"

// HistoryColumn is one column of a history export, in CSV and SQLite.
type HistoryColumn struct {
	Name, SQLType string
	// Value is the row's value: a string, int64, float64, bool or nil
	// (no value).
	Value func(history.Row) any
}

// HistoryColumns are a history export's columns, in order.
var HistoryColumns = []HistoryColumn{
	{"record", "TEXT", func(r history.Row) any { return r.Record }},
	{"date", "TEXT", func(r history.Row) any { return r.Date }},
	{"feature", "TEXT", func(r history.Row) any { return r.Feature }},
	{"hardware", "TEXT", func(r history.Row) any { return r.Hardware }},
	{"verdict", "TEXT", func(r history.Row) any { return string(r.Verdict) }},
	{"scenario_hash", "TEXT", func(r history.Row) any { return r.ScenarioHash }},
	{"arm", "TEXT", func(r history.Row) any { return r.Arm }},
	{"baseline", "TEXT", func(r history.Row) any { return r.Baseline }},
	{"is_baseline", "INTEGER", func(r history.Row) any { return r.IsBaseline }},
	{"control", "INTEGER", func(r history.Row) any { return r.Control }},
	{"metric", "TEXT", func(r history.Row) any { return r.Metric }},
	{"unit", "TEXT", func(r history.Row) any { return r.Unit }},
	{"primary_metric", "INTEGER", func(r history.Row) any { return r.Primary }},
	{"higher_is_better", "INTEGER", func(r history.Row) any { return r.HigherBetter }},
	{"n", "INTEGER", func(r history.Row) any { return int64(r.N) }},
	{"median", "REAL", medianValue(func(r history.Row) float64 { return r.Median })},
	{"median_lo", "REAL", medianValue(func(r history.Row) float64 { return r.MedianLo })},
	{"median_hi", "REAL", medianValue(func(r history.Row) float64 { return r.MedianHi })},
	{"ratio", "REAL", ratioValue(func(r history.Row) float64 { return r.Ratio })},
	{"ratio_lo", "REAL", ratioValue(func(r history.Row) float64 { return r.RatioLo })},
	{"ratio_hi", "REAL", ratioValue(func(r history.Row) float64 { return r.RatioHi })},
	{"ratio_confidence", "REAL", ratioValue(func(r history.Row) float64 { return r.RatioConfidence })},
	{"p", "REAL", ratioValue(func(r history.Row) float64 { return r.P })},
	{"significant", "INTEGER", func(r history.Row) any {
		if !r.HasRatio {
			return nil
		}
		return r.Significant
	}},
	{"engine_version", "TEXT", func(r history.Row) any { return r.EngineVersion }},
	{"engine_sha256", "TEXT", func(r history.Row) any { return r.EngineSHA256 }},
	{"source_commit", "TEXT", func(r history.Row) any { return r.SourceCommit }},
	{"decodebench_version", "TEXT", func(r history.Row) any { return r.Decodebench }},
	{"rule", "TEXT", func(r history.Row) any { return r.Rule }},
}

// medianValue is a median's field, no value on a row of no values (an arm
// whose source was absent: it was written 0, a median of nothing).
func medianValue(f func(history.Row) float64) func(history.Row) any {
	return func(r history.Row) any {
		if r.N == 0 {
			return nil
		}
		return f(r)
	}
}

// ratioValue is a ratio's field, no value on a row without a ratio.
func ratioValue(f func(history.Row) float64) func(history.Row) any {
	return func(r history.Row) any {
		if !r.HasRatio {
			return nil
		}
		return f(r)
	}
}

// HistoryColumnNames are the names of HistoryColumns, in order.
func HistoryColumnNames() []string {
	names := make([]string, len(HistoryColumns))
	for i, col := range HistoryColumns {
		names[i] = col.Name
	}
	return names
}
