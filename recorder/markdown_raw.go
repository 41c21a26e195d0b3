package recorder

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) raw(r *schema.Record) {
	m.ln("## Raw runs")
	m.ln("")
	hc := append(factColumns(r.Runs), hostColumns(r.Runs)...)
	head, align := "", ""
	for _, c := range hc {
		head += " " + c.head + " |"
		align += c.align + "|"
	}
	m.ln("| Run | Round | Arm | Start (UTC) | Cooldown before | decode tok/s | e2e tok/s | TTFT ms | wall s | tokens | engine tok/s | counters | load1 before→after | CPU busy % before→after | others' CPU in window | output sha256 |" + head + " status |")
	m.ln("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---|" + align + "---|")
	for i, run := range r.Runs {
		mk := markOf(r, i)
		var cs []string
		for _, c := range r.Counters {
			if cr, ok := run.Counters[c.Name]; ok {
				cs = append(cs, cell(text(c.Name))+"="+count(cr.Value))
			}
		}
		status := "ok"
		if !run.OK() {
			status = "❌ " + cell(text(excerpt(run.Error, 160)))
		}
		if mk.Outlier {
			status += " · outlier"
			if mk.Dropped {
				status += " (dropped)"
			}
		}
		if run.Attempt > 1 {
			status += fmt.Sprintf(" · attempt %d", run.Attempt)
		}
		others := "—"
		if run.Contention != nil {
			others = pct(run.Contention.Others)
			if mk.Contended {
				others += " ⚠"
			}
		}
		extra := ""
		for _, c := range hc {
			extra += " " + c.cell(run) + " |"
		}
		m.p("| %d | %d | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |%s %s |\n",
			run.Seq, run.Round, cellCode(run.Arm), run.Start.UTC().Format("15:04:05.000"), cooldown(run),
			metric(run, schema.DecodeTokS, 4), metric(run, schema.E2ETokS, 4), metric(run, schema.TTFTms, 4), metric(run, schema.WallS, 4),
			run.Tokens, engineRate(run), strings.Join(cs, " "), loadPair(run, func(l schema.LoadSample) float64 { return l.Load1 }),
			loadPair(run, func(l schema.LoadSample) float64 { return l.CPUBusyPct }), others, cellCode(abbrev.Hash(run.OutputSHA256)), extra, status)
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

func cooldown(run schema.Run) string {
	if run.Seq == 1 {
		return "—"
	}
	return num(run.CooldownS, 3) + "s"
}

func metric(run schema.Run, name string, digits int) string {
	v, ok := run.Metrics[name]
	if !ok {
		return "—"
	}
	return num(v, digits)
}

func engineRate(run schema.Run) string {
	v, ok := run.EngineTimings["predicted_per_second"]
	if !ok {
		return "—"
	}
	return num(v, 4)
}

func loadPair(run schema.Run, f func(schema.LoadSample) float64) string {
	if run.LoadBefore == nil || run.LoadAfter == nil {
		return "—"
	}
	return num(f(*run.LoadBefore), 3) + "→" + num(f(*run.LoadAfter), 3)
}
