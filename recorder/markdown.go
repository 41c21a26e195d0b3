package recorder

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// DataFence is the info string of the fenced block that carries the record's
// machine-readable data, so tools can read a record without its data folder.
const DataFence = "json decodebench-record"

// The data block's fence lines and what follows it: nothing else may come
// after the block.
const (
	dataFenceStart = "```" + DataFence
	dataFenceEnd   = "```"
	dataTrailer    = "</details>"
)

// Markdown renders the record. Sections come in a fixed order: title with
// the verdict, summary, engine, machine, method, counter evidence, results
// (only for verdicts that show them), raw runs, not measured, data.
func Markdown(w io.Writer, r *schema.Record) error {
	var b strings.Builder
	md := &mdWriter{b: &b}
	md.title(r)
	md.summary(r)
	md.engine(r)
	md.machine(r)
	md.method(r)
	md.counters(r)
	if r.Analysis.Identity != nil {
		md.identity(r)
	}
	if r.Verdict.ShowsResults() && len(r.Analysis.Results) > 0 {
		md.results(r)
	}
	md.raw(r)
	md.notMeasured(r)
	if err := md.data(r); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type mdWriter struct{ b *strings.Builder }

func (m *mdWriter) p(format string, args ...any) { fmt.Fprintf(m.b, format, args...) }
func (m *mdWriter) ln(s string)                  { m.b.WriteString(s); m.b.WriteString("\n") }

// reasonLine states a reason on one line, whatever its parameters hold.
func reasonLine(r schema.Reason) string { return oneLine(reasonText(r)) }

func (m *mdWriter) title(r *schema.Record) {
	a := r.Analysis
	m.p("# %s — %s\n\n", text(r.Title), r.Verdict)
	m.p("**Verdict: %s** (exit %d). %s\n\n", r.Verdict, r.Verdict.ExitCode(), verdictSentence(r))
	for _, reason := range append(append([]schema.Reason{}, a.Reasons...), a.Flags...) {
		m.p("- %s\n", reasonLine(reason))
	}
	if len(a.Reasons)+len(a.Flags) > 0 {
		m.ln("")
	}
	for _, w := range r.Scenario.Warnings {
		m.p("> **Warning:** scenario: %s\n", text(w))
	}
	for _, w := range a.Warnings {
		m.p("> **Warning:** %s\n", reasonLine(w))
	}
	if len(a.Warnings)+len(r.Scenario.Warnings) > 0 {
		m.ln("")
	}
	if r.Verdict.ShowsResults() && len(a.ArmVerdicts) > 0 {
		m.p("On %s (%s):\n\n", code(r.Scenario.Primary), verdictBasis(r))
		for _, v := range a.ArmVerdicts {
			m.p("- %s\n", armVerdictSentence(v, r.Scenario.Baseline, higherIsBetter(r, r.Scenario.Primary)))
		}
		m.ln("")
	}
}

func verdictSentence(r *schema.Record) string {
	switch r.Verdict {
	case schema.Valid:
		return "Every measured run showed the counter evidence its arm expects; the results below are publishable."
	case schema.Rejected:
		return "The counter gate failed: at least one run did not show the evidence its arm expects, so the arms are not proven to differ. No results are shown; raw samples are kept in the data folder for diagnosis."
	case schema.Unverified:
		return fmt.Sprintf("No counter tells the arms apart; the scenario allowed running without proof, for this reason: %s. Treat the results as unverified.", text(strconv.Quote(r.Scenario.AllowUnverified)))
	case schema.Inconclusive:
		return "The campaign ran, but the results do not support a conclusion (reasons below). Do not publish."
	case schema.Failed:
		if len(r.Analysis.Reasons) > 0 && r.Analysis.Reasons[0].Code == string(analysis.SourceAbsent) {
			return "Scenario error: a counter's source was absent from every run of every arm (below), so the counter proves nothing. Finished runs are kept below and in the data folder."
		}
		return "The campaign did not finish: a run failed. Finished runs are kept below and in the data folder."
	case schema.Incomplete:
		return "The campaign was interrupted; the record holds the runs that finished."
	}
	return ""
}

func (m *mdWriter) summary(r *schema.Record) {
	m.ln("## Summary")
	m.ln("")
	m.p("| | |\n|---|---|\n")
	m.p("| Feature | %s |\n", cellCode(r.Feature))
	if r.Issue != "" {
		m.p("| Issue | %s |\n", cell(text(r.Issue)))
	}
	m.p("| Scenario | %s (sha256 of its meaning %s) |\n", cellCode(r.Scenario.Path), cellCode(short(r.Scenario.Hash)))
	if len(r.Scenario.Overrides) > 0 {
		m.p("| Overridden | %s (on the command line; the stored scenario is the file as written) |\n", cell(backquoted(r.Scenario.Overrides, ", ")))
	}
	m.p("| Arms | %s |\n", armList(r))
	m.p("| Baseline | %s |\n", cellCode(r.Scenario.Baseline))
	m.p("| Primary metric | %s (%s) |\n", cellCode(r.Scenario.Primary), direction(higherIsBetter(r, r.Scenario.Primary)))
	m.p("| Hardware | %s |\n", cellCode(r.Hardware))
	m.p("| Date | %s |\n", cell(text(r.Date)))
	ok, failed := 0, 0
	for _, run := range r.Runs {
		if run.OK() {
			ok++
		} else {
			failed++
		}
	}
	m.p("| Runs | %d measured, %d failed, of %d planned |\n", ok, failed, len(r.Method.Planned))
	outliers, dropped := 0, 0
	for _, mk := range r.Analysis.Marks {
		if mk.Outlier {
			outliers++
		}
		if mk.Dropped {
			dropped++
		}
	}
	if outliers > 0 {
		m.p("| Outliers | %d run(s) flagged on %s (%s), %d dropped |\n", outliers, cellCode(r.Scenario.Primary), outlierRule(), dropped)
	} else {
		m.p("| Outliers | none flagged on %s |\n", cellCode(r.Scenario.Primary))
	}
	if r.Verdict.ShowsResults() {
		if res, found := r.Result(r.Scenario.Primary); found {
			for _, a := range res.Arms {
				if a.Arm == r.Scenario.Baseline {
					continue
				}
				if a.Comparison == nil || a.Comparison.Ratio == 0 {
					m.p("| **%s vs %s** | no comparison could be made |\n", cell(text(a.Arm)), cell(text(r.Scenario.Baseline)))
					continue
				}
				m.p("| **%s vs %s** | **%s× %s** %s (median %s vs %s %s) |\n", cell(text(a.Arm)), cell(text(r.Scenario.Baseline)), num(a.Comparison.Ratio, 3), cell(text(r.Scenario.Primary)),
					ratioCI(a), num(a.Median, 4), num(baselineMedian(res, r.Scenario.Baseline), 4), res.Unit)
			}
		}
	}
	m.ln("")
}

func armList(r *schema.Record) string {
	names := make([]string, len(r.Scenario.Arms))
	for i, a := range r.Scenario.Arms {
		names[i] = a.Name
	}
	return cell(backquoted(names, ", "))
}

func baselineMedian(res schema.MetricResult, baseline string) float64 {
	for _, a := range res.Arms {
		if a.Arm == baseline {
			return a.Median
		}
	}
	return math.NaN()
}

func direction(higher bool) string {
	if higher {
		return "higher is better"
	}
	return "lower is better"
}

// higherIsBetter is the metric's direction as the analysis recorded it.
func higherIsBetter(r *schema.Record, metric string) bool {
	if res, ok := r.Result(metric); ok {
		return res.HigherIsBetter
	}
	return scenarios.HigherIsBetter(metric)
}

func (m *mdWriter) engine(r *schema.Record) {
	m.ln("## Engine")
	m.ln("")
	e := r.Engine
	m.p("| | |\n|---|---|\n")
	m.p("| Command | %s |\n", cellCode(e.Command))
	m.p("| Resolved path | %s |\n", cellCode(e.Path))
	m.p("| sha256 | %s |\n", cellCode(e.SHA256))
	if e.RealBinary != "" {
		m.p("| Wrapped binary | %s |\n", cellCode(e.RealBinary))
		m.p("| Wrapped sha256 | %s |\n", cellCode(e.RealSHA256))
	}
	m.p("| Version | %s |\n", cell(text(strings.ReplaceAll(e.Version, "\n", "; "))))
	if e.SourceDir != "" {
		dirty := "unknown"
		if e.SourceDirty != nil {
			dirty = fmt.Sprint(*e.SourceDirty)
		}
		m.p("| Source | %s at %s (dirty: %s) |\n", cellCode(e.SourceDir), cellCode(e.SourceCommit), dirty)
	}
	for _, f := range e.Models {
		m.p("| Model file | %s → %s, %s bytes, sha256 %s |\n", cellCode(f.Arg), cellCode(f.Path), strconv.FormatInt(f.Bytes, 10), cellCode(f.SHA256))
	}
	for _, p := range e.Problems {
		m.p("| Problem | %s |\n", cell(text(p)))
	}
	m.ln("")
	m.ln("Command line per arm (`${PORT}` is a free loopback port chosen per engine start):")
	m.ln("")
	for _, a := range r.Scenario.Arms {
		m.p("- %s: %s", code(a.Name), code(strings.Join(a.Command, " ")))
		if len(a.Env) > 0 {
			m.p(" with env %s", envString(a.Env))
		}
		m.ln("")
	}
	m.ln("")
	q := r.Scenario.Request
	m.p("Request: %s, prompt %s, max_tokens %d, temperature %s, seed %d, ignore_eos %v, streamed.\n\n",
		code("POST "+q.Endpoint), code(strconv.Quote(excerpt(q.Prompt, 80))), q.MaxTokens, num(q.Temperature, 3), q.Seed, q.IgnoreEOS)
	if len(r.Scenario.Vars) > 0 {
		var vs []string
		for _, kv := range r.Scenario.Vars {
			v := code(kv.Name + "=" + kv.Value)
			if kv.FromEnv {
				v = code(kv.Name) + " (from the environment, value not recorded)"
			}
			vs = append(vs, v)
		}
		m.p("Variables: %s.\n\n", strings.Join(vs, ", "))
	}
}

func envString(env map[string]string) string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = code(k + "=" + env[k])
	}
	return strings.Join(parts, " ")
}

