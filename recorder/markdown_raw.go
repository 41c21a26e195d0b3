package recorder

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// runRow is one run with the analysis' mark of it: a row of the raw and
// counter tables.
type runRow struct {
	schema.Run
	mark schema.Mark
	// v2 is set in a v2 record, whose cells render as they did.
	v2 bool
}

func runRows(r *schema.Record) []runRow {
	rows := make([]runRow, len(r.Runs))
	for i, run := range r.Runs {
		rows[i].Run = run
		rows[i].v2 = r.Schema == schema.SchemaV2
		if i < len(r.Analysis.Marks) {
			rows[i].mark = r.Analysis.Marks[i]
		}
	}
	return rows
}

// runColumns name a run at the start of the raw and counter tables.
var runColumns = []column[runRow]{
	right("Run", func(r runRow) string { return strconv.Itoa(r.Seq) }),
	right("Round", func(r runRow) string { return strconv.Itoa(r.Round) }),
	left("Arm", func(r runRow) string { return cellCode(r.Arm) }),
}

// rawColumns are the raw table's columns: fixed ones, then the engine's
// facts and the host's readings where some run has them, then the status.
func rawColumns(counters []schema.CounterSpec, asRun bool) []column[runRow] {
	metric := func(head, name string) column[runRow] {
		return right(head, func(r runRow) string { return metricCell(r.Metrics, name) })
	}
	cols := append(slices.Clone(runColumns),
		left("Start (UTC)", func(r runRow) string { return r.Start.UTC().Format("15:04:05.000") }),
		cooldownColumn(asRun),
		metric("decode tok/s", schema.DecodeTokS),
		metric("e2e tok/s", schema.E2ETokS),
		metric("TTFT ms", schema.TTFTms),
		metric("wall s", schema.WallS),
		right("tokens", func(r runRow) string { return strconv.Itoa(r.Tokens) }),
		right("engine tok/s", func(r runRow) string { return metricCell(r.EngineTimings, "predicted_per_second") }),
		left("counters", func(r runRow) string { return countersCell(r, counters) }),
		left("load1 before→after", func(r runRow) string { return loadPair(r, func(l schema.LoadSample) float64 { return l.Load1 }) }),
		left("CPU busy % before→after", func(r runRow) string { return loadPair(r, func(l schema.LoadSample) float64 { return l.CPUBusyPct }) }),
		right("others' CPU in window", othersCell),
		left("output sha256", func(r runRow) string { return cellCode(abbrev.Hash(r.OutputSHA256)) }),
	)
	cols = append(cols, factColumns...)
	cols = append(cols, hostColumns...)
	return append(cols, left("status", statusCell))
}

func (m *mdWriter) raw(r *schema.Record) {
	m.h2("Raw runs")
	if m.fold {
		table(m, rawColumnsNarrow(), runRows(r))
	} else {
		table(m, rawColumns(r.Counters, m.st.asRun()), runRows(r))
	}
	m.ln("")
	for _, run := range r.Runs {
		if run.OK() {
			continue
		}
		m.p("Run %d (%s) failed; engine log %s:\n\n%s\n", run.Seq, code(run.Arm), code(r.DataDir+"/"+run.Log), block(run.Error))
	}
	m.p("Raw data: [%s](%s) (one JSON object per run, with generated text), the scenario as run, and one engine log per run under %s.\n\n", code(r.DataDir+"/runs.jsonl"), linkPath(r.DataDir+"/runs.jsonl"), code(r.DataDir+"/logs/"))
}

// cooldownColumn is the time before each run: under the rules before
// robust-12 "Cooldown before", which was the time since the last run's end
// (the quiet gate's hold and decodebench's own work in it); from
// robust-12 on named as what it is, and left out ("—") for the first run
// a decodebench process ran (the campaign's first, or the first after a
// resume), which follows no run's end.
func cooldownColumn(asRun bool) column[runRow] {
	if !asRun {
		return right("Cooldown before", cooldownCell)
	}
	return right("Since the last run's end", func(r runRow) string {
		if r.CooldownS == 0 {
			return "—"
		}
		return num(r.CooldownS, 3) + "s"
	})
}

func cooldownCell(r runRow) string {
	if r.Seq == 1 {
		return "—"
	}
	return num(r.CooldownS, 3) + "s"
}

func metricCell(values map[string]float64, name string) string {
	v, ok := values[name]
	if !ok {
		return "—"
	}
	return num(v, 4)
}

func countersCell(r runRow, counters []schema.CounterSpec) string {
	var cs []string
	for _, c := range counters {
		if cr, ok := r.Counters[c.Name]; ok {
			cs = append(cs, cellText(c.Name)+"="+readingText(cr))
		}
	}
	return strings.Join(cs, " ")
}

func loadPair(r runRow, f func(schema.LoadSample) float64) string {
	if r.LoadBefore == nil || r.LoadAfter == nil {
		return "—"
	}
	return num(f(*r.LoadBefore), 3) + "→" + num(f(*r.LoadAfter), 3)
}

func othersCell(r runRow) string {
	if r.Contention == nil {
		return "—"
	}
	if r.mark.Contended {
		return pct.Fixed(r.Contention.Others, 2) + " ⚠"
	}
	return pct.Fixed(r.Contention.Others, 2)
}

func statusCell(r runRow) string {
	status := "ok"
	if !r.OK() {
		status = "❌ " + cellText(excerpt(r.Error, 160))
	}
	if r.mark.Outlier {
		status += " · outlier"
		if r.mark.Dropped {
			status += " (dropped)"
		}
	}
	if r.Attempt > 1 {
		status += fmt.Sprintf(" · attempt %d", r.Attempt)
	}
	return status
}
