package analysis

import (
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// The baseline's top five at the chaotic model's first divergence, as the
// real llama-server returned them (n_probs: 5, token 365 of "Once upon a
// time", --spec-type none).
var chaoticTop = []schema.Candidate{
	{ID: 505, Text: " dY", Bytes: 3, Logprob: -4.01028}, {ID: 357, Text: "int", Bytes: 3, Logprob: -4.011795},
	{ID: 669, Text: "ol", Bytes: 2, Logprob: -4.186146}, {ID: 132, Text: "\ufffd", Bytes: 1, Logprob: -4.24309},
	{ID: 421, Text: "ro", Bytes: 2, Logprob: -4.298769},
}

// divergentInput is a campaign whose draft arm diverges from classic, with
// the given diagnosis probe.
func divergentInput(probes ...schema.DiagnosisProbe) Input {
	p := policy("classic", "draft")
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"draft"}, Against: "classic", OnMismatch: schema.MismatchReport,
		Diagnose: true, NearTie: scenarios.DefaultNearTie, TopK: 5}
	in := campaign(p, 2, level(map[string]float64{"classic": 100, "draft": 100}), func(a string) Reading {
		if a == "draft" {
			return Reading{Value: 5}
		}
		return Reading{}
	})
	for i := range in.Runs {
		in.Runs[i].Output, in.Runs[i].TokenIDs = "abc dY", []int{1, 2, 505}
		if in.Runs[i].Arm == "draft" {
			in.Runs[i].Output, in.Runs[i].TokenIDs = "abcint", []int{1, 2, 357}
		}
	}
	in.Campaign.Diagnosis = probes
	return in
}

func probe(base, arm schema.Piece) schema.DiagnosisProbe {
	return schema.DiagnosisProbe{Arm: "draft", TopK: 5, PieceIndex: 2, ByteOffset: 3,
		Baseline: schema.ProbeSide{Arm: "classic", Run: 1, Reproduced: true, Piece: &base},
		Compared: schema.ProbeSide{Arm: "draft", Run: 2, Reproduced: true, Piece: &arm}}
}

