package scenarios

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Stats sets the confidence level and significance threshold of the
// comparisons in the record.
type Stats struct {
	Confidence Fraction `yaml:"confidence" json:"confidence"`
	Alpha      Fraction `yaml:"alpha" json:"alpha"`
	// MinEffect is the smallest change that counts, even when significant
	// (as asv does): default 1%.
	MinEffect Fraction `yaml:"min_effect" json:"min_effect"`
	// Pairing is "off" (default: compare the arms as two groups) or
	// "auto" (compare arms round by round when every round holds both).
	Pairing string `yaml:"pairing" json:"pairing,omitempty"`
}

// Gates are the publishability rules. A campaign that breaks one is
// INCONCLUSIVE: its results are shown, marked "do not publish".
type Gates struct {
	// MaxSpread bounds each arm's (Q3−Q1)/median of the primary metric.
	MaxSpread Fraction `yaml:"max_spread" json:"max_spread"`
	// MaxContended bounds the share of runs during whose measured window
	// other processes used the CPU (see ContendedCPU).
	MaxContended Fraction `yaml:"max_contended" json:"max_contended"`
	// ContendedCPU is the share of the machine's CPU time, used by
	// processes other than the engine and decodebench during the measured
	// window, above which a run counts as contended.
	ContendedCPU Fraction `yaml:"contended_cpu" json:"contended_cpu"`
	// MaxDrift bounds an arm's relative change of the primary metric from
	// the first to the last third of the campaign before it is flagged.
	MaxDrift Fraction `yaml:"max_drift" json:"max_drift"`
	// Quiet, when present, holds every run until the host is quiet.
	Quiet *Quiet `yaml:"quiet" json:"quiet,omitempty"`
}

// Exactness asks for a mechanical check that compared arms generate exactly
// the baseline's output for the same request.
type Exactness struct {
	Compare []string `yaml:"compare" json:"compare"`
	Against string   `yaml:"against" json:"against"`
	// OnMismatch is "fail" (a mismatch REJECTS the campaign) or "report"
	// (timing results stay VALID; the verdict line says the contract is
	// broken).
	OnMismatch string `yaml:"on_mismatch" json:"on_mismatch"`
	// Strip lists regular expressions removed (line-wise) from outputs
	// before comparing, such as a drafter's banner line.
	Strip []string `yaml:"strip" json:"strip,omitempty"`
}

// Defaults of the statistics and gates.
const (
	DefaultConfidence   = 0.95
	DefaultAlpha        = 0.05
	DefaultMinEffect    = 0.01
	DefaultMaxSpread    = 0.04
	DefaultMaxContended = 0.20
	DefaultContendedCPU = 0.10
	DefaultMaxDrift     = 0.03
)

// Policy is every choice of a scenario that decides what a campaign's runs
// mean: typed once, at load, so that the analysis, the run loop and the
// recorder never compare the scenario's strings again. It is a pure value:
// a record's stored scenario yields the same Policy on any machine.
type Policy struct {
	Baseline string
	Arms     []ArmPolicy
	Primary  string
	// Metrics lists every metric, primary first, with its unit and
	// direction.
	Metrics  []MetricPolicy
	Counters []CounterPolicy
	Stats    StatsPolicy
	Gates    GatesPolicy
	Outliers OutlierMode
	Failure  FailurePolicy
	// GateFailure is what follows a run that fails its counter
	// expectation.
	GateFailure GateFailureMode
	Schedule    SchedulePolicy
	// Exactness is nil when the scenario asks for no identity check.
	Exactness *ExactnessPolicy
	// AllowUnverified is the scenario's reason for running without a
	// distinguishing counter; empty when it gave none.
	AllowUnverified string
	// Decline is the pattern of the engine's log lines that say it
	// declined to run the feature (fell back to classic decode); nil when
	// the scenario gives none.
	Decline *regexp.Regexp
	// EventTimes is whether every streamed token event is timestamped:
	// the scenario asks for it (engine.request.event_times) or names a
	// metric that needs it (schema.Metric.PerToken).
	EventTimes bool
}

// Declines reports whether a decline seen in an arm fails the gate: in
// every arm but the baseline and the negative controls, which are not
// expected to run the feature.
func (p Policy) Declines(arm string) bool {
	if p.Decline == nil || arm == p.Baseline {
		return false
	}
	for _, a := range p.Arms {
		if a.Name == arm {
			return !a.Control
		}
	}
	return false
}

