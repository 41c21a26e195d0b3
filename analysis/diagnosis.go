package analysis

import (
	"slices"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// diagnoseArm derives an arm's divergence diagnosis from its raw probe (the
// campaign's, see schema.DiagnosisProbe): the baseline's top-two margin at
// the first differing piece, how far below its own choice the baseline
// ranked the arm's token, and the class that follows from the threshold.
// It returns nil when the campaign made no probe for the arm, and the
// reasons for what the probe could not say.
func diagnoseArm(in Input, arm string) (*schema.Diagnosis, []schema.Reason) {
	x := in.Policy.Exactness
	var p *schema.DiagnosisProbe
	for i := range in.Campaign.Diagnosis {
		if in.Campaign.Diagnosis[i].Arm == arm {
			p = &in.Campaign.Diagnosis[i]
		}
	}
	if p == nil || x == nil {
		return nil, nil
	}
	d := &schema.Diagnosis{Class: schema.Undiagnosed, Threshold: x.NearTie, Gap: -1, ArmMargin: -1}
	undiagnosed := func(why schema.DiagnosisProblem, side schema.ProbeSide, detail string) (*schema.Diagnosis, []schema.Reason) {
		d.Why = why
		return d, []schema.Reason{schema.NoDiagnosis{Arm: arm, Side: side.Arm, Why: string(why), Detail: detail}}
	}
	base, cmp := p.Baseline, p.Compared
	for _, side := range []schema.ProbeSide{base, cmp} {
		if side.Error != "" {
			return undiagnosed(schema.DiagnosisProbeFailed, side, side.Error)
		}
	}
	var notes []schema.Reason
	for _, side := range []schema.ProbeSide{base, cmp} {
		switch {
		case side.Reproduced:
		case reproducedThrough(side, p.ByteOffset):
			notes = append(notes, schema.NoDiagnosis{Arm: arm, Side: side.Arm, Why: string(schema.DiagnosisLaterDifference), Detail: strconv.Itoa(side.Agrees)})
		default:
			return undiagnosed(schema.DiagnosisNotReproduced, side, "")
		}
	}
	if p.PieceIndex < 0 || base.Piece == nil || cmp.Piece == nil {
		return undiagnosed(schema.DiagnosisNoDifference, schema.ProbeSide{}, "")
	}
	c := slices.Clone(base.Piece.Candidates)
	slices.SortStableFunc(c, func(a, b schema.Candidate) int { return cmpFloat(b.Logprob, a.Logprob) })
	own := candidateOf(c, base.Piece.ID)
	if len(c) < 2 || own < 0 {
		return undiagnosed(schema.DiagnosisNoCandidates, base, "")
	}
	// llama-server merges tokens held back inside a multi-byte character
	// into the next entry, whose candidates are its last token's. The
	// entries' last tokens are the divergent ones only if what they merged
	// before them is the same on both sides.
	basePrefix, ok := prefixOf(*base.Piece, c[own])
	if !ok {
		return undiagnosed(schema.DiagnosisMergedPiece, base, "")
	}
	armOwn, known := schema.Candidate{}, false
	if i := candidateOf(cmp.Piece.Candidates, cmp.Piece.ID); i >= 0 {
		armOwn, known = cmp.Piece.Candidates[i], true
	} else if i := candidateOf(c, cmp.Piece.ID); i >= 0 {
		armOwn, known = c[i], true
	}
	if known {
		if armPrefix, ok := prefixOf(*cmp.Piece, armOwn); !ok || armPrefix != basePrefix {
			return undiagnosed(schema.DiagnosisMergedPiece, cmp, "")
		}
	} else if !strings.HasPrefix(cmp.Piece.Text, basePrefix) {
		return undiagnosed(schema.DiagnosisMergedPiece, cmp, "")
	}
	d.Margin = c[0].Logprob - c[1].Logprob
	if i := candidateOf(c, cmp.Piece.ID); i >= 0 {
		d.Rank, d.Gap = i+1, c[own].Logprob-c[i].Logprob
	}
	d.Class = schema.Decisive
	if d.Rank > 0 && d.Gap < x.NearTie {
		d.Class = schema.NearTie
	}
	if a := cmp.Piece.Candidates; len(a) >= 2 {
		d.ArmMargin = a[0].Logprob - a[1].Logprob
	} else {
		notes = append(notes, schema.NoDiagnosis{Arm: arm, Side: cmp.Arm, Why: string(schema.DiagnosisArmNoCandidate)})
	}
	return d, notes
}

// reproducedThrough reports whether a probe that did not generate its
// measured run's whole output agreed with it through its own piece at the
// first difference (starting at byte offset): its candidates there are the
// measured run's.
func reproducedThrough(side schema.ProbeSide, offset int) bool {
	return offset >= 0 && side.Piece != nil && side.Agrees >= offset+len(side.Piece.Text)
}

// candidateOf is the index of token id among cs; -1 when absent.
func candidateOf(cs []schema.Candidate, id int) int {
	for i, c := range cs {
		if c.ID == id && id >= 0 {
			return i
		}
	}
	return -1
}

// prefixOf is the text an entry merged before its own (last) token own;
// false when the entry does not end with that token.
func prefixOf(p schema.Piece, own schema.Candidate) (string, bool) {
	if p.Bytes < own.Bytes || !strings.HasSuffix(p.Text, own.Text) {
		return "", false
	}
	return strings.TrimSuffix(p.Text, own.Text), true
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
