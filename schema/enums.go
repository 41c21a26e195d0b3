package schema

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The choices of a scenario, typed once by the scenario loader and stored
// in the record as written. Each is a string type whose empty value means
// "not given" (the default applies); its Check, which the loader calls on
// every value it decodes into one, refuses any other value, naming the
// allowed ones.

// oneOf checks that v is empty or one of names.
func oneOf[E ~string](v E, names string) error {
	if v != "" && !slices.Contains(strings.Split(names, ", "), string(v)) {
		return fmt.Errorf("%q is not one of %s", v, names)
	}
	return nil
}

// Order is how arms are interleaved within each round.
type Order string

// Orders.
const (
	OrderRotate Order = "rotate"
	OrderABBA   Order = "abba"
	OrderRandom Order = "random"
)

func (o Order) Check() error { return oneOf(o, "rotate, abba, random") }

// OnFailure is what follows a failed run: "abort" (the default),
// "continue", or "retry:N" (run the same slot again up to N times).
type OnFailure string

// Failure policies without a count.
const (
	FailAbort    OnFailure = "abort"
	FailContinue OnFailure = "continue"
)

var onFailureRE = regexp.MustCompile(`^(|abort|continue|retry:[1-9][0-9]*)$`)

func (f OnFailure) Check() error {
	if !onFailureRE.MatchString(string(f)) {
		return fmt.Errorf("%q is not one of abort, continue, retry:N", f)
	}
	return nil
}

// Retries is the N of retry:N; 0 for any other policy.
func (f OnFailure) Retries() int {
	n, _ := strconv.Atoi(strings.TrimPrefix(string(f), "retry:"))
	return n
}

// GateFailure is what a run that fails its counter expectation does to
// the rest of the campaign.
type GateFailure string

// Gate failure modes.
const (
	GateStop     GateFailure = "stop"     // stop the campaign: it is REJECTED whatever follows
	GateContinue GateFailure = "continue" // run on to the end of the schedule
)

func (g GateFailure) Check() error { return oneOf(g, "stop, continue") }

// OutlierMode says what happens to flagged outliers.
type OutlierMode string

// Outlier modes.
const (
	OutliersFlag OutlierMode = "flag" // mark them, keep them
	OutliersDrop OutlierMode = "drop" // remove them from the statistics
)

func (m OutlierMode) Check() error { return oneOf(m, "flag, drop") }

// Pairing is how two arms' samples are compared.
type Pairing string

// Pairings. PairOff is the default, chosen by simulation
// (stats/verdict_sim_cases_test.go TestPairingPower, through the planner
// and the analysis): at this machine's noise (CV 9%, one run in 20
// stalled) and a few percent of slow drift, the two-group comparison had
// as much power or more at no higher false-positive rate (10% effect,
// 10 rounds: 37% against 29%); pairing won only under strong drift (20%
// over a campaign: 28% against 21%), because one stalled run flips the
// sign of its round's largest log ratio, which the signed-rank test
// weighs most.
const (
	PairOff  Pairing = "off"  // two independent groups
	PairAuto Pairing = "auto" // paired by round when every round holds both arms
)

func (m Pairing) Check() error { return oneOf(m, "auto, off") }

// MismatchMode is what an identity mismatch does.
type MismatchMode string

// Mismatch modes.
const (
	MismatchFail   MismatchMode = "fail"   // REJECTED
	MismatchReport MismatchMode = "report" // timing results stay valid; the verdict says the contract broke
)

func (m MismatchMode) Check() error { return oneOf(m, "fail, report") }

// BusyAction is what the quiet gate does when max_wait passes.
type BusyAction string

// Busy actions.
const (
	BusyWait  BusyAction = "wait"  // run anyway; the wait is recorded
	BusyMark  BusyAction = "mark"  // run; the run counts as contended
	BusyAbort BusyAction = "abort" // stop the campaign; finished runs are kept
)

func (a BusyAction) Check() error { return oneOf(a, "wait, mark, abort") }

// CooldownMode is how the cooldown before a run was timed.
type CooldownMode string

// Cooldown modes.
const (
	CooldownFixed      CooldownMode = "fixed"
	CooldownUntilQuiet CooldownMode = "until_quiet"
)

// SourceKind is where a counter is read from.
type SourceKind string

// Counter sources.
const (
	SourceMetric SourceKind = "metric" // a Prometheus metric's delta over the measured window
	SourceJSON   SourceKind = "json"   // a dotted path into the engine's reply
	SourceLog    SourceKind = "log"    // a regular expression over the window's log lines
	// SourceProps is a dotted path into the server's GET /props reply,
	// read after the measured request (llama-server's build_info).
	SourceProps SourceKind = "props"
	// SourceVersion is the arm's engine version output (its version
	// command's, else its --version), taken when the campaign starts and
	// held to the run by the binary's hash, checked at every run start.
	SourceVersion SourceKind = "version"
)

// LogPhase is which of the engine's log lines a log counter reads.
type LogPhase string

// Log phases.
const (
	// PhaseWindow: the lines written during the measured window (the
	// default): a start-up line is never evidence of what a request ran.
	PhaseWindow LogPhase = "window"
	// PhaseStartup: the lines written from the engine's launch until it
	// answered ready, where a server states its settings (llama-server's
	// "n_threads = 1"), which no request or metric reports.
	PhaseStartup LogPhase = "startup"
)

func (ph LogPhase) Check() error { return oneOf(ph, "window, startup") }

// Text reports whether the source reads text (a build string) rather than
// a number; its expectations may compare text.
func (k SourceKind) Text() bool { return k == SourceProps || k == SourceVersion }