func (m *mdWriter) machine(r *schema.Record) {
	m.ln("## Machine")
	m.ln("")
	id := r.Machine
	m.p("| | |\n|---|---|\n")
	m.p("| Hardware slug | %s |\n", cellCode(r.Hardware))
	m.p("| CPU | %s (%d cores, %d threads) |\n", cell(text(id.CPUModel)), id.Cores, id.Threads)
	for _, g := range id.GPUs {
		m.p("| GPU | %s (driver %s, %d MiB) |\n", cell(text(g.Name)), cell(text(g.Driver)), g.MemoryMiB)
	}
	m.p("| Memory | %s |\n", bytesString(id.MemoryBytes))
	m.p("| OS | %s |\n", cell(text(fmt.Sprintf("%s %s %s, kernel %s, %s", id.OS, id.Platform, id.PlatformVersion, id.Kernel, id.Arch))))
	m.p("| Host | %s |\n", cellCode(id.Hostname))
	m.platformRows(id.Telemetry)
	m.ln("")
	loads := collectLoads(r.Runs)
	if len(loads) == 0 {
		m.ln("No load samples were taken.")
		m.ln("")
		return
	}
	m.ln("Load, sampled before and after every run (per-run values in the raw table):")
	m.ln("")
	m.ln("| Measure | min | median | max |")
	m.ln("|---|---:|---:|---:|")
	row := func(name string, f func(schema.LoadSample) float64, digits int, unit string) {
		xs := make([]float64, len(loads))
		for i, l := range loads {
			xs[i] = f(l)
		}
		s := stats.Summarize(xs)
		m.p("| %s | %s%s | %s%s | %s%s |\n", name, num(s.Min, digits), unit, num(s.Median, digits), unit, num(s.Max, digits), unit)
	}
	row("Load average (1 min)", func(l schema.LoadSample) float64 { return l.Load1 }, 3, "")
	row("CPU busy since previous sample", func(l schema.LoadSample) float64 { return l.CPUBusyPct }, 3, "%")
	row("Available memory", func(l schema.LoadSample) float64 { return float64(l.MemAvailableBytes) / (1 << 30) }, 3, " GiB")
	row("Swap used", func(l schema.LoadSample) float64 { return float64(l.SwapUsedBytes) / (1 << 20) }, 3, " MiB")
	m.ln("")
}