// ArmPolicy is one arm as the analysis sees it.
type ArmPolicy struct {
	Name    string
	Control bool
}

// CounterPolicy is a counter with its expectations parsed. Expect holds an
// entry for every arm that has one, control arms included: a control arm
// without its own expectation takes the baseline's.
type CounterPolicy struct {
	Name   string
	Kind   SourceKind
	Expr   string
	Expect map[string]Expectation
}

// SourceKind is where a counter is read from.
type SourceKind int

// Counter sources.
const (
	SourceMetric SourceKind = iota + 1 // a Prometheus metric's delta over the measured window
	SourceJSON                         // a dotted path into the engine's reply
	SourceLog                          // a regular expression over the window's log lines
)

func (k SourceKind) String() string {
	switch k {
	case SourceMetric:
		return "metric"
	case SourceJSON:
		return "json"
	case SourceLog:
		return "log"
	}
	return "unknown"
}

// StatsPolicy is the comparison configuration.
type StatsPolicy struct {
	Confidence float64
	Alpha      float64
	MinEffect  float64
	// Resamples and Seed drive the bootstrap; the seed comes from the
	// schedule's, so that a record can be recomputed exactly.
	Resamples int
	Seed      uint64
	// Pairing says whether arms are compared round by round.
	Pairing Pairing
}

// Pairing is how two arms' samples are compared.
type Pairing int

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
	PairOff  Pairing = iota // two independent groups
	PairAuto                // paired by round when every round holds both arms
)

func (m Pairing) String() string {
	if m == PairAuto {
		return "auto"
	}
	return "off"
}

// GateFailureMode is what a run that fails its counter expectation does to
// the rest of the campaign.
type GateFailureMode int

// Gate failure modes.
const (
	GateStop     GateFailureMode = iota // stop the campaign: it is REJECTED whatever follows
	GateContinue                        // run on to the end of the schedule
)

func (m GateFailureMode) String() string {
	if m == GateContinue {
		return "continue"
	}
	return "stop"
}

// Resamples is the number of bootstrap resamples of every ratio interval.
const Resamples = 10000

// GatesPolicy holds the publishability thresholds; 0 disables one.
type GatesPolicy struct {
	MaxSpread, MaxContended, ContendedCPU, MaxDrift float64
	// MinContentionWindow is the shortest measured request whose
	// contention share is judged.
	MinContentionWindow time.Duration
	// Quiet is the quiet-host gate before every run; nil when off.
	Quiet *QuietPolicy
}

// MinContentionWindow: a window shorter than this holds a few scheduler
// ticks at most, and one background tick would read as heavy contention.
const MinContentionWindow = 250 * time.Millisecond

// OutlierMode says what happens to flagged outliers.
type OutlierMode int

// Outlier modes.
const (
	OutliersFlag OutlierMode = iota // mark them, keep them
	OutliersDrop                    // remove them from the statistics
)

func (m OutlierMode) String() string {
	if m == OutliersDrop {
		return "drop"
	}
	return "flag"
}

// FailureKind is what follows a failed run.
type FailureKind int

// Failure policies.
const (
	FailAbort FailureKind = iota
	FailContinue
	FailRetry
)

// FailurePolicy is on_failure: abort, continue, or retry:N.
type FailurePolicy struct {
	Kind    FailureKind
	Retries int
}

func (f FailurePolicy) String() string {
	switch f.Kind {
	case FailContinue:
		return "continue"
	case FailRetry:
		return "retry:" + strconv.Itoa(f.Retries)
	}
	return "abort"
}

// Order is how arms are interleaved within each round.
type Order int

// Orders.
const (
	OrderRotate Order = iota
	OrderABBA
	OrderRandom
)

func (o Order) String() string {
	switch o {
	case OrderABBA:
		return "abba"
	case OrderRandom:
		return "random"
	}
	return "rotate"
}

// SchedulePolicy is the schedule, typed.
type SchedulePolicy struct {
	Rounds Rounds
	Warmup int
	Order  Order
	Seed   int64
	// Cooldown is the fixed sleep between runs.
	Cooldown time.Duration
	// UntilQuiet, when set, replaces the fixed sleep by an adaptive
	// cooldown within these bounds.
	UntilQuiet *CooldownPolicy
}

// MismatchMode is what an identity mismatch does.
type MismatchMode int

// Mismatch modes.
const (
	MismatchFail   MismatchMode = iota // REJECTED
	MismatchReport                     // timing results stay valid; the verdict says the contract broke
)

