package recorder

import (
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/schema"
)

// answerFirst renders a SchemaV5 record with its answer first: the
// verdict and every gate that failed, then the results, the summary, the
// output identity and the noise anatomy; then how it was measured
// (counter evidence, its per-run table folded; method; where the time
// went; machine; engine, its libraries folded), the raw runs in a
// narrower table, what was not measured, and the data.
func (m *mdWriter) answerFirst(r *schema.Record) error {
	m.fold = true
	m.title(r)
	if r.Verdict.ShowsResults() && len(r.Analysis.Results) > 0 {
		m.results(r)
	}
	m.summary(r)
	if r.Analysis.Identity != nil {
		m.identity(r)
	}
	if r.Analysis.Anatomy != nil {
		m.anatomy(r)
	}
	if hasStreams(r) {
		m.streams(r)
	}
	m.counters(r)
	m.method(r)
	m.timeUse(r)
	m.machine(r)
	m.engine(r)
	m.raw(r)
	m.notMeasured(r)
	return m.data(r)
}

// details opens a folded block whose summary line is always shown.
func (m *mdWriter) details(summary string) {
	m.p("<details><summary>%s</summary>\n\n", summary)
}

func (m *mdWriter) endDetails() { m.ln("</details>\n") }

// gatesSentence names, in the verdict's own paragraph, every
// publishability gate that failed: those among the verdict's reasons (an
// INCONCLUSIVE or UNVERIFIED record's) and those a verdict decided before
// them left out (AlsoFailed). Empty when none did.
func gatesSentence(a schema.Analysis) string {
	var names []string
	for _, r := range append(slices.Clone(a.Reasons), a.AlsoFailed...) {
		if n, ok := gateName(r); ok && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" **Gates that failed: %s.**", strings.Join(names, ", "))
}

// gateName is the publishability gate a reason reports, in a word or two;
// false for a reason that is no gate's (a failed run, the interruption).
func gateName(r schema.Reason) (string, bool) {
	switch r := r.(type) {
	case schema.TooNoisy:
		return "noise (spread)", true
	case schema.ContendedHost:
		if r.Judged > 0 && r.Runs == r.Judged {
			return "contention (every run contended)", true
		}
		return "contention", true
	case schema.ControlDiffers:
		return "negative control", true
	case schema.TooFewSamples, schema.TooFewRuns:
		return "sample size", true
	case schema.IdentityUndecided:
		return "output identity", true
	case schema.RunFailed, schema.Interrupted, schema.ThinArm:
		return "", false
	}
	return string(r.Code()), true
}

// rawColumnsNarrow are the raw table's columns in a record laid out with
// its answer first: the run, its measurements, the host's load and what
// contended it, the output's hash and the status; the counters are in
// their own section, and what the record states elsewhere (the cooldowns,
// decodebench's own CPU, the engine's rate) or what no one reads in a
// table (the start of the generated text) stays in runs.jsonl.
func rawColumnsNarrow() []column[runRow] {
	metric := func(head, name string) column[runRow] {
		return right(head, func(r runRow) string { return metricCell(r.Metrics, name) })
	}
	drafts := factColumns[1]
	cols := append(slices.Clone(runColumns),
		left("Start (UTC)", func(r runRow) string { return r.Start.UTC().Format("15:04:05") }),
		metric("decode tok/s", schema.DecodeTokS),
		metric("e2e tok/s", schema.E2ETokS),
		metric("TTFT ms", schema.TTFTms),
		metric("wall s", schema.WallS),
		right("tokens", func(r runRow) string { return fmt.Sprint(r.Tokens) }),
		drafts,
		left("load1 before→after", func(r runRow) string { return loadPair(r, func(l schema.LoadSample) float64 { return l.Load1 }) }),
		right("others' CPU", othersCell),
	)
	for _, c := range hostColumns {
		if c.head != "decodebench CPU in window" {
			cols = append(cols, c)
		}
	}
	return append(cols, left("output sha256", func(r runRow) string { return cellCode(abbrev.Hash(r.OutputSHA256)) }), left("status", statusCell))
}

// libraries folds an engine's shared libraries, each with its sha256,
// under the engine's table.
func (m *mdWriter) libraries(e schema.EngineInfo, sp shortPaths) {
	if len(e.Libraries) == 0 {
		return
	}
	m.ln("")
	m.details(fmt.Sprintf("%d shared libraries, each with its sha256", len(e.Libraries)))
	m.p("| Library | sha256 |\n|---|---|\n")
	for _, l := range e.Libraries {
		m.p("| %s | %s |\n", cellCode(sp.path(l.Path)), cellCode(l.SHA256))
	}
	m.ln("")
	m.p("</details>\n")
}

// counterTally says in a line what the folded per-run table holds: how
// many runs' readings held their arm's expectation and how many did not.
func counterTally(r *schema.Record) string {
	held, failed := 0, 0
	for _, mk := range r.Analysis.Marks {
		for _, ok := range mk.CounterOK {
			if ok {
				held++
			} else {
				failed++
			}
		}
	}
	lost := ""
	if n := lostAttempts(r); n > 0 {
		lost = fmt.Sprintf(" %d failed run(s) printed no line for a count their arm needs (a lost count): they were retried or excluded, not checked.", n)
	}
	switch {
	case held+failed == 0:
		return "No reading was checked against an expectation." + lost
	case failed == 0:
		return fmt.Sprintf("Every one of the %d readings checked against an expectation held it (✅).", held) + lost
	}
	return fmt.Sprintf("%d of the %d readings checked against an expectation did not hold it (❌), %d did (✅).", failed, held+failed, held) + lost
}
