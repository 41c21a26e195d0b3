package review

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/schema"
)

// Confirmation is a second, independent session's word on the alarm of a
// diff's record pair: `diff --fail-on-regression --confirm NEW2` raises a
// regression only when the two sessions, combined, agree on it. One
// campaign is one session: its arm ratios move with what the host did that
// session (a per-session offset no interval within the record sees), so a
// single pair of records raises false alarms that a second session does
// not repeat.
type Confirmation struct {
	// Method names the combination.
	Method string      `json:"method"`
	Rule   ConfirmRule `json:"rule"`
	// Sessions are the record pairs, the diff's own first.
	Sessions []Session `json:"sessions"`
	// Family is the diff's own correction over the arm ratios it gates
	// on; the combined change is judged at its alpha over its arms.
	Family    *RatioFamily `json:"family,omitempty"`
	Threshold float64      `json:"threshold"`
	// Conditions lists every difference in how the first session's new
	// record and the second's were measured (and, "old records: …", its
	// old ones, when the second session has its own): a rerun should
	// have none but the date and the load.
	Conditions []Condition `json:"conditions"`
	// Refused is set when the second session cannot confirm anything (a
	// record not fit to compare, the same campaign given twice, another
	// scenario); Arms is then empty.
	Refused []string          `json:"refused,omitempty"`
	Arms    []ArmConfirmation `json:"arms,omitempty"`
}

// MethodFixed is the combination a Confirmation names.
const MethodFixed = "fixed-effect inverse-variance weighting of the sessions' log changes (generalised least squares over the records they share); Cochran's Q and I²"

// Session is one record pair: an old record and a new one.
type Session struct {
	Old string `json:"old"`
	New string `json:"new"`
	// SharesOld is set when the session's old record is the first
	// session's: the two estimates then share its noise, which the
	// combination counts (their covariance).
	SharesOld bool `json:"shares_old,omitempty"`
}

// SecondSession names the records of the confirming session: its new
// record, and its own old one or, when Old is nil, the first session's.
type SecondSession struct {
	OldPath string
	Old     *schema.Record
	NewPath string
	New     *schema.Record
}

// ConfirmOptions adjusts Confirm.
type ConfirmOptions struct {
	// Rule is DefaultConfirmRule when zero.
	Rule ConfirmRule
	// Force compares records whose verdict says their numbers must not be
	// used, and records that fail check.
	Force bool
	// Problems are what Check found in the second session's new and old
	// records: one that fails check is refused.
	Problems [2][]Problem
	// Today are why the second session's new and old record are unfit
	// under today's rule (UnfitToday): one that is is refused.
	Today [2]string
}

// ArmConfirmation is one gated arm's ratio to its baseline over the
// sessions: each session's change of it and the combined change.
type ArmConfirmation struct {
	Arm            string `json:"arm"`
	Baseline       string `json:"baseline"`
	Metric         string `json:"metric"`
	HigherIsBetter bool   `json:"higher_is_better"`
	// Alarm is the first session's own gate: the diff's ratio verdict for
	// this arm is a significant regression.
	Alarm bool `json:"alarm"`
	// Records are each record's own ratio of the arm to its baseline, in
	// the order of the sessions' records: the first session's old and
	// new, the second's new, and its own old when it has one.
	Records  []RecordRatio `json:"records"`
	Sessions []Estimate    `json:"sessions"`
	Combined Estimate      `json:"combined"`
	// Q is Cochran's Q between the sessions (for estimates that share a
	// record, its generalised form with their covariance), on DF degrees
	// of freedom, with its p and I² = max(0, (Q − DF)/Q).
	Q  float64 `json:"q"`
	DF int     `json:"df"`
	QP float64 `json:"q_p"`
	I2 float64 `json:"i2"`
	// Outcome says whether the alarm is raised, and why not.
	Outcome ConfirmOutcome `json:"outcome"`
}

// RecordRatio is one record's ratio of an arm's median to its baseline's:
// Log its natural log, SE the standard error its bootstrap interval gives
// (0 when the record has too few runs for one).
type RecordRatio struct {
	Record string  `json:"record"`
	Ratio  float64 `json:"ratio"`
	Log    float64 `json:"log"`
	SE     float64 `json:"se"`
}

