package analysis

import (
	"slices"
	"strconv"

	"github.com/decodebench/decodebench/outputs"
	"github.com/decodebench/decodebench/schema"
)

// checkIdentity compares generated outputs between arms when the policy
// asks for it, from the same runs that were timed.
//
// The baseline must first agree with itself: if two of its runs differ,
// nothing can be said about the other arms (INCONCLUSIVE). Empty outputs,
// or outputs whose text all went to a reasoning channel, are errors, never
// passes. Each compared arm's every run is then compared with the
// baseline's output for the same request.
func checkIdentity(in Input) *schema.IdentityResult {
	x := in.Policy.Exactness
	if x == nil {
		return nil
	}
	res := &schema.IdentityResult{Against: x.Against, OnMismatch: x.OnMismatch}
	for _, re := range x.Strip {
		res.Strip = append(res.Strip, re.String())
	}
	listed := schema.StrippedListed
	if in.Campaign.StrippedListed > 0 {
		listed = in.Campaign.StrippedListed
	}
	matches := 0
	stripper := outputs.NewStripper(x.Strip) // compiled once, not per run
	strip := func(text string) (string, int) {
		text, n, first := stripper.Strip(text, listed-len(res.Stripped))
		res.Stripped = append(res.Stripped, first...)
		matches += n
		return text, n
	}
	byArm := map[string][]outputs.Output{}
	seqs := map[string][]int{}
	for _, r := range in.Runs {
		if !r.OK() {
			continue
		}
		text, stripped := strip(r.Output)
		o := outputs.Output{Text: text, Reasoning: r.Reasoning, Tokens: r.TokenIDs}
		if stripped > 0 {
			o.Tokens = nil // ids no longer line up with the stripped text
		}
		byArm[r.Arm] = append(byArm[r.Arm], o)
		seqs[r.Arm] = append(seqs[r.Arm], r.Seq)
		// Every concurrent stream's output, and every measured request's
		// after the start's first, is compared too: in the baseline each
		// must agree with the others, elsewhere each with the baseline's.
		for i, so := range slices.Concat(r.StreamOutputs, r.RequestOutputs) {
			text, stripped := strip(so)
			o := outputs.Output{Text: text}
			if j := i - len(r.StreamOutputs); j >= 0 && j < len(r.RequestTokenIDs) && stripped == 0 {
				o.Tokens = r.RequestTokenIDs[j]
			}
			byArm[r.Arm] = append(byArm[r.Arm], o)
			seqs[r.Arm] = append(seqs[r.Arm], r.Seq)
		}
	}
	if matches > len(res.Stripped) {
		res.StrippedCount = matches
	}

	base := byArm[x.Against]
	res.Baseline = identityArm(x.Against, len(base))
	if msg := firstEmpty(base, seqs[x.Against]); msg != "" {
		res.Baseline.Verdict, res.Baseline.Error = schema.IdentityError, msg
		res.Verdict = schema.IdentityError
		res.Notes = append(res.Notes, schema.IdentityEmptyBaseline{Arm: x.Against, Why: msg})
	} else {
		ag := outputs.SelfAgreement(base)
		switch {
		case ag.Agree:
			res.Baseline.Verdict = schema.SelfConsistent
			res.Baseline.TokensCompared = ag.First.TokensCompared
		case ag.Uncomparable != "" && ag.Disagreeing == 0:
			res.Baseline.Verdict, res.Baseline.Error = schema.Undecidable, ag.Uncomparable
			res.Verdict = schema.Undecidable
			res.Notes = append(res.Notes, schema.IdentityUncomparable{Arm: x.Against, Why: ag.Uncomparable})
		default:
			ia := &res.Baseline
			ia.Verdict, ia.Diverging = schema.NotDeterministic, ag.Disagreeing
			diverged(ia, seqs[x.Against][ag.RunA], seqs[x.Against][ag.RunB], ag.First)
			res.Verdict = schema.Undecidable
			res.Notes = append(res.Notes, schema.IdentityNonDeterministic{Arm: x.Against, Disagreeing: ag.Disagreeing, Runs: ag.Runs, RunA: ia.RunA, RunB: ia.RunB})
		}
	}

	anyDivergent := false
	for _, arm := range x.Compare {
		outs := byArm[arm]
		ia := identityArm(arm, len(outs))
		switch {
		case res.Verdict != "":
			ia.Verdict = schema.NotCompared
		case firstEmpty(outs, seqs[arm]) != "":
			ia.Verdict, ia.Error = schema.IdentityError, firstEmpty(outs, seqs[arm])
			res.Verdict = schema.IdentityError
			res.Notes = append(res.Notes, schema.IdentityEmptyArm{Arm: arm, Why: ia.Error})
		case len(outs) == 0:
			ia.Verdict, ia.Error = schema.IdentityError, "no finished runs"
			res.Verdict = schema.IdentityError
			res.Notes = append(res.Notes, schema.IdentityNoRuns{Arm: arm})
		default:
			ia.Verdict, ia.TokensCompared = schema.Identical, true
			var runA, runB int
			var first outputs.Divergence
			for i, o := range outs {
				d := outputs.Compare(base[0], o)
				ia.TokensCompared = ia.TokensCompared && d.TokensCompared
				if d.Identical {
					continue
				}
				if ia.Diverging == 0 {
					runA, runB, first = seqs[x.Against][0], seqs[arm][i], d
				}
				ia.Diverging++
			}
			if ia.Diverging > 0 {
				ia.Verdict = schema.Divergent
				diverged(&ia, runA, runB, first)
				anyDivergent = true
				ia.Diagnosis, _ = diagnoseArm(in, arm)
			}
		}
		res.Arms = append(res.Arms, ia)
	}
	if res.Verdict == "" {
		res.Verdict = schema.Identical
		if anyDivergent {
			res.Verdict = schema.Divergent
		}
	}
	return res
}

