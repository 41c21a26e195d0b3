package schema

// Verdict is the campaign's one-word outcome.
type Verdict string

// Verdicts, with their exit codes.
const (
	Valid        Verdict = "VALID"        // 0: arms proven distinct, numbers publishable
	Failed       Verdict = "FAILED"       // 1: an engine or harness failure stopped the campaign
	Inconclusive Verdict = "INCONCLUSIVE" // 2: too noisy, contended, or identity undecidable
	Unverified   Verdict = "UNVERIFIED"   // 2: the scenario allowed running without a distinguishing counter
	Rejected     Verdict = "REJECTED"     // 3: the counter gate failed
	Incomplete   Verdict = "INCOMPLETE"   // 130/143: interrupted
)

// ExitCode is the exit status of `decodebench run` for the verdict.
func (v Verdict) ExitCode() int {
	switch v {
	case Valid:
		return 0
	case Inconclusive, Unverified:
		return 2
	case Rejected:
		return 3
	case Incomplete:
		return 130
	}
	return 1
}

// ExitCode is the exit status of the `decodebench run` that wrote the
// record: its verdict's, and for one interrupted by a signal 128 plus
// the signal's number (SignalExit).
func (r *Record) ExitCode() int {
	if code, ok := SignalExit[r.Method.InterruptedBy]; ok && r.Verdict == Incomplete {
		return code
	}
	return r.Verdict.ExitCode()
}

// SignalExit is the exit status of a campaign stopped by each signal
// Method.InterruptedBy may name: 128 plus its number.
var SignalExit = map[string]int{"SIGHUP": 129, "SIGINT": 130, "SIGTERM": 143}

// ShowsResults reports whether a record with this verdict shows results. A
// rejected campaign does not: its arms were not proven to be what they
// claim, so its numbers must not be quoted.
func (v Verdict) ShowsResults() bool {
	return v == Valid || v == Inconclusive || v == Unverified || v == Incomplete
}

// IdentityVerdict is the outcome of the output identity check, overall or
// per arm.
type IdentityVerdict string

// Identity verdicts.
const (
	Identical        IdentityVerdict = "IDENTICAL"
	Divergent        IdentityVerdict = "DIVERGENT"
	Undecidable      IdentityVerdict = "INCONCLUSIVE"
	IdentityError    IdentityVerdict = "ERROR"
	NotCompared      IdentityVerdict = "NOT COMPARED"
	SelfConsistent   IdentityVerdict = "SELF-CONSISTENT"
	NotDeterministic IdentityVerdict = "NOT DETERMINISTIC"
)
