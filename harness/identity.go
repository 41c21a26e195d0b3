package harness

import (
	"fmt"
	"regexp"

	"github.com/decodebench/decodebench/identity"
	"github.com/decodebench/decodebench/recorder"
)

// Identity verdicts.
const (
	identical    = "IDENTICAL"
	divergent    = "DIVERGENT"
	undecidable  = "INCONCLUSIVE"
	identityErr  = "ERROR"
	notCompared  = "NOT COMPARED"
	selfAgreeing = "SELF-CONSISTENT"
)

// checkIdentity compares generated outputs between arms when the scenario
// asks for it (exactness block), from the same runs that were timed.
//
// The baseline must first agree with itself: if two of its runs differ,
// nothing can be said about the other arms (INCONCLUSIVE). Empty outputs,
// or outputs whose text all went to a reasoning channel, are errors, never
// passes. Each compared arm's every run is then compared with the
// baseline's output for the same request.
func (c *campaign) checkIdentity() *recorder.IdentityResult {
	x := c.scenario.Exactness
	if x == nil {
		return nil
	}
	res := &recorder.IdentityResult{Against: x.Against, OnMismatch: x.OnMismatch, Strip: x.Strip}
	var patterns []*regexp.Regexp
	for _, p := range x.Strip {
		patterns = append(patterns, regexp.MustCompile(p)) // validated when loading
	}
	outputs := map[string][]identity.Output{}
	seqs := map[string][]int{}
	for _, r := range c.rec.Runs {
		if !r.OK() {
			continue
		}
		text, stripped := identity.Strip(r.Output, patterns)
		res.Stripped = append(res.Stripped, stripped...)
		o := identity.Output{Text: text, Reasoning: r.Reasoning, Tokens: r.TokenIDs}
		if len(stripped) > 0 {
			o.Tokens = nil // ids no longer line up with the stripped text
		}
		outputs[r.Arm] = append(outputs[r.Arm], o)
		seqs[r.Arm] = append(seqs[r.Arm], r.Seq)
	}

	base := outputs[x.Against]
	res.Baseline = recorder.IdentityArm{Arm: x.Against, Runs: len(base), TokenIndex: -1, ByteOffset: -1, TokenA: -1, TokenB: -1}
	if msg := firstEmpty(base, seqs[x.Against]); msg != "" {
		res.Baseline.Verdict, res.Baseline.Error = identityErr, msg
		res.Verdict = identityErr
		res.Notes = append(res.Notes, fmt.Sprintf("Refused: the baseline `%s` %s; an empty comparison proves nothing.", x.Against, msg))
	} else {
		ag := identity.SelfAgreement(base)
		switch {
		case ag.Agree:
			res.Baseline.Identical, res.Baseline.Verdict = true, selfAgreeing
			res.Baseline.TokensCompared = ag.First.TokensCompared
		case ag.Uncomparable != "" && ag.Disagreeing == 0:
			res.Baseline.Verdict, res.Baseline.Error = undecidable, ag.Uncomparable
			res.Verdict = undecidable
			res.Notes = append(res.Notes, fmt.Sprintf("The baseline `%s` cannot show that it agrees with itself: %s (it needs at least 2 finished runs).", x.Against, ag.Uncomparable))
		default:
			fillDivergence(&res.Baseline, ag.First, seqs[x.Against][ag.RunA], seqs[x.Against][ag.RunB])
			res.Baseline.Verdict = "NOT DETERMINISTIC"
			res.Verdict = undecidable
			res.Notes = append(res.Notes, fmt.Sprintf("The baseline `%s` is not deterministic: %d of its %d runs differ from its first (%s), so identity between arms is undecidable.", x.Against, ag.Disagreeing, ag.Runs, ag.First.String()))
		}
	}

	anyDivergent := false
	for _, arm := range x.Compare {
		outs := outputs[arm]
		ia := recorder.IdentityArm{Arm: arm, Runs: len(outs), TokenIndex: -1, ByteOffset: -1, TokenA: -1, TokenB: -1}
		switch {
		case res.Verdict != "":
			ia.Verdict = notCompared
		case firstEmpty(outs, seqs[arm]) != "":
			ia.Verdict, ia.Error = identityErr, firstEmpty(outs, seqs[arm])
			res.Verdict = identityErr
			res.Notes = append(res.Notes, fmt.Sprintf("Refused: arm `%s` %s.", arm, ia.Error))
		case len(outs) == 0:
			ia.Verdict, ia.Error = identityErr, "no finished runs"
			res.Verdict = identityErr
		default:
			ia.Identical, ia.Verdict = true, identical
			ia.TokensCompared = true
			diverging := 0
			for i, o := range outs {
				d := identity.Compare(base[0], o)
				ia.TokensCompared = ia.TokensCompared && d.TokensCompared
				if d.Identical {
					continue
				}
				diverging++
				if ia.Identical {
					fillDivergence(&ia, d, seqs[x.Against][0], seqs[arm][i])
				}
				ia.Identical = false
			}
			if !ia.Identical {
				ia.Verdict = fmt.Sprintf("%s in %d of %d runs", divergent, diverging, len(outs))
				anyDivergent = true
			}
		}
		res.Arms = append(res.Arms, ia)
	}
	if res.Verdict == "" {
		res.Verdict = identical
		if anyDivergent {
			res.Verdict = divergent
		}
	}
	return res
}

// firstEmpty returns why the first uncomparable output cannot be compared.
func firstEmpty(outs []identity.Output, seqs []int) string {
	for i, o := range outs {
		if why := identity.Empty(o); why != "" {
			return fmt.Sprintf("run %d: %s", seqs[i], why)
		}
	}
	return ""
}

func fillDivergence(ia *recorder.IdentityArm, d identity.Divergence, runA, runB int) {
	ia.RunA, ia.RunB = runA, runB
	ia.ByteOffset, ia.TokenIndex = d.ByteOffset, d.TokenIndex
	ia.TokenA, ia.TokenB = d.TokenA, d.TokenB
	ia.TokensCompared = d.TokensCompared
	ia.DifferingBytes, ia.DifferingTokens = d.DifferingBytes, d.DifferingTokens
	ia.ExcerptA, ia.ExcerptB = d.ExcerptA, d.ExcerptB
	if d.ByteOffset < 0 && d.ReasoningByteOffset >= 0 {
		ia.ExcerptA, ia.ExcerptB = "reasoning: "+d.ReasoningExcerptA, "reasoning: "+d.ReasoningExcerptB
	}
}

// identitySummary is the one-line verdict of the identity check.
func identitySummary(id *recorder.IdentityResult) string {
	switch id.Verdict {
	case identical:
		return fmt.Sprintf("identical to `%s` in every compared run", id.Against)
	case divergent:
		for _, a := range id.Arms {
			if !a.Identical {
				where := fmt.Sprintf("byte %d", a.ByteOffset)
				if a.TokensCompared && a.TokenIndex >= 0 {
					where = fmt.Sprintf("token %d / byte %d", a.TokenIndex, a.ByteOffset)
				}
				return fmt.Sprintf("arm `%s` diverges from `%s` (%s) at %s", a.Arm, id.Against, a.Verdict, where)
			}
		}
	}
	if len(id.Notes) > 0 {
		return id.Notes[0]
	}
	return id.Verdict
}
