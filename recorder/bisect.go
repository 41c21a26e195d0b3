package recorder

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// BisectFence is the info string of a bisect summary's data block: another
// kind of document than a campaign record, told apart by it.
const BisectFence = "json decodebench-bisect"

const bisectFenceStart = "```" + BisectFence

// BisectMarkdown renders a bisect summary: the outcome and one row per
// step (commit, build, campaign verdict, class, change with its interval
// and p, a link to each campaign's record), the range with every commit's
// class, the method, and the data block.
func BisectMarkdown(w io.Writer, b *schema.Bisect) error {
	var sb strings.Builder
	m := &mdWriter{b: &sb}
	m.p("# Bisect %s on %s, %s: %s\n\n", text(b.Feature), text(b.Hardware), text(b.Date), bisectResultTitle(b.Outcome.Result))
	m.h2("Summary")
	m.ln(BisectOutcomeText(b))
	m.ln("")
	m.ln(BisectTable(b))
	m.h2("Range")
	m.p("Good %s (%s), bad %s (%s): %d commit(s) after the good one, oldest first.\n\n", code(short(b.Good)), code(b.GoodRef), code(short(b.Bad)), code(b.BadRef), len(b.Commits))
	classes := map[string]schema.BisectClass{}
	for _, s := range b.Steps {
		classes[s.Commit] = s.Class
	}
	table(m, []column[schema.BisectCommit]{
		left("commit", func(c schema.BisectCommit) string { return cellCode(short(c.SHA)) }),
		left("subject", func(c schema.BisectCommit) string { return cellText(c.Subject) }),
		left("class", func(c schema.BisectCommit) string {
			if k, ok := classes[c.SHA]; ok {
				return string(k)
			}
			return "untested"
		}),
	}, b.Commits)
	m.ln("")
	m.h2("Method")
	m.p("- Scenario %s (hash %s): the reference arm %s runs the good commit's build (`${REFERENCE_DIR}`), ", code(b.ScenarioPath), code(short(b.ScenarioHash)), code(b.Reference))
	m.p("the candidate arm %s the commit under test (`${CANDIDATE_DIR}`), interleaved, one campaign per step.\n", code(b.Candidate))
	m.p("- Build command, run in each commit's own git worktree: %s. The good commit's build: %s.\n", code(b.Build), buildText(b.ReferenceBuild))
	m.p("- Threshold %s: a commit is bad when its change on the primary metric is significant and slower by at least the threshold; ", pct.Exact(b.Threshold))
	m.ln("good when the slow end of the interval is within it; undecided otherwise, or when its campaign shows no results " +
		"(then it is run again with twice the rounds, and skipped if still undecided, as `git bisect skip` does). A commit that does not build is skipped.")
	m.p("- The bad revision is measured first: the search needs it slower than the good one.\n")
	if sameBuilds(b) {
		m.p("- A commit whose build is the good commit's engine again, byte for byte " +
			"(its binary and libraries have the same sha256: a commit that changed only the docs), " +
			"is good without a campaign: the same engine, no change.\n")
	}
	m.p("\n")
	b2, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("bisect data: %w", err)
	}
	m.h2("Data")
	m.ln("<details><summary>Machine-readable bisect summary (parsed by <code>decodebench</code> tools)</summary>")
	m.ln("")
	m.ln(bisectFenceStart)
	m.ln(string(b2))
	m.ln(dataFenceEnd)
	m.ln("")
	m.ln(dataTrailer)
	_, err = io.WriteString(w, sb.String())
	return err
}

func bisectResultTitle(r schema.BisectResult) string {
	switch r {
	case schema.FoundFirstBad:
		return "first bad commit found"
	case schema.AmbiguousSkipped:
		return "first bad commit among skipped commits"
	case schema.BadNotBad:
		return "the bad revision is not slower"
	case schema.BadBuildFailed:
		return "the bad revision did not build"
	case schema.BadUndecided:
		return "the bad revision is undecided"
	case schema.OutOfTime:
		return "out of time"
	}
	return "unfinished"
}

// BisectOutcomeText is the outcome in one sentence.
func BisectOutcomeText(b *schema.Bisect) string {
	o := b.Outcome
	n := len(b.Steps)
	switch o.Result {
	case schema.FoundFirstBad:
		return fmt.Sprintf("The first bad commit is %s %s, found in %d step(s): it is slower than the good commit by at least %s, and the commit before it is not.", code(short(o.FirstBad)), text(subject(b, o.FirstBad)), n, pct.Exact(b.Threshold))
	case schema.AmbiguousSkipped:
		return fmt.Sprintf("The first bad commit is one of %s: the commits between were skipped (%d step(s)).", shortList(o.Among), n)
	case schema.BadNotBad:
		return fmt.Sprintf("The bad revision %s was not found slower than the good one by %s or more: there is no regression to search for (%d step(s)).", code(short(b.Bad)), pct.Exact(b.Threshold), n)
	case schema.BadBuildFailed:
		return fmt.Sprintf("The bad revision %s did not build (its step's build log says why): it was not measured, so there is no slower end to search from (%d step(s)).", code(short(b.Bad)), n)
	case schema.BadUndecided:
		return fmt.Sprintf("The bad revision %s stayed undecided: its campaigns neither showed it slower than the good one by %s or more nor ruled that out, so there is no slower end to search from (%d step(s)).",
			code(short(b.Bad)), pct.Exact(b.Threshold), n)
	case schema.OutOfTime:
		return fmt.Sprintf("Out of time after %d step(s): the first bad commit is one of %s.", n, shortList(o.Among))
	}
	return fmt.Sprintf("Unfinished after %d step(s): the first bad commit is one of %s; `decodebench bisect --resume` on the data folder %s continues it.", n, shortList(o.Among), code(b.DataDir))
}