func collectLoads(runs []schema.Run) []schema.LoadSample {
	var out []schema.LoadSample
	for _, r := range runs {
		if r.LoadBefore != nil {
			out = append(out, *r.LoadBefore)
		}
		if r.LoadAfter != nil {
			out = append(out, *r.LoadAfter)
		}
	}
	return out
}

func (m *mdWriter) method(r *schema.Record) {
	me := r.Method
	m.ln("## Method")
	m.ln("")
	m.p("- %d rounds × %d arms, order %s (seed %d); %d discarded warmup request(s) after each engine start; cooldown %s between runs.\n",
		me.Rounds, len(r.Scenario.Arms), code(me.Order), me.Seed, me.Warmup, text(me.Cooldown))
	m.p("- Every run starts the engine afresh, waits for its ready path, sends the warmups and then the one measured request (streamed), then stops the engine's process group.\n")
	m.p("- Order planned: %s.\n", orderString(me.Planned))
	var ran []string
	var cool []float64
	for _, run := range r.Runs {
		ran = append(ran, run.Arm)
		if run.Seq > 1 {
			cool = append(cool, run.CooldownS)
		}
	}
	m.p("- Order run: %s.\n", orderString(ran))
	if len(cool) > 0 {
		s := stats.Summarize(cool)
		m.p("- Cooldowns slept: %d, from %ss to %ss (median %ss).\n", len(cool), num(s.Min, 3), num(s.Max, 3), num(s.Median, 3))
	}
	m.p("- Started %s, finished %s (%s).\n", me.Started.UTC().Format(time.RFC3339), me.Finished.UTC().Format(time.RFC3339), me.Finished.Sub(me.Started).Round(time.Second))
	for _, t := range me.Resumed {
		m.p("- Resumed at %s.\n", t.UTC().Format(time.RFC3339))
	}
	if me.StoppedBy != "" {
		m.p("- Rounds run: %d; the schedule stopped on: %s.\n", me.RoundsRun, text(me.StoppedBy))
	}
	m.p("- %s\n", methodStatistics(me))
	m.p("- Gates: spread (interquartile range over median) at most %s per arm; at most %s of runs contended (other processes above %s of the CPU during the measured request); drift flagged above %s. Outliers (%s) are %s.\n",
		pctShort(me.MaxSpread), pctShort(me.MaxContended), pctShort(me.ContendedCPU), pctShort(me.MaxDrift), outlierRule(), outlierPolicy(me.Outliers))
	if me.OnFailure != "" {
		m.p("- On a failed run: %s.\n", code(me.OnFailure))
	}
	if x := r.Analysis.ClientEngineRatio; x > 0 {
		m.p("- Check: the client-side decode rate is %s× the engine's own `predicted_per_second` (median over runs).\n", num(x, 4))
	}
	m.p("- Decode rate (`decode_tok_s`) is measured by the client: tokens after the first streamed token event divided by the time from that event to the last one; the token count is the engine's own (%s).\n", tokenSources(r.Runs))
	dirty := ""
	if me.Dirty {
		dirty = " (dirty tree)"
	}
	m.hostMethod(me)
	m.p("- decodebench %s, commit %s%s.\n\n", text(me.Version), code(me.Commit), dirty)
}