func (m MismatchMode) String() string {
	if m == MismatchReport {
		return "report"
	}
	return "fail"
}

// ExactnessPolicy is the exactness block with its patterns compiled.
type ExactnessPolicy struct {
	Compare    []string
	Against    string
	OnMismatch MismatchMode
	Strip      []*regexp.Regexp
}

// compilePolicy builds the Policy of a validated scenario.
func (s *Scenario) compilePolicy() Policy {
	p := Policy{
		Baseline:        s.Baseline,
		Primary:         s.Metrics.Primary,
		Metrics:         s.compileMetrics(),
		AllowUnverified: s.AllowUnverified,
		Stats: StatsPolicy{
			Confidence: float64(s.Stats.Confidence), Alpha: float64(s.Stats.Alpha), MinEffect: float64(s.Stats.MinEffect),
			Resamples: Resamples, Seed: uint64(s.Schedule.Seed) + 1,
		},
		Gates: GatesPolicy{
			MaxSpread: float64(s.Gates.MaxSpread), MaxContended: float64(s.Gates.MaxContended),
			ContendedCPU: float64(s.Gates.ContendedCPU), MaxDrift: float64(s.Gates.MaxDrift),
			MinContentionWindow: MinContentionWindow,
			Quiet:               s.Gates.Quiet.policy(),
		},
		Schedule:   SchedulePolicy{Rounds: s.Schedule.Rounds, Warmup: s.Schedule.Warmup, Seed: s.Schedule.Seed, Cooldown: s.Schedule.Cooldown.Duration},
		EventTimes: s.Engine.Request.EventTimes || s.namesPerTokenMetric(),
	}
	if r := s.Schedule.Cooldown.UntilQuiet; r != nil {
		p.Schedule.UntilQuiet = &CooldownPolicy{Min: r.Min.Duration, Max: r.Max.Duration}
	}
	for _, a := range s.Arms {
		p.Arms = append(p.Arms, ArmPolicy{Name: a.Name, Control: a.Control})
	}
	switch s.Schedule.Order {
	case "abba":
		p.Schedule.Order = OrderABBA
	case "random":
		p.Schedule.Order = OrderRandom
	}
	if s.OnGateFailure == "continue" {
		p.GateFailure = GateContinue
	}
	if s.Stats.Pairing == "auto" {
		p.Stats.Pairing = PairAuto
	}
	if s.Outliers == "drop" {
		p.Outliers = OutliersDrop
	}
	switch {
	case s.OnFailure == "continue":
		p.Failure.Kind = FailContinue
	case strings.HasPrefix(s.OnFailure, "retry:"):
		p.Failure.Kind = FailRetry
		p.Failure.Retries, _ = strconv.Atoi(strings.TrimPrefix(s.OnFailure, "retry:"))
	}
	for _, c := range s.Counters {
		cp := CounterPolicy{Name: c.Name, Expect: map[string]Expectation{}}
		switch {
		case c.Metric != "":
			cp.Kind, cp.Expr = SourceMetric, c.Metric
		case c.JSON != "":
			cp.Kind, cp.Expr = SourceJSON, c.JSON
		case c.Log != "":
			cp.Kind, cp.Expr = SourceLog, c.Log
		}
		for arm, ex := range c.Expect {
			if e, err := ParseExpectation(ex); err == nil { // validated
				cp.Expect[arm] = e
			}
		}
		for _, a := range s.Arms {
			if _, own := cp.Expect[a.Name]; a.Control && !own {
				if e, ok := cp.Expect[s.Baseline]; ok {
					cp.Expect[a.Name] = e
				}
			}
		}
		p.Counters = append(p.Counters, cp)
	}
	if s.Engine.Decline != "" {
		p.Decline, _ = regexp.Compile(s.Engine.Decline) // validated
	}
	if x := s.Exactness; x != nil {
		xp := &ExactnessPolicy{Compare: x.Compare, Against: x.Against}
		if x.OnMismatch == "report" {
			xp.OnMismatch = MismatchReport
		}
		for _, re := range x.Strip {
			if r, err := regexp.Compile(re); err == nil { // validated
				xp.Strip = append(xp.Strip, r)
			}
		}
		p.Exactness = xp
	}
	return p
}

// ArmNames returns the policy's arm names in scenario order.
func (p Policy) ArmNames() []string {
	out := make([]string, len(p.Arms))
	for i, a := range p.Arms {
		out[i] = a.Name
	}
	return out
}
