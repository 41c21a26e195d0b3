package scenarios

import (
	"regexp"
	"time"

	"github.com/decodebench/decodebench/schema"
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
	Pairing schema.Pairing `yaml:"pairing" json:"pairing,omitempty"`
	// PoolControl, under rule robust-1, compares each test arm with the
	// baseline's runs and the negative controls' together (twice the
	// reference runs); each control is still tested for equivalence with
	// the baseline alone and still vetoes.
	PoolControl bool `yaml:"pool_control" json:"pool_control,omitempty"`
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
	OnMismatch schema.MismatchMode `yaml:"on_mismatch" json:"on_mismatch"`
	// Strip lists regular expressions removed (line-wise) from outputs
	// before comparing, such as a drafter's banner line.
	Strip []string `yaml:"strip" json:"strip,omitempty"`
	// Diagnose, true unless set false, asks both sides of a divergence
	// again after the measured windows for the engine's top candidates
	// (log-probabilities) and classifies the first divergence.
	Diagnose *bool `yaml:"diagnose" json:"diagnose,omitempty"`
	// NearTie is the near-tie threshold in nats (default
	// DefaultNearTie): a divergence where the baseline preferred its own
	// token over the arm's by less is a near-tie, otherwise decisive.
	NearTie float64 `yaml:"near_tie" json:"near_tie,omitempty"`
}

// DefaultNearTie is the near-tie threshold, in nats, when the scenario
// names none: the baseline's top choice less than 5% more likely than the
// arm's token (exp(0.05) ≈ 1.05).
const DefaultNearTie = 0.05

// DiagnosisTopK is how many candidates per generated token a diagnosis
// asks the engine for.
const DiagnosisTopK = 5

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
	// PauseIndexing is the scenario's host.pause_indexing.
	PauseIndexing bool
	Baseline      string
	Arms          []ArmPolicy
	Primary       string
	// Metrics lists every metric, primary first, with its unit and
	// direction.
	Metrics  []MetricPolicy
	Counters []CounterPolicy
	Stats    StatsPolicy
	Gates    GatesPolicy
	Outliers schema.OutlierMode
	Failure  schema.OnFailure
	// GateFailure is what follows a run that fails its counter
	// expectation.
	GateFailure schema.GateFailure
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
	// PrefixCache is the prefix-cache state every arm's requests run
	// under.
	PrefixCache PrefixCachePolicy
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
	Kind   schema.SourceKind
	Expr   string
	Expect map[string]Expectation
	// Capture narrows a text source's reading to its one group; nil
	// takes the whole text.
	Capture *regexp.Regexp
	// Phase is the log lines a log counter reads: PhaseWindow or
	// PhaseStartup (a log counter's, never empty); empty for the others.
	Phase schema.LogPhase
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
	Pairing schema.Pairing
	// PoolControl pools the negative controls into the reference.
	PoolControl bool
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

// SchedulePolicy is the schedule, typed.
type SchedulePolicy struct {
	Rounds Rounds
	Warmup int
	// Requests is the number of measured requests per engine start (at
	// least 1).
	Requests int
	Order    schema.Order
	Seed     int64
	// Cooldown is the fixed sleep between runs.
	Cooldown time.Duration
	// UntilQuiet, when set, replaces the fixed sleep by an adaptive
	// cooldown within these bounds.
	UntilQuiet *CooldownPolicy
}

// ExactnessPolicy is the exactness block with its patterns compiled.
type ExactnessPolicy struct {
	Compare    []string
	Against    string
	OnMismatch schema.MismatchMode
	Strip      []*regexp.Regexp
	// Diagnose asks for a divergence diagnosis; NearTie is its threshold
	// in nats and TopK the candidates asked for per token.
	Diagnose bool
	NearTie  float64
	TopK     int
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
			Resamples: Resamples, Seed: uint64(s.Schedule.Seed) + 1, Pairing: s.Stats.Pairing,
			PoolControl: s.Stats.PoolControl,
		},
		Gates: GatesPolicy{
			MaxSpread: float64(s.Gates.MaxSpread), MaxContended: float64(s.Gates.MaxContended),
			ContendedCPU: float64(s.Gates.ContendedCPU), MaxDrift: float64(s.Gates.MaxDrift),
			MinContentionWindow: MinContentionWindow,
			Quiet:               s.Gates.Quiet.policy(),
		},
		Schedule: SchedulePolicy{Rounds: s.Schedule.Rounds, Warmup: s.Schedule.Warmup, Requests: max(1, s.Schedule.Requests), Order: s.Schedule.Order,
			Seed: s.Schedule.Seed, Cooldown: s.Schedule.Cooldown.Duration},
		Outliers: s.Outliers, Failure: s.OnFailure, GateFailure: s.OnGateFailure,
		EventTimes:  s.Engine.Request.EventTimes || s.namesPerTokenMetric(),
		PrefixCache: s.prefixCache(),
	}
	p.PauseIndexing = s.Host != nil && s.Host.PauseIndexing
	if r := s.Schedule.Cooldown.UntilQuiet; r != nil {
		p.Schedule.UntilQuiet = &CooldownPolicy{Min: r.Min.Duration, Max: r.Max.Duration}
	}
	for _, a := range s.Arms {
		p.Arms = append(p.Arms, ArmPolicy{Name: a.Name, Control: a.Control})
	}
	for _, c := range s.Counters {
		cp := CounterPolicy{Name: c.Name, Expect: map[string]Expectation{}}
		cp.Kind, cp.Expr = c.Source()
		if cp.Kind == schema.SourceLog {
			cp.Phase = c.Phase
			if cp.Phase == "" {
				cp.Phase = schema.PhaseWindow
			}
		}
		if c.Capture != "" {
			cp.Capture, _ = regexp.Compile(c.Capture) // validated
		}
		for arm, ex := range c.Expect {
			if e, err := c.ParseExpect(ex); err == nil { // validated
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
		xp := &ExactnessPolicy{Compare: x.Compare, Against: x.Against, OnMismatch: x.OnMismatch,
			Diagnose: x.Diagnose == nil || *x.Diagnose, NearTie: x.NearTie, TopK: DiagnosisTopK}
		if xp.NearTie == 0 {
			xp.NearTie = DefaultNearTie
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