func TestDiagnosisClassifies(t *testing.T) {
	base := schema.Piece{ID: 505, Bytes: 3, Text: " dY", Candidates: chaoticTop}
	armOwn := schema.Piece{ID: 357, Bytes: 3, Text: "int", Candidates: []schema.Candidate{{ID: 357, Text: "int", Bytes: 3, Logprob: -3.9}, {ID: 505, Text: " dY", Bytes: 3, Logprob: -4.2}}}
	// The H200's real entries at the chaotic model's divergence: both
	// merge the same held-back byte before the divergent token.
	h200 := schema.Piece{ID: 357, Bytes: 3, Text: "\ufffd d", Merged: true, Candidates: []schema.Candidate{
		{ID: 357, Text: " d", Bytes: 2, Logprob: -4.011007308959961}, {ID: 505, Text: "int", Bytes: 3, Logprob: -4.011085510253906},
		{ID: 669, Text: "dy", Bytes: 2, Logprob: -4.1856560707092285}, {ID: 132, Text: "\ufffd", Bytes: 1, Logprob: -4.243619441986084},
		{ID: 421, Text: "ed", Bytes: 2, Logprob: -4.298478126525879}}}
	h200Arm := schema.Piece{ID: 505, Bytes: 4, Text: "\ufffdint"}
	otherPrefix := schema.Piece{ID: 505, Bytes: 4, Text: "xint"}
	wrongEnd := base
	wrongEnd.Text, wrongEnd.Bytes = "\ufffd", 6
	notRepro := probe(base, schema.Piece{ID: 357, Bytes: 3})
	notRepro.Compared.Reproduced = false
	// The H200's CUDA build: the baseline's probe (n_probs asked) chose
	// its measured token at the divergence and flipped at a later near-tie.
	laterFlip := probe(base, schema.Piece{ID: 357, Bytes: 3, Text: "int"})
	laterFlip.Baseline.Reproduced, laterFlip.Baseline.Agrees = false, 40
	earlyFlip := laterFlip
	earlyFlip.Baseline.Agrees = 5 // leaves the run's output inside its piece (bytes 3–5)
	failed := probe(base, schema.Piece{})
	failed.Compared, failed.PieceIndex = schema.ProbeSide{Arm: "draft", Run: 2, Error: "the engine returned no log-probabilities"}, -1
	for _, tc := range []struct {
		name      string
		probe     schema.DiagnosisProbe
		class     schema.DivergenceClass
		rank      int
		why       schema.DiagnosisProblem
		armMargin bool
		notes     int
	}{
		// llama-server's speculative arm returns no candidates: the
		// baseline's ranking alone classifies, and the record says so.
		{name: "near-tie, speculative arm", probe: probe(base, schema.Piece{ID: 357, Bytes: 3, Text: "int"}), class: schema.NearTie, rank: 2, notes: 1},
		{name: "near-tie, arm's own margin", probe: probe(base, armOwn), class: schema.NearTie, rank: 2, armMargin: true},
		{name: "decisive: third choice", probe: probe(base, schema.Piece{ID: 669, Bytes: 2, Text: "ol"}), class: schema.Decisive, rank: 3, notes: 1},
		{name: "decisive: not ranked", probe: probe(base, schema.Piece{ID: 7, Bytes: 1, Text: "q"}), class: schema.Decisive, notes: 1},
		{name: "both merged the same byte (H200)", probe: probe(h200, h200Arm), class: schema.NearTie, rank: 2, notes: 1},
		{name: "merged different bytes", probe: probe(h200, otherPrefix), class: schema.Undiagnosed, why: schema.DiagnosisMergedPiece, notes: 1},
		{name: "arm entry merged", probe: probe(base, schema.Piece{ID: 357, Bytes: 5, Text: "xxint"}), class: schema.Undiagnosed, why: schema.DiagnosisMergedPiece, notes: 1},
		{name: "baseline entry ends in another token", probe: probe(wrongEnd, armOwn), class: schema.Undiagnosed, why: schema.DiagnosisMergedPiece, notes: 1},
		{name: "baseline without candidates", probe: probe(schema.Piece{ID: 505, Bytes: 3, Text: " dY"}, armOwn), class: schema.Undiagnosed, why: schema.DiagnosisNoCandidates, notes: 1},
		{name: "reproduced through the divergence, flipped later", probe: laterFlip, class: schema.NearTie, rank: 2, notes: 2},
		{name: "flipped inside the divergent piece", probe: earlyFlip, class: schema.Undiagnosed, why: schema.DiagnosisNotReproduced, notes: 1},
		{name: "not reproduced", probe: notRepro, class: schema.Undiagnosed, why: schema.DiagnosisNotReproduced, notes: 1},
		{name: "engine without log-probabilities", probe: failed, class: schema.Undiagnosed, why: schema.DiagnosisProbeFailed, notes: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Analyze(divergentInput(tc.probe))
			id := a.Identity
			if id == nil || id.Verdict != schema.Divergent || len(id.Arms) != 1 || id.Arms[0].Diagnosis == nil {
				t.Fatalf("identity %+v", id)
			}
			d := id.Arms[0].Diagnosis
			if d.Class != tc.class || d.Rank != tc.rank || d.Why != tc.why || (d.ArmMargin >= 0) != tc.armMargin {
				t.Errorf("diagnosis %+v, want class %s rank %d why %q arm margin %v", *d, tc.class, tc.rank, tc.why, tc.armMargin)
			}
			if d.Class != schema.Undiagnosed {
				top := tc.probe.Baseline.Piece.Candidates
				if want := top[0].Logprob - top[1].Logprob; d.Margin != want {
					t.Errorf("margin %g, want %g", d.Margin, want)
				}
				if tc.rank > 0 && d.Gap != top[0].Logprob-top[tc.rank-1].Logprob {
					t.Errorf("gap %g", d.Gap)
				}
			}
			notes := 0
			for _, r := range a.Unmeasured {
				if nd, ok := r.(schema.NoDiagnosis); ok {
					notes++
					if nd.Arm != "draft" {
						t.Errorf("note %+v", nd)
					}
				}
			}
			if notes != tc.notes {
				t.Errorf("%d diagnosis notes under Not measured, want %d: %+v", notes, tc.notes, a.Unmeasured)
			}
		})
	}
}

// A threshold of the scenario's own decides: the same margins are decisive
// under a tighter one.
func TestDiagnosisThreshold(t *testing.T) {
	in := divergentInput(probe(schema.Piece{ID: 505, Bytes: 3, Text: " dY", Candidates: chaoticTop}, schema.Piece{ID: 357, Bytes: 3, Text: "int"}))
	in.Policy.Exactness.NearTie = 0.001
	if d := Analyze(in).Identity.Arms[0].Diagnosis; d.Class != schema.Decisive || d.Threshold != 0.001 {
		t.Errorf("diagnosis %+v, want decisive under 0.001 nats", *d)
	}
}

// A campaign that made no probe (every record from before diagnoses, and
// any with identical outputs) has no diagnosis and no note about one.
func TestNoProbeNoDiagnosis(t *testing.T) {
	a := Analyze(divergentInput())
	if d := a.Identity.Arms[0].Diagnosis; d != nil {
		t.Errorf("diagnosis without a probe: %+v", *d)
	}
	for _, r := range a.Unmeasured {
		if _, ok := r.(schema.NoDiagnosis); ok {
			t.Errorf("note without a probe: %+v", r)
		}
	}
}
