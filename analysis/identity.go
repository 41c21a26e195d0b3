package analysis

import (
	"strconv"

	"github.com/decodebench/decodebench/identity"
	"github.com/decodebench/decodebench/schema"
)

// Identity is the output identity check.
type Identity struct {
	Verdict  schema.IdentityVerdict
	Against  string
	Baseline IdentityArm
	Arms     []IdentityArm
	// Stripped lists what the strip patterns removed.
	Stripped []string
	Notes    []Reason
}

// IdentityArm is one arm's identity verdict against the baseline (or, for
// the baseline, against itself).
type IdentityArm struct {
	Arm     string
	Verdict schema.IdentityVerdict
	// Diverging counts the runs that differ from the reference; Runs the
	// runs compared.
	Diverging, Runs int
	// RunA and RunB are the run numbers of the first divergence.
	RunA, RunB int
	First      identity.Divergence
	// TokensCompared is set when every comparison had token ids.
	TokensCompared bool
	// Error says why the arm could not be compared.
	Error string
}

// Identical reports whether the arm matched its reference.
func (a IdentityArm) Identical() bool {
	return a.Verdict == schema.Identical || a.Verdict == schema.SelfConsistent
}

// checkIdentity compares generated outputs between arms when the policy
// asks for it, from the same runs that were timed.
//
// The baseline must first agree with itself: if two of its runs differ,
// nothing can be said about the other arms (INCONCLUSIVE). Empty outputs,
// or outputs whose text all went to a reasoning channel, are errors, never
// passes. Each compared arm's every run is then compared with the
// baseline's output for the same request.
func checkIdentity(in Input) *Identity {
	x := in.Policy.Exactness
	if x == nil {
		return nil
	}
	res := &Identity{Against: x.Against}
	outputs := map[string][]identity.Output{}
	seqs := map[string][]int{}
	for _, r := range in.Runs {
		if !r.OK() {
			continue
		}
		text, stripped := identity.Strip(r.Output, x.Strip)
		res.Stripped = append(res.Stripped, stripped...)
		o := identity.Output{Text: text, Reasoning: r.Reasoning, Tokens: r.TokenIDs}
		if len(stripped) > 0 {
			o.Tokens = nil // ids no longer line up with the stripped text
		}
		outputs[r.Arm] = append(outputs[r.Arm], o)
		seqs[r.Arm] = append(seqs[r.Arm], r.Seq)
	}

	base := outputs[x.Against]
	res.Baseline = IdentityArm{Arm: x.Against, Runs: len(base)}
	if msg := firstEmpty(base, seqs[x.Against]); msg != "" {
		res.Baseline.Verdict, res.Baseline.Error = schema.IdentityError, msg
		res.Verdict = schema.IdentityError
		res.Notes = append(res.Notes, Reason{Code: IdentityEmptyBaseline, Arm: x.Against, Text: msg})
	} else {
		ag := identity.SelfAgreement(base)
		switch {
		case ag.Agree:
			res.Baseline.Verdict = schema.SelfConsistent
			res.Baseline.TokensCompared = ag.First.TokensCompared
		case ag.Uncomparable != "" && ag.Disagreeing == 0:
			res.Baseline.Verdict, res.Baseline.Error = schema.Undecidable, ag.Uncomparable
			res.Verdict = schema.Undecidable
			res.Notes = append(res.Notes, Reason{Code: IdentityUncomparable, Arm: x.Against, Text: ag.Uncomparable})
		default:
			ia := &res.Baseline
			ia.Verdict, ia.Diverging = schema.NotDeterministic, ag.Disagreeing
			ia.RunA, ia.RunB, ia.First = seqs[x.Against][ag.RunA], seqs[x.Against][ag.RunB], ag.First
			ia.TokensCompared = ag.First.TokensCompared
			res.Verdict = schema.Undecidable
			res.Notes = append(res.Notes, Reason{Code: IdentityNotDeterminist, Arm: x.Against, N: ag.Disagreeing, M: ag.Runs, Run: ia.RunA, Round: ia.RunB})
		}
	}

	anyDivergent := false
	for _, arm := range x.Compare {
		outs := outputs[arm]
		ia := IdentityArm{Arm: arm, Runs: len(outs)}
		switch {
		case res.Verdict != "":
			ia.Verdict = schema.NotCompared
		case firstEmpty(outs, seqs[arm]) != "":
			ia.Verdict, ia.Error = schema.IdentityError, firstEmpty(outs, seqs[arm])
			res.Verdict = schema.IdentityError
			res.Notes = append(res.Notes, Reason{Code: IdentityEmptyArm, Arm: arm, Text: ia.Error})
		case len(outs) == 0:
			ia.Verdict, ia.Error = schema.IdentityError, "no finished runs"
			res.Verdict = schema.IdentityError
			res.Notes = append(res.Notes, Reason{Code: IdentityNoRuns, Arm: arm})
		default:
			ia.Verdict, ia.TokensCompared = schema.Identical, true
			for i, o := range outs {
				d := identity.Compare(base[0], o)
				ia.TokensCompared = ia.TokensCompared && d.TokensCompared
				if d.Identical {
					continue
				}
				if ia.Diverging == 0 {
					ia.RunA, ia.RunB, ia.First = seqs[x.Against][0], seqs[arm][i], d
				}
				ia.Diverging++
			}
			if ia.Diverging > 0 {
				ia.Verdict = schema.Divergent
				anyDivergent = true
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

// firstEmpty returns why the first uncomparable output cannot be compared.
func firstEmpty(outs []identity.Output, seqs []int) string {
	for i, o := range outs {
		if why := identity.Empty(o); why != "" {
			return "run " + strconv.Itoa(seqs[i]) + ": " + why
		}
	}
	return ""
}

// identityReason is the reason naming the first divergent arm.
func identityReason(code Code, id *Identity) Reason {
	for _, a := range id.Arms {
		if a.Verdict == schema.Divergent {
			return Reason{Code: code, Arm: a.Arm, Other: id.Against, Run: a.First.TokenIndex, N: a.First.ByteOffset, M: a.Diverging, Round: a.Runs}
		}
	}
	return Reason{Code: code, Other: id.Against}
}