// identityArm is an arm's identity result before it is compared: no
// divergence.
func identityArm(arm string, runs int) schema.IdentityArm {
	return schema.IdentityArm{Arm: arm, Runs: runs, TokenIndex: -1, ByteOffset: -1, TokenA: -1, TokenB: -1}
}

// diverged records an arm's first divergence, between runs a and b.
func diverged(ia *schema.IdentityArm, a, b int, d outputs.Divergence) {
	ia.RunA, ia.RunB = a, b
	ia.TokenIndex, ia.ByteOffset, ia.TokenA, ia.TokenB = d.TokenIndex, d.ByteOffset, d.TokenA, d.TokenB
	ia.TokensCompared = d.TokensCompared
	ia.DifferingBytes, ia.DifferingTokens = d.DifferingBytes, d.DifferingTokens
	ia.ExcerptA, ia.ExcerptB = d.ExcerptA, d.ExcerptB
	if d.ByteOffset < 0 && d.ReasoningByteOffset >= 0 {
		ia.ExcerptA, ia.ExcerptB = "reasoning: "+d.ReasoningExcerptA, "reasoning: "+d.ReasoningExcerptB
	}
}

// firstEmpty returns why the first uncomparable output cannot be compared.
func firstEmpty(outs []outputs.Output, seqs []int) string {
	for i, o := range outs {
		if why := outputs.Empty(o); why != "" {
			return "run " + strconv.Itoa(seqs[i]) + ": " + why
		}
	}
	return ""
}

// divergence is where the first divergent arm diverged.
func divergence(id *schema.IdentityResult) schema.Divergence {
	for _, a := range id.Arms {
		if a.Verdict == schema.Divergent {
			return schema.Divergence{Arm: a.Arm, Against: id.Against, TokenIndex: a.TokenIndex, ByteOffset: a.ByteOffset, Diverging: a.Diverging, Runs: a.Runs}
		}
	}
	return schema.Divergence{Against: id.Against}
}
