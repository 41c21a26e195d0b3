package schema

// BisectSchema names the version of a bisect summary's data block.
const BisectSchema = "decodebench/bisect/v1"

// Bisect is what `decodebench bisect` found: the commits between a good
// and a bad revision, one step per commit it measured, and the first bad
// commit the steps lead to. Each step links the records of its campaigns;
// the summary's data block holds everything the Markdown says, and check
// re-derives every step's class from its linked records and the outcome
// from the classes.
type Bisect struct {
	Schema   string `json:"schema"`
	Feature  string `json:"feature"`
	Hardware string `json:"hardware"`
	Date     string `json:"date"`
	// Good and Bad are the full commit ids of the revisions given; the
	// refs as the user wrote them are kept beside them.
	Good    string `json:"good"`
	GoodRef string `json:"good_ref"`
	Bad     string `json:"bad"`
	BadRef  string `json:"bad_ref"`
	// Build is the build command run in each commit's worktree.
	Build string `json:"build"`
	// Threshold is the slowdown, as a fraction of the reference's median,
	// past which a candidate is bad.
	Threshold float64 `json:"threshold"`
	// ScenarioPath and ScenarioHash name the scenario every step ran.
	ScenarioPath string `json:"scenario_path"`
	ScenarioHash string `json:"scenario_hash"`
	// Reference and Candidate are the arms that ran the good commit's
	// build and the commit under test.
	Reference string `json:"reference"`
	Candidate string `json:"candidate"`
	// ReferenceBuild is the good commit's build, made once.
	ReferenceBuild BisectBuild `json:"reference_build"`
	// Commits are the commits after Good up to and including Bad, oldest
	// first, in first-parent order.
	Commits []BisectCommit `json:"commits"`
	// Steps are in the order they ran.
	Steps []BisectStep `json:"steps"`
	// Pending is the step an interruption stopped, with the campaigns it
	// had started; a resume finishes it. The outcome does not count it.
	Pending *BisectStep   `json:"pending,omitempty"`
	Outcome BisectOutcome `json:"outcome"`
	// Files are the data folder's files the summary names (build logs),
	// with their sha256; the steps' records are checked by check itself.
	Files   []FileSum `json:"files"`
	DataDir string    `json:"data_dir"`
}

// BisectCommit is one commit of the range.
type BisectCommit struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject"`
}

// BisectBuild is one build of a commit: its exit status and its log, a
// file of the data folder.
type BisectBuild struct {
	OK       bool    `json:"ok"`
	ExitCode int     `json:"exit_code"`
	Log      string  `json:"log"`
	Seconds  float64 `json:"seconds"`
}

// BisectClass is what a step found about its commit.
type BisectClass string

// Classes of a step or of one of its campaigns.
const (
	// ClassGood: the interval of the ratio rules out a slowdown past the
	// threshold.
	ClassGood BisectClass = "good"
	// ClassBad: significantly slower, by at least the threshold.
	ClassBad BisectClass = "bad"
	// ClassUndecided: neither; after its last campaign the commit is
	// skipped, as `git bisect skip` does.
	ClassUndecided BisectClass = "undecided"
	// ClassBuildFailed: the build command failed; the commit is skipped.
	ClassBuildFailed BisectClass = "build-failed"
)

// Skipped reports whether the class leaves the commit out of the search.
func (c BisectClass) Skipped() bool { return c == ClassUndecided || c == ClassBuildFailed }

// BisectWhy says why a campaign was undecided; empty for good and bad.
type BisectWhy string

// Why a campaign could not classify its commit.
const (
	WhyNone BisectWhy = ""
	// WhyVerdict: the campaign's verdict shows no results to trust
	// (FAILED, REJECTED, INCOMPLETE).
	WhyVerdict BisectWhy = "campaign-verdict"
	// WhyNoComparison: the record has no primary comparison of the
	// candidate with the reference.
	WhyNoComparison BisectWhy = "no-comparison"
	// WhyWide: the interval reaches past the threshold but the slowdown
	// is not significant past it.
	WhyWide BisectWhy = "interval-spans-threshold"
)

