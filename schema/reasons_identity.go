package schema

// The identity check's notes: why it could not decide.

// IdentityEmptyBaseline: the baseline's output cannot be compared (Why).
type IdentityEmptyBaseline struct {
	Arm string `json:"arm"`
	Why string `json:"why" v2:"text"`
}

// IdentityUncomparable: the baseline cannot show that it agrees with
// itself (Why).
type IdentityUncomparable struct {
	Arm string `json:"arm"`
	Why string `json:"why" v2:"text"`
}

// IdentityNonDeterministic: Disagreeing of the baseline's Runs runs differ
// from its first; the first difference is between runs RunA and RunB.
type IdentityNonDeterministic struct {
	Arm         string `json:"arm"`
	Disagreeing int    `json:"disagreeing" v2:"n"`
	Runs        int    `json:"runs" v2:"m"`
	RunA        int    `json:"run_a" v2:"run"`
	RunB        int    `json:"run_b" v2:"round"`
}

// IdentityEmptyArm: an arm's output cannot be compared (Why).
type IdentityEmptyArm struct {
	Arm string `json:"arm"`
	Why string `json:"why" v2:"text"`
}

// IdentityNoRuns: an arm has no finished runs to compare.
type IdentityNoRuns struct {
	Arm string `json:"arm"`
}

func (IdentityEmptyBaseline) Code() Code    { return "identity-empty-baseline" }
func (IdentityUncomparable) Code() Code     { return "identity-uncomparable" }
func (IdentityNonDeterministic) Code() Code { return "identity-nondeterministic" }
func (IdentityEmptyArm) Code() Code         { return "identity-empty-arm" }
func (IdentityNoRuns) Code() Code           { return "identity-no-runs" }
