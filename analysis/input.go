// Package analysis turns a campaign's raw runs into its verdict: the
// counter gate, outliers, per-arm summaries and comparisons, the
// publishability gates and the output identity check. It is a pure
// function of its input (Analyze): the campaign calls it while it runs and
// when it ends, and check, diff, export, identity and index call it on the
// runs stored beside a record, so a record's verdict can be re-derived by
// anyone who has its raw data.
//
// It returns typed values and typed reasons (schema.Reason);
// only the recorder turns them into sentences.
package analysis

import (
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Input is everything the analysis depends on.
type Input struct {
	Policy   scenarios.Policy
	Runs     []Run
	Campaign Campaign
	// decisionOnly leaves the MDEs out (zero): what a sequential look
	// that goes on judges (SequentialDone), where no MDE is read.
	decisionOnly bool
}

// Campaign holds the facts about the campaign as a whole that its runs do
// not carry.
type Campaign struct {
	// Planned is the number of planned runs (slots).
	Planned int
	// Started is when the campaign started; drift is measured against it.
	Started time.Time
	// Interrupted is set when a signal stopped the campaign.
	Interrupted bool
	// V2 is set when the runs are a v2 record's: its analysis is derived
	// as v2 derived it, without the warnings added since (an extra metric
	// with no value).
	V2 bool
	// Rule is the statistical rule to apply, resolved from the record's
	// Method.Rule (RuleOf).
	Rule Rule
	// Diagnosis holds the raw divergence diagnosis probes the campaign
	// made after its measured windows.
	Diagnosis []schema.DiagnosisProbe
	// Requests and Warmup are the measured requests and warmups each
	// engine start served (Method.Requests, Method.Warmup); Requests is 0
	// for records from before, which have no noise anatomy. Command is set
	// for a command engine.
	Requests, Warmup int
	Command          bool
	// PlannedRounds are, at each look taken, the most rounds a budgeted
	// schedule allowed then (Method.PlannedRounds); nil without a budget.
	PlannedRounds []int
	// History is the host's earlier records of the scenario the campaign
	// found when it ended (Method.History); nil when it found too few.
	History *schema.HostHistory
	// StrippedListed is how many strip matches the identity result
	// lists; 0 for schema.StrippedListed (see Rederive).
	StrippedListed int
}

// Run is one measured run (or failed attempt), as the analysis reads it.
type Run struct {
	Seq, Round, Attempt int
	Arm                 string
	Start               time.Time
	// Error is why the run failed; empty for a finished run. LostCount
	// is the counter whose line a command engine's output lacked, where
	// that failed the run (lostcounts.go).
	Error, LostCount string
	Metrics          map[string]float64
	// Counters holds the counter values read in the run.
	Counters map[string]Reading
	// Contention is the share of the machine's CPU used by other processes
	// during the measured window; HasContention is false when it could not
	// be measured.
	Contention    float64
	HasContention bool
	// EventCountedTokens is set when the engine returned no token totals
	// and tokens were counted as stream events.
	EventCountedTokens bool
	// EngineRate is the engine's own decode rate (tok/s); 0 when it
	// reported none.
	EngineRate float64
	Output     string
	Reasoning  string
	TokenIDs   []int
	// Declines are the engine's lines, in the measured window, that match
	// the scenario's decline pattern.
	Declines []string
	// HostWarnings are the machine conditions seen before or after the
	// run that make it less trustworthy (host.go).
	HostWarnings []HostCondition
	// PowerModes are macOS's energy modes read around the run (before,
	// after), where read.
	PowerModes []string
	// NoEnergy is why energy was not measured in the run; "" when it was,
	// or when the run predates energy measurement.
	NoEnergy string
	// QuietTimedOut is set when the quiet gate gave up before the run;
	// HostBusy when it also said to count the run as contended
	// (on_busy: mark).
	QuietTimedOut, HostBusy bool
	// OutputFlood is set when the engine flooded its standard output or
	// error during the measured window: a contention warning for the run.
	OutputFlood bool
	// Impossible is set when the engine reported values that could not be
	// true, recorded as absent.
	Impossible bool
	// Served are the requests the run's engine start served, warmups
	// included; ReadyS its launch-to-ready time, Seconds its whole time
	// and CooldownS the pause before it (the noise anatomy's inputs).
	Served                     []schema.ServedRequest
	ReadyS, Seconds, CooldownS float64
	// Streams are the run's concurrent streams (the first is the run's
	// own); StreamOutputs the texts of those after the first, which the
	// identity check compares like the run's output.
	Streams       []schema.Stream
	StreamOutputs []string
	// RequestOutputs are the texts of the start's measured requests after
	// the first (schedule.requests), compared like the run's output, with
	// their token ids where all are known (RequestTokenIDs, nil else).
	RequestOutputs  []string
	RequestTokenIDs [][]int
}

// Reading is one counter's value in one run.
type Reading struct {
	Value float64
	// Text is what a text source (props, version) read.
	Text string
	// Absent is set when the source did not appear at all (a metric not
	// exposed, a reply field missing) and the value was read as 0.
	Absent bool
	// Impossible is set when the source reported a value that cannot be
	// true (NaN, ±Inf), recorded as absent: it meets no expectation.
	Impossible bool
}

// OK reports whether the run finished.
func (r Run) OK() bool { return r.Error == "" }