func tokenSources(runs []schema.Run) string {
	seen := map[string]bool{}
	var out []string
	for _, r := range runs {
		if r.TokenSource != "" && !seen[r.TokenSource] {
			seen[r.TokenSource] = true
			out = append(out, r.TokenSource)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return backquoted(out, ", ")
}

// orderString lists arms in the order they ran.
func orderString(order []string) string {
	if len(order) == 0 {
		return "none"
	}
	return backquoted(order, " ")
}

func (m *mdWriter) counters(r *schema.Record) {
	m.ln("## Counter evidence")
	m.ln("")
	if len(r.Counters) == 0 {
		m.ln("The scenario declares no counters.")
		m.ln("")
		return
	}
	for _, c := range r.Counters {
		m.p("- %s: %s %s; expects %s.\n", code(c.Name), text(c.Kind), code(c.Expr), expectString(c.Expect, r.Scenario.Arms))
	}
	m.ln("")
	header := "| Run | Round | Arm |"
	sep := "|---:|---:|---|"
	for _, c := range r.Counters {
		header += " " + cell(text(c.Name)) + " (expected) | seen |"
		sep += "---|---:|"
	}
	m.ln(header)
	m.ln(sep)
	for i, run := range r.Runs {
		m.p("| %d | %d | %s |", run.Seq, run.Round, cellCode(run.Arm))
		mk := markOf(r, i)
		for _, c := range r.Counters {
			cr, ok := run.Counters[c.Name]
			expect := cell(text(dash(c.Expect[run.Arm])))
			switch {
			case !ok:
				m.p(" %s | — |", expect)
			default:
				mark := ""
				if okv, judged := mk.CounterOK[c.Name]; judged && okv {
					mark = " ✅"
				} else if judged {
					mark = " ❌"
				}
				absent := ""
				if cr.Absent {
					absent = " (absent)"
				}
				m.p(" %s | %s%s%s |", expect, count(cr.Value), absent, mark)
			}
		}
		m.ln("")
	}
	m.ln("")
}

func expectString(ex map[string]string, arms []schema.ArmInfo) string {
	var parts []string
	for _, a := range arms {
		if e, ok := ex[a.Name]; ok {
			parts = append(parts, code(a.Name)+" "+text(e))
		}
	}
	return strings.Join(parts, ", ")
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func (m *mdWriter) results(r *schema.Record) {
	m.ln("## Results")
	m.ln("")
	if r.Verdict != schema.Valid {
		m.p("> **Do not publish:** verdict %s.\n\n", r.Verdict)
	}
	m.ln("Median with its confidence interval at the level it achieves with n samples; MAD is the median absolute deviation; spread is (Q3−Q1)/median; ratio is the arm's median over the baseline's with its bootstrap interval and p the Mann–Whitney U test against the baseline, or, when the arms are paired by round, the median within-round ratio with a bootstrap over rounds and p the Wilcoxon signed-rank test. Changes are new/old − 1 on the metric's own scale. Only the primary metric is judged (faster/slower, corrected for the family of arms); secondary metrics are described.")
	m.ln("")
	for _, res := range r.Analysis.Results {
		role := "secondary"
		if res.Primary {
			role = "primary"
		}
		m.p("### %s (%s, %s, %s)\n\n", code(res.Metric), text(res.Unit), role, direction(res.HigherIsBetter))
		m.ln("| Arm | n | median [interval] | MAD | Q1 | Q3 | min | max | CV | spread | outliers | drift | ratio [interval] | p | verdict |")
		m.ln("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|")
		for _, a := range res.Arms {
			ratio, p, verdict := "1 (baseline)", "—", "—"
			if c := a.Comparison; c != nil {
				judged := *c
				if v, ok := armVerdictOf(r, a.Arm); ok && res.Primary {
					judged = v.Comparison
				}
				ratio, p, verdict = num(c.Ratio, 4)+"× "+ratioCI(a), num(c.P, 2), comparisonSentence(judged, res.HigherIsBetter, res.Primary)
			}
			outliers := fmt.Sprint(a.Outliers)
			if a.Dropped > 0 {
				outliers += fmt.Sprintf(" (%d dropped)", a.Dropped)
			}
			m.p("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %+.1f%% | %s | %s | %s |\n", cellCode(a.Arm), a.N,
				medianCI(a), num(a.MAD, 3),
				num(a.Q1, 4), num(a.Q3, 4), num(a.Min, 4), num(a.Max, 4), pct(a.CV), pct(a.Spread()), outliers, a.Drift*100, ratio, p, verdict)
		}
		m.ln("")
		if res.Primary {
			for _, plot := range r.Plots {
				if strings.HasSuffix(plot, ".png") {
					m.p("![%s](%s)\n\n", text(strings.TrimSuffix(plot, ".png")), linkPath(r.DataDir+"/"+plot))
				}
			}
		}
	}
}

// verdictBasis states how the primary verdicts were reached: the level of
// the ratio intervals and the family-wise alpha.
func verdictBasis(r *schema.Record) string {
	a := r.Analysis
	s := fmt.Sprintf("ratio intervals at %s by percentile bootstrap", pctShort(r.Method.Confidence))
	if a.FamilySize > 1 {
		s += fmt.Sprintf("; family-wise alpha %s over %d arms (Holm)", count(a.FamilyAlpha), a.FamilySize)
	} else if a.FamilyAlpha > 0 {
		s += fmt.Sprintf("; alpha %s", count(a.FamilyAlpha))
	}
	return s
}

// armVerdictOf returns an arm's primary verdict.
func armVerdictOf(r *schema.Record, arm string) (schema.ArmVerdict, bool) {
	for _, v := range r.Analysis.ArmVerdicts {
		if v.Arm == arm {
			return v, true
		}
	}
	return schema.ArmVerdict{}, false
}

// medianCI formats a median with its interval and the interval's level.
func medianCI(a schema.ArmResult) string {
	if a.MedianConfidence == 0 {
		return num(a.Median, 4)
	}
	return fmt.Sprintf("%s [%s, %s] (%s)", num(a.Median, 4), num(a.MedianLo, 4), num(a.MedianHi, 4), pct(a.MedianConfidence))
}

// ratioCI formats a ratio's interval, or nothing when it has none.
func ratioCI(a schema.ArmResult) string {
	c := a.Comparison
	if c == nil || (c.Lo == 0 && c.Hi == 0) {
		return ""
	}
	return "[" + num(c.Lo, 4) + ", " + num(c.Hi, 4) + "]"
}

func outlierPolicy(p string) string {
	if p == "drop" {
		return "dropped from the statistics (outliers: drop)"
	}
	return "flagged, never dropped"
}

func (m *mdWriter) identity(r *schema.Record) {
	id := r.Analysis.Identity
	m.ln("## Output identity")
	m.ln("")
	m.p("**%s.** Each compared arm's generated output, per measured run, against the %s arm's output for the same request (on mismatch: %s). Tokens are compared where the engine returned every token id; bytes of text always.\n\n", id.Verdict, code(id.Against), code(id.OnMismatch))
	for _, n := range id.Notes {
		m.p("- %s\n", reasonLine(n))
	}
	if len(id.Notes) > 0 {
		m.ln("")
	}
	m.ln("| Arm | verdict | runs compared | tokens compared | first divergence | differing | excerpt (" + cellCode(id.Against) + ") | excerpt (arm) |")
	m.ln("|---|---|---:|---|---|---:|---|---|")
	for _, a := range append([]schema.IdentityArm{id.Baseline}, id.Arms...) {
		first, differing := "—", "—"
		if !a.Identical() && a.Error == "" && a.RunA > 0 {
			first = fmt.Sprintf("run %d vs run %d: byte %d", a.RunA, a.RunB, a.ByteOffset)
			if a.TokensCompared && a.TokenIndex >= 0 {
				first += fmt.Sprintf(", token %d (ids %d vs %d)", a.TokenIndex, a.TokenA, a.TokenB)
			}
			differing = fmt.Sprintf("%d bytes", a.DifferingBytes)
			if a.TokensCompared {
				differing += fmt.Sprintf(", %d tokens", a.DifferingTokens)
			}
		}
		verdict := a.Verdict
		if a.Diverging > 0 && a.Verdict != string(schema.NotDeterministic) {
			verdict += fmt.Sprintf(" in %d of %d runs", a.Diverging, a.Runs)
		}
		if a.Error != "" {
			verdict += ": " + cell(text(a.Error))
		}
		m.p("| %s | %s | %d | %v | %s | %s | %s | %s |\n", cellCode(a.Arm), verdict, a.Runs, a.TokensCompared, first, differing, codeCell(a.ExcerptA), codeCell(a.ExcerptB))
	}
	m.ln("")
	if len(id.Strip) > 0 {
		m.p("Stripped before comparing (patterns %s): %d match(es)", backquoted(id.Strip, ", "), len(id.Stripped))
		if len(id.Stripped) > 0 {
			m.p(", e.g. %s", codeCell(strconv.Quote(id.Stripped[0])))
		}
		m.ln(".")
		m.ln("")
	}
}

func codeCell(s string) string { return cellCode(s) }

// backquoted writes each item as inline code, joined by sep.
func backquoted(xs []string, sep string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = code(x)
	}
	return strings.Join(out, sep)
}

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
			metric(run, scenarios.DecodeTokS, 4), metric(run, scenarios.E2ETokS, 4), metric(run, scenarios.TTFTms, 4), metric(run, scenarios.WallS, 4),
			run.Tokens, engineRate(run), strings.Join(cs, " "), loadPair(run, func(l schema.LoadSample) float64 { return l.Load1 }),
			loadPair(run, func(l schema.LoadSample) float64 { return l.CPUBusyPct }), others, cellCode(short(run.OutputSHA256)), extra, status)
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

// markOf returns the analysis' mark of the i-th run.
func markOf(r *schema.Record, i int) schema.Mark {
	if i < len(r.Analysis.Marks) {
		return r.Analysis.Marks[i]
	}
	return schema.Mark{}
}

func (m *mdWriter) notMeasured(r *schema.Record) {
	m.ln("## Not measured")
	m.ln("")
	for _, s := range r.Scenario.Unmeasured {
		m.p("- %s\n", text(s))
	}
	for _, u := range r.Analysis.Unmeasured {
		m.p("- %s\n", reasonLine(u))
	}
	m.ln("")
}

func (m *mdWriter) data(r *schema.Record) error {
	// The runs are in runs.jsonl, whose hash is in Files.
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("record data: %w", err)
	}
	m.ln("## Data")
	m.ln("")
	m.ln("<details><summary>Machine-readable record (parsed by <code>decodebench</code> tools)</summary>")
	m.ln("")
	m.ln(dataFenceStart)
	m.ln(string(b))
	m.ln(dataFenceEnd)
	m.ln("")
	m.ln(dataTrailer)
	return nil
}

// num formats v with up to digits significant digits; non-finite values
// show as an em dash.
func num(v float64, digits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if v == 0 {
		return "0"
	}
	mag := int(math.Floor(math.Log10(math.Abs(v))))
	dec := digits - 1 - mag
	if dec < 0 {
		dec = 0
	}
	return fmt.Sprintf("%.*f", dec, v)
}

// count formats a counter value exactly, without padding zeros.
func count(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func pct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return fmt.Sprintf("%.2f%%", v*100)
}

// pctShort formats a threshold or level without padding: 95%, 4%, 0.5%.
func pctShort(v float64) string {
	return strconv.FormatFloat(v*100, 'f', -1, 64) + "%"
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func excerpt(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func bytesString(n uint64) string {
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
