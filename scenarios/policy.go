package scenarios

// Stats sets the confidence level and significance threshold of the
// comparisons in the record.
type Stats struct {
	Confidence Fraction `yaml:"confidence" json:"confidence"`
	Alpha      Fraction `yaml:"alpha" json:"alpha"`
	// MinEffect is the smallest change that counts, even when significant
	// (as asv does): default 1%.
	MinEffect Fraction `yaml:"min_effect" json:"min_effect"`
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