// BisectTable is the steps' evidence chain as a Markdown table, one row
// per campaign.
func BisectTable(b *schema.Bisect) string {
	var sb strings.Builder
	m := &mdWriter{b: &sb}
	type row struct {
		s schema.BisectStep
		c *schema.BisectCampaign
	}
	var rows []row
	steps := b.Steps
	if b.Pending != nil {
		p := *b.Pending
		p.Class = "under way"
		steps = append(append([]schema.BisectStep{}, steps...), p)
	}
	for _, s := range steps {
		if len(s.Campaigns) == 0 {
			rows = append(rows, row{s: s})
		}
		for i := range s.Campaigns {
			rows = append(rows, row{s, &s.Campaigns[i]})
		}
	}
	table(m, []column[row]{
		right("step", func(r row) string { return fmt.Sprint(r.s.N) }),
		left("commit", func(r row) string { return cellCode(short(r.s.Commit)) }),
		left("build", func(r row) string {
			if r.s.Build.Log == "" {
				return "—"
			}
			return buildText(r.s.Build)
		}),
		left("campaign", func(r row) string {
			if r.c == nil && r.s.SameBuild != nil {
				return "none: " + cellText(sameBuildText(r.s.SameBuild))
			}
			if r.c == nil {
				return "—"
			}
			return fmt.Sprintf("%s, %d rounds", r.c.Verdict, r.c.Rounds)
		}),
		left("class", func(r row) string {
			if r.c == nil || r.s.Class == "under way" {
				return string(r.s.Class)
			}
			if r.c.Why != "" {
				return fmt.Sprintf("%s (%s)", r.c.Class, r.c.Why)
			}
			return string(r.c.Class)
		}),
		right("change", func(r row) string {
			if r.c == nil && r.s.SameBuild != nil {
				return "none"
			}
			if r.c == nil || r.c.Ratio == 0 {
				return "—"
			}
			return pct.Signed(r.c.Ratio-1, 2)
		}),
		left("interval", func(r row) string {
			if r.c == nil || (r.c.Lo == 0 && r.c.Hi == 0) {
				return "—"
			}
			return fmt.Sprintf("[%s, %s] at %s", pct.Signed(r.c.Lo-1, 2), pct.Signed(r.c.Hi-1, 2), pct.Exact(round4(r.c.Confidence)))
		}),
		right("p", func(r row) string {
			if r.c == nil || r.c.Ratio == 0 {
				return "—"
			}
			return strings.TrimPrefix(formatP(r.c.P), "p=")
		}),
		left("record", func(r row) string {
			if r.c == nil {
				return "—"
			}
			return fmt.Sprintf("[%s](%s)", cellText(filepath.Base(r.c.Record)), linkPath(r.c.Record))
		}),
	}, rows)
	return sb.String()
}

func buildText(b schema.BisectBuild) string {
	if b.OK {
		return fmt.Sprintf("ok, %.1f s", b.Seconds)
	}
	return fmt.Sprintf("failed (exit %d), log %s", b.ExitCode, code(b.Log))
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func shortList(shas []string) string {
	var out []string
	for _, s := range shas {
		out = append(out, code(short(s)))
	}
	return strings.Join(out, ", ")
}

func subject(b *schema.Bisect, sha string) string {
	for _, c := range b.Commits {
		if c.SHA == sha {
			return "(" + c.Subject + ")"
		}
	}
	return ""
}

// BisectStepLine is one finished step in a sentence, for the progress
// output.
func BisectStepLine(s schema.BisectStep) string {
	line := fmt.Sprintf("step %d: %s %s", s.N, short(s.Commit), s.Class)
	if !s.Build.OK {
		return line + fmt.Sprintf(": build failed (exit %d), skipped; log %s", s.Build.ExitCode, s.Build.Log)
	}
	if sb := s.SameBuild; sb != nil {
		return line + ": " + sameBuildText(sb) + ", no campaign"
	}
	if n := len(s.Campaigns); n > 0 {
		c := s.Campaigns[n-1]
		if c.Ratio != 0 {
			line += fmt.Sprintf(": %s %s [%s, %s], %s", c.Metric, pct.Signed(c.Ratio-1, 2), pct.Signed(c.Lo-1, 2), pct.Signed(c.Hi-1, 2), formatP(c.P))
		}
		if c.Why != "" {
			line += fmt.Sprintf(" (%s, campaign %s)", c.Why, c.Verdict)
		}
		line += "; record " + c.Record
	}
	return line
}

// sameBuildText says that a step built the good commit's engine again.
func sameBuildText(sb *schema.BisectSameBuild) string {
	return fmt.Sprintf("the good commit's engine again, byte for byte (sha256 %s)", short(sb.SHA256))
}

// sameBuilds reports whether a step of b built the good commit's engine
// again.
func sameBuilds(b *schema.Bisect) bool {
	for _, s := range b.Steps {
		if s.SameBuild != nil {
			return true
		}
	}
	return false
}
