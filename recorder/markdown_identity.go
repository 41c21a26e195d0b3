package recorder

import (
	"fmt"
	"strconv"

	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) identity(r *schema.Record) {
	id := r.Analysis.Identity
	m.h2("Output identity")
	m.p("**%s.** Each compared arm's generated output, per measured run, against the %s arm's output for the same request (on mismatch: %s). Tokens are compared where the engine returned every token id; bytes of text always.\n\n", id.Verdict, code(id.Against), code(string(id.OnMismatch)))
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
			verdict += ": " + cell(text(a.Error))
		}
		m.p("| %s | %s | %d | %v | %s | %s | %s | %s |\n", cellCode(a.Arm), verdict, a.Runs, a.TokensCompared, first, differing, cellCode(a.ExcerptA), cellCode(a.ExcerptB))
	}
	m.ln("")
	if len(id.Strip) > 0 {
		m.p("Stripped before comparing (patterns %s): %d match(es)", backquoted(id.Strip, ", "), len(id.Stripped))
		if len(id.Stripped) > 0 {
			m.p(", e.g. %s", cellCode(strconv.Quote(id.Stripped[0])))
		}
		m.ln(".")
		m.ln("")
	}
}
