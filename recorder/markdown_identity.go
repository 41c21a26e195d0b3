package recorder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) identity(r *schema.Record) {
	id := r.Analysis.Identity
	m.h2("Output identity")
	m.p("**%s.** Each compared arm's generated output, per measured run, against the %s arm's output for the same request (on mismatch: %s). ", id.Verdict, code(id.Against), code(string(id.OnMismatch)))
	m.p("Tokens are compared where the engine returned every token id; bytes of text always.\n\n")
	for _, n := range id.Notes {
		m.p("- %s\n", m.reasonLine(n))
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
		verdict := string(a.Verdict)
		if a.Diverging > 0 && a.Verdict != schema.NotDeterministic {
			verdict += fmt.Sprintf(" in %d of %d runs", a.Diverging, a.Runs)
		}
		if a.Error != "" {
			verdict += ": " + cellText(a.Error)
		}
		m.p("| %s | %s | %d | %v | %s | %s | %s | %s |\n", cellCode(a.Arm), verdict, a.Runs, a.TokensCompared, first, differing, cellCode(a.ExcerptA), cellCode(a.ExcerptB))
	}
	m.ln("")
	m.diagnosis(r)
	if len(id.Strip) > 0 {
		m.p("Stripped before comparing (patterns %s): %d match(es)", backquoted(id.Strip, ", "), id.StrippedMatches())
		if len(id.Stripped) > 0 {
			m.p(", e.g. %s", cellCode(strconv.Quote(id.Stripped[0])))
		}
		m.ln(".")
		m.ln("")
	}
}

// diagnosis shows, for each divergent arm the campaign diagnosed, both
// sides' top candidates at the first differing piece, the baseline's
// margins and the class.
func (m *mdWriter) diagnosis(r *schema.Record) {
	id := r.Analysis.Identity
	var arms []schema.IdentityArm
	for _, a := range id.Arms {
		if a.Diagnosis != nil {
			arms = append(arms, a)
		}
	}
	if len(arms) == 0 {
		return
	}
	probe := map[string]schema.DiagnosisProbe{}
	for _, p := range r.Method.Diagnosis {
		probe[p.Arm] = p
	}
	d0 := arms[0].Diagnosis
	m.p("**Divergence diagnosis.** After the measured windows, each side was started again and sent the measured request once more, ")
	m.p("asking its engine for the top %d candidates (log-probabilities, nats) of every generated token; the table shows them at the first piece where the two replies differ. ", probe[arms[0].Arm].TopK)
	m.p("A divergence is a **near-tie** when the baseline preferred its own token over the arm's by less than %s nats ", count(d0.Threshold))
	m.p("(an arithmetic-order difference, such as another reduction kernel, can flip it), otherwise **decisive** (a real behaviour change).\n\n")
	m.ln("| Arm | at | " + cellCode(id.Against) + " top candidates | arm's top candidates | " + cellCode(id.Against) + " margin, top two | gap to arm's token | class |")
	m.ln("|---|---|---|---|---:|---:|---|")
	for _, a := range arms {
		d, p := a.Diagnosis, probe[a.Arm]
		at, baseC, armC := "—", "—", "—"
		if p.PieceIndex >= 0 {
			at = fmt.Sprintf("byte %d (entry %d)", p.ByteOffset, p.PieceIndex)
			baseC, armC = candidates(p.Baseline.Piece), candidates(p.Compared.Piece)
		}
		margin, gap, class := "—", "—", string(d.Class)
		if d.Class != schema.Undiagnosed {
			margin = num(d.Margin, 4)
			gap = "not among its candidates"
			if d.Rank > 0 {
				gap = fmt.Sprintf("%s (rank %d)", num(d.Gap, 4), d.Rank)
			}
		} else {
			class += ": " + string(d.Why)
		}
		m.p("| %s | %s | %s | %s | %s | %s | %s |\n", cellCode(a.Arm), at, baseC, armC, margin, gap, class)
	}
	m.ln("")
}

// candidates lists a piece's candidates: id, text and log-probability.
func candidates(p *schema.Piece) string {
	if p == nil {
		return "—"
	}
	if len(p.Candidates) == 0 {
		return fmt.Sprintf("none returned (sampled %d %s)", p.ID, cellCode(strconv.Quote(p.Text)))
	}
	var parts []string
	for _, c := range p.Candidates {
		parts = append(parts, fmt.Sprintf("%d %s %s", c.ID, cellCode(strconv.Quote(c.Text)), num(c.Logprob, 5)))
	}
	return strings.Join(parts, "; ")
}