// BisectStep is one commit measured: its build, then one campaign or
// more (an undecided campaign is followed by one with more rounds).
type BisectStep struct {
	N      int         `json:"n"`
	Commit string      `json:"commit"`
	Build  BisectBuild `json:"build"`
	// Campaigns are in the order they ran; the last one decides the class.
	Campaigns []BisectCampaign `json:"campaigns,omitempty"`
	// SameBuild is set when the commit built the good commit's engine
	// again, byte for byte (a commit that changed only the docs): the
	// step is good, no change, without a campaign.
	SameBuild *BisectSameBuild `json:"same_build,omitempty"`
	Class     BisectClass      `json:"class"`
	Seconds   float64          `json:"seconds"`
}

// BisectSameBuild is the engine binary a commit built identical to the
// good commit's: its sha256 (libraries alike), and the two paths, two
// files, each inside its own worktree (the good commit's,
// <work>/reference, and the commit's, <work>/<its first 12 hex digits>),
// as are the binaries the two engines run when they are wrapper scripts.
type BisectSameBuild struct {
	SHA256          string `json:"sha256"`
	Reference       string `json:"reference"`
	Candidate       string `json:"candidate"`
	ReferenceBinary string `json:"reference_binary,omitempty"`
	CandidateBinary string `json:"candidate_binary,omitempty"`
}

// BisectCampaign is one campaign of a step, as classified from its record.
type BisectCampaign struct {
	// Record is the campaign's record, relative to the summary file.
	Record  string      `json:"record"`
	Verdict Verdict     `json:"verdict"`
	Rounds  int         `json:"rounds"`
	Class   BisectClass `json:"class"`
	Why     BisectWhy   `json:"why,omitempty"`
	// Metric is the primary metric; Change is the candidate's change on
	// it against the reference, new/old − 1 on the metric's own scale
	// (negative is slower for a rate), with its interval and p.
	Metric         string  `json:"metric,omitempty"`
	HigherIsBetter bool    `json:"higher_is_better,omitempty"`
	Ratio          float64 `json:"ratio,omitempty"`
	Lo             float64 `json:"lo,omitempty"`
	Hi             float64 `json:"hi,omitempty"`
	Confidence     float64 `json:"confidence,omitempty"`
	P              float64 `json:"p,omitempty"`
	Significant    bool    `json:"significant,omitempty"`
}

// BisectResult is how a bisect ended.
type BisectResult string

// Results of a bisect.
const (
	// FoundFirstBad: one commit is bad and its parent in the range good.
	FoundFirstBad BisectResult = "found"
	// AmbiguousSkipped: skipped commits leave several candidates.
	AmbiguousSkipped BisectResult = "ambiguous"
	// BadNotBad: the bad revision was not found slower than the good one
	// (it measured good; summaries written before BadBuildFailed and
	// BadUndecided existed say it for those too).
	BadNotBad BisectResult = "bad-not-slower"
	// BadBuildFailed: the bad revision did not build: it was not measured.
	BadBuildFailed BisectResult = "bad-did-not-build"
	// BadUndecided: the bad revision's campaigns neither showed it slower
	// by the threshold nor ruled that out.
	BadUndecided BisectResult = "bad-undecided"
	// OutOfTime: --max-time ran out before the search ended.
	OutOfTime BisectResult = "out-of-time"
	// Unfinished: the bisect was interrupted; resume it.
	Unfinished BisectResult = "unfinished"
)

// BisectOutcome is the end of the search: the first bad commit when
// found, else the commits it is still among.
type BisectOutcome struct {
	Result   BisectResult `json:"result"`
	FirstBad string       `json:"first_bad,omitempty"`
	// Among lists the commits the first bad commit may be (the found one
	// alone when found), oldest first.
	Among []string `json:"among,omitempty"`
}