// Estimate is a change of an arm's ratio to its baseline: Log on the log
// scale with its standard error SE; Change, Lo and Hi on the ratio's scale
// (exp − 1), the interval at the family's confidence; P two-sided, and
// PWorse one-sided towards a regression.
type Estimate struct {
	Log    float64 `json:"log"`
	SE     float64 `json:"se"`
	Change float64 `json:"change"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	P      float64 `json:"p"`
	PWorse float64 `json:"p_worse"`
}

// ConfirmOutcome is what the confirmation concluded for an arm.
type ConfirmOutcome string

// Outcomes of a confirmation, in the order they are decided.
const (
	// NoAlarm: the first session's gate raised nothing for the arm.
	NoAlarm ConfirmOutcome = "no-alarm"
	// NoEstimate: a record has too few runs of the arm or its baseline
	// for an interval, or one of zero width, or ratios no float holds:
	// the second session can neither confirm nor dismiss the alarm, which
	// stands (fail closed).
	NoEstimate ConfirmOutcome = "no-estimate"
	// SessionsDisagree: Cochran's Q says the sessions differ beyond what
	// their intervals allow.
	SessionsDisagree ConfirmOutcome = "sessions-disagree"
	// NotAgreed: a session on its own does not show the regression the
	// rule asks of it.
	NotAgreed ConfirmOutcome = "not-agreed"
	// NotSignificant: the combined change is not a significant
	// regression at the family's alpha over its arms.
	NotSignificant ConfirmOutcome = "not-significant"
	// BelowThreshold: the combined change is smaller than the threshold.
	BelowThreshold ConfirmOutcome = "below-threshold"
	// Raised: the regression is confirmed.
	Raised ConfirmOutcome = "raised"
)

// Raised reports whether any arm's alarm stands: confirmed, or one that
// the sessions could not be combined to judge (NoEstimate: a confirmation
// that cannot be computed keeps the first session's alarm, so that a
// rerun too short or too wild for an interval cannot dismiss it). What
// `diff --fail-on-regression --confirm` exits 1 on.
func (c Confirmation) Raised() bool {
	for _, a := range c.Arms {
		if a.stands() {
			return true
		}
	}
	return false
}

// stands reports whether the arm's alarm is raised after the second
// session: confirmed, or not judged.
func (a ArmConfirmation) stands() bool {
	return a.Outcome == Raised || a.Alarm && a.Outcome == NoEstimate
}

// Confirm judges the alarm of diff d (from records old and nu) with a
// second session. Each record gives each gated arm's log ratio to its
// baseline with a standard error from its own bootstrap interval; each
// session's estimate is its new record's minus its old record's; the
// sessions are combined by inverse-variance weighting (a fixed-effect
// meta-analysis, generalised least squares when they share the old
// record), and the rule decides.
func Confirm(d Diff, old, nu *schema.Record, second SecondSession, opt ConfirmOptions) Confirmation {
	if opt.Rule == (ConfirmRule{}) {
		opt.Rule = DefaultConfirmRule
	}
	shared := second.Old == nil
	if shared {
		second.OldPath, second.Old = d.Old, old
	}
	c := Confirmation{
		Method:    MethodFixed,
		Rule:      opt.Rule,
		Sessions:  []Session{{Old: d.Old, New: d.New}, {Old: second.OldPath, New: second.NewPath, SharesOld: shared}},
		Family:    d.Family,
		Threshold: d.Threshold,
	}
	c.Conditions = conditions(d.New, nu, second.NewPath, second.New)
	if !shared {
		for _, o := range conditions(d.Old, old, second.OldPath, second.Old) {
			o.What = "old records: " + o.What
			c.Conditions = append(c.Conditions, o)
		}
	}
	records := []campaign{{d.Old, old}, {d.New, nu}, {second.NewPath, second.New}}
	if !shared {
		records = append(records, campaign{second.OldPath, second.Old})
	}
	c.Refused = confirmRefusals(records, opt.Force, opt.Problems, opt.Today)
	if !opt.Force {
		c.Refused = append(c.Refused, setupRefusals(c.Conditions)...)
	}
	if len(c.Refused) > 0 || d.Family == nil {
		return c
	}
	for _, r := range d.Ratios {
		a := ArmConfirmation{Arm: r.Arm, Baseline: r.Baseline, Metric: r.Metric, HigherIsBetter: nu.HigherIsBetter(r.Metric), Alarm: r.Verdict == Worse}
		for _, rec := range records {
			a.Records = append(a.Records, recordRatio(rec, r.Arm, r.Baseline, r.Metric))
		}
		a.judge(opt.Rule, d.Family, d.Threshold)
		c.Arms = append(c.Arms, a)
	}
	return c
}

// judge combines the arm's records into sessions by the rule and decides.
func (a *ArmConfirmation) judge(rule ConfirmRule, f *RatioFamily, threshold float64) {
	// Record indices of each session's old and new record.
	sessions := [][2]int{{0, 1}, {0, 2}}
	if len(a.Records) > 3 {
		sessions[1][0] = 3
	}
	a.combine(sessions, f)
	a.Outcome = rule.decide(*a, f, threshold)
}

// campaign is a record and the path it was read from.
type campaign struct {
	path string
	rec  *schema.Record
}

// confirmRefusals says why the sessions cannot confirm anything: a record
// whose verdict makes its numbers unfit (unless force), one campaign given
// as two records, or a second session of another scenario's arms.
func confirmRefusals(records []campaign, force bool, problems [2][]Problem, today [2]string) []string {
	names := []string{"the first session's old record", "the first session's new record", "the second session's new record", "the second session's old record"}
	var out []string
	for i := 2; i < len(records); i++ {
		if p := problems[i-2]; len(p) > 0 && !force {
			out = append(out, fmt.Sprintf("%s fails check (%d problem(s); the first: %s): decodebench check lists them (--force uses it anyway)", names[i], len(p), p[0]))
		}
		switch v := records[i].rec.Verdict; v {
		case schema.Valid, schema.Unverified:
		default:
			if !force {
				out = append(out, fmt.Sprintf("%s's verdict is %s: its numbers are not fit to confirm anything (--force uses them anyway)", names[i], v))
			}
		}
		if why := today[i-2]; why != "" && !force {
			out = append(out, fmt.Sprintf("%s is not fit to confirm anything: %s (--force uses it anyway)", names[i], why))
		}
	}
	for i := range records {
		for j := range i {
			if sameCampaign(records[i], records[j]) {
				out = append(out, fmt.Sprintf("%s is the same campaign as %s: a second session must be another campaign (a rerun: decodebench reproduce)", names[i], names[j]))
			}
		}
	}
	first, second := records[1].rec.Scenario, records[2].rec.Scenario
	if first.Baseline != second.Baseline || first.Primary != second.Primary {
		out = append(out, fmt.Sprintf("the second session's new record compares its arms with %s on %s, the first's with %s on %s: a second session must run the same scenario", second.Baseline, second.Primary, first.Baseline, first.Primary))
	}
	// A second session of a changed scenario measures something else:
	// its new record is to be the first's campaign run again, and its
	// own old record the first's old one run again.
	for _, p := range [][2]int{{2, 1}, {3, 0}} {
		if p[0] >= len(records) || force {
			continue
		}
		a, b := records[p[0]].rec.Scenario.Hash, records[p[1]].rec.Scenario.Hash
		if a != "" && b != "" && a != b {
			out = append(out, fmt.Sprintf("%s ran another scenario than %s (scenario hash %s, not %s): a second session runs the same one (--force confirms with it anyway)", names[p[0]], names[p[1]], abbrev.Hash(a), abbrev.Hash(b)))
		}
	}
	return out
}

// setupConditions are the conditions that say what was measured, not
// when: a rerun on another machine or of another engine build or model
// measures something else, and one of the old build (a stale cache) would
// dismiss a real regression. The libraries an arm loaded are the build as
// much as the binary: records that carry them are compared by them, not
// by the candidates installed beside the binary (engine libraries).
var setupConditions = []string{"hardware slug", "CPU", "GPUs", "engine binary sha256", "engine libraries", "libraries loaded by arm ", "engine version", "engine source commit", "engine source dirty", "model file "}

// setupRefusals refuses a second session whose records were measured on
// another machine, engine build or model files than the first session's
// counterparts (unless --force).
func setupRefusals(conds []Condition) []string {
	var out []string
	for _, c := range conds {
		what, whose := c.What, "new"
		if w, ok := strings.CutPrefix(what, "old records: "); ok {
			what, whose = w, "old"
		}
		for _, p := range setupConditions {
			if strings.HasPrefix(what, p) {
				out = append(out, fmt.Sprintf("the second session's %s record differs from the first's in %s (%s, not %s): a second session reruns the same build on the same machine (--force confirms with it anyway)", whose, what, dash(c.New), dash(c.Old)))
				break
			}
		}
	}
	return out
}

// sameCampaign reports whether two records are one campaign: one file, or
// the same campaign by its identity (history.Campaign: the same
// method.started, a run's start in common, or the same runs.jsonl), not
// by the bytes of runs.jsonl, which the same runs re-spaced change.
func sameCampaign(a, b campaign) bool {
	if a.rec == b.rec || history.CampaignOf(a.rec).Same(history.CampaignOf(b.rec)) {
		return true
	}
	pa, errA := filepath.Abs(a.path)
	pb, errB := filepath.Abs(b.path)
	if errA != nil || errB != nil {
		return false
	}
	if ra, err := filepath.EvalSymlinks(pa); err == nil {
		pa = ra
	}
	if rb, err := filepath.EvalSymlinks(pb); err == nil {
		pb = rb
	}
	return pa == pb
}

// worse reports whether a log change is a regression of a metric.
func worse(log float64, higher bool) bool {
	return log != 0 && (log > 0) != higher
}

// pWorse is the one-sided p of a regression: the chance of an estimate at
// least this far towards worse when nothing changed.
func pWorse(log, se float64, higher bool) float64 {
	z := log / se
	if higher {
		z = -z
	}
	return 0.5 * math.Erfc(z/math.Sqrt2)
}
