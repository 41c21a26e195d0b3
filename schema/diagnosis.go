package schema

// A divergence diagnosis: after the measured windows, each side of a
// divergent identity comparison is asked again, with the engine's top
// candidates per generated piece, and the candidates at the first piece
// where the two outputs differ are kept (Method.Diagnosis, raw), from which
// the analysis derives the baseline's margin and a classification
// (IdentityArm.Diagnosis).

// Candidate is one of the engine's top candidates for a generated token.
type Candidate struct {
	ID      int     `json:"id"`
	Text    string  `json:"text"`
	Bytes   int     `json:"bytes"`
	Logprob float64 `json:"logprob"`
}

// Piece is one entry of the engine's log-probability reply: the token it
// sampled and that token's top candidates. Engines that hold back tokens
// ending inside a multi-byte character (llama-server) merge them into the
// next entry: Bytes then spans several tokens, and the candidates are the
// last token's only (Merged).
type Piece struct {
	ID         int         `json:"id"`
	Bytes      int         `json:"bytes"`
	Text       string      `json:"text"`
	Merged     bool        `json:"merged,omitempty"`
	Candidates []Candidate `json:"candidates,omitempty"`
}

// ProbeSide is one arm's answer to the diagnosis request, at the first
// piece where the compared outputs differ.
type ProbeSide struct {
	Arm string `json:"arm"`
	// Run is the measured run whose output the probe must reproduce.
	Run int `json:"run"`
	// Reproduced is set when the probe generated exactly that run's text.
	Reproduced bool `json:"reproduced"`
	// Agrees is how many leading bytes of the probe's text equal that
	// run's (counted as the measured outputs are); absent (0) in records
	// written before it was kept. A probe that agrees through its piece at
	// the first difference describes the measured run there, even where a
	// later near-tie flipped its output (GPU kernels chosen by request
	// shape can do that).
	Agrees int `json:"agrees,omitempty"`
	// Piece is the engine's entry at the first difference; nil when the
	// probe failed or the outputs did not differ within its entries.
	Piece *Piece `json:"piece,omitempty"`
	// Error is why the probe gave no answer.
	Error string `json:"error,omitempty"`
}

// DiagnosisProbe is the raw diagnosis of one divergent arm against the
// baseline: where the probes first differ and both sides' candidates there.
type DiagnosisProbe struct {
	Arm  string `json:"arm"`
	TopK int    `json:"top_k"`
	// PieceIndex is the index of the first differing entry of the two
	// probes and ByteOffset where it starts in the reply's text (counted
	// as the measured outputs are); -1 when they do not differ.
	PieceIndex int       `json:"piece_index"`
	ByteOffset int       `json:"byte_offset"`
	Baseline   ProbeSide `json:"baseline"`
	Compared   ProbeSide `json:"compared"`
}

// DivergenceClass is what a diagnosis concludes about a divergence.
type DivergenceClass string

// Divergence classes.
const (
	// NearTie: the baseline ranked the arm's token within the threshold of
	// its own choice: an arithmetic-order difference (another reduction
	// kernel) suffices to flip it.
	NearTie DivergenceClass = "near-tie"
	// Decisive: the baseline preferred its token by more than the
	// threshold, or did not rank the arm's token among its candidates: a
	// real behaviour change.
	Decisive DivergenceClass = "decisive"
	// Undiagnosed: the probes could not say (Why).
	Undiagnosed DivergenceClass = "undiagnosed"
)

// Diagnosis is the analysis of a DiagnosisProbe.
type Diagnosis struct {
	Class DivergenceClass `json:"class"`
	// Threshold is the near-tie threshold applied, in nats.
	Threshold float64 `json:"threshold"`
	// Margin is the baseline's log-probability of its top candidate less
	// that of its second; Gap the same against the arm's token (equal to
	// Margin when the arm chose the baseline's runner-up). Both in nats;
	// Gap is -1 when the baseline did not rank the arm's token.
	Margin float64 `json:"margin"`
	Gap    float64 `json:"gap"`
	// Rank is the arm's token's place among the baseline's candidates (1
	// is the baseline's own choice); 0 when it is not among them.
	Rank int `json:"rank"`
	// ArmMargin is the arm's own top-two margin; -1 when the arm's engine
	// returned no candidates.
	ArmMargin float64 `json:"arm_margin"`
	// Why is the reason code of an undiagnosed divergence.
	Why DiagnosisProblem `json:"why,omitempty"`
}

// DiagnosisProblem says why a divergence could not be diagnosed, or why
// one side's candidates are missing.
type DiagnosisProblem string

// Diagnosis problems.
const (
	DiagnosisProbeFailed    DiagnosisProblem = "probe-failed"
	DiagnosisNotReproduced  DiagnosisProblem = "not-reproduced"
	DiagnosisNoDifference   DiagnosisProblem = "no-difference"
	DiagnosisNoCandidates   DiagnosisProblem = "no-candidates"
	DiagnosisMergedPiece    DiagnosisProblem = "merged-piece"
	DiagnosisArmNoCandidate DiagnosisProblem = "arm-no-candidates"
	// DiagnosisLaterDifference notes a probe that reproduced its measured
	// run through the first difference but not after it (Detail: the byte
	// where it left the run's output).
	DiagnosisLaterDifference DiagnosisProblem = "later-difference"
)
