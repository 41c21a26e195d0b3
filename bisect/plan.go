package bisect

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/reproduce"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// WritePlan says, before anything is built or run, what resuming the
// bisect would do: where it stands; for a bisect that is not finished, the
// repository its commits are checked out of and the folder they go into,
// the build command and the commits it would build, every command line
// the scenario's campaigns run (reproduce.WriteEngines), and every file
// and variable of this machine they read, as reproduce's plan lists them
// (reproduce.WriteReads: the engine's source folders, where git runs, the
// files its arguments name, the prompt file). Every string is escaped by
// termsafe: a state from someone else may hold anything.
func (p *ResumePlan) WritePlan(w io.Writer) {
	t, sum := termsafe.String, &p.st.Summary
	if p.Finished() {
		o := sum.Outcome
		fmt.Fprintf(w, "The bisect %s is finished (%s after %d step(s)): resuming it builds, runs and writes nothing.\n", t(p.SummaryPath), t(string(o.Result)), len(sum.Steps))
		return
	}
	fmt.Fprintf(w, "Resuming the bisect %s (%d of %d commits measured) would:\n", t(p.SummaryPath), len(sum.Steps), len(sum.Commits))
	for _, n := range p.Notes {
		fmt.Fprintf(w, "  note: %s\n", t(n))
	}
	work := fmt.Sprintf("the bisect's own work folder %s, which holds the good commit's worktree", t(p.st.WorkDir))
	switch {
	case !p.st.ownWork():
		work = fmt.Sprintf("a new temporary folder (the one bisect.json names, %s, is not one a bisect made: left as it is)", t(p.st.WorkDir))
	case !p.ReuseWork:
		work = fmt.Sprintf("a new temporary folder (the bisect's own, %s, no longer holds the good commit's worktree)", t(p.st.WorkDir))
	}
	for _, dir := range p.Leftovers {
		fmt.Fprintf(w, "  remove the worktree %s that a killed run left (after killing the build it left running, if any)\n", t(dir))
	}
	fmt.Fprintf(w, "  check commits of the repository %s out into git worktrees in %s; no hook, fsmonitor or content filter of the repository runs\n", t(p.st.Source), work)
	fmt.Fprintf(w, "  run the build command with sh -c in each worktree, the good commit's first (%s):\n    %s\n", short(sum.Good), t(sum.Build))
	if pd := sum.Pending; pd != nil {
		fmt.Fprintf(w, "  first finish step %d, commit %s (%s)", pd.N, short(pd.Commit), t(subjectOf(sum, pd.Commit)))
		if _, ok := settled(pd); ok {
			fmt.Fprint(w, ", which its campaigns decided: it is not built again\n")
		} else if n := len(pd.Campaigns); n > 0 && pd.Campaigns[n-1].Verdict == schema.Incomplete {
			fmt.Fprintf(w, ", going on with its interrupted campaign %s\n", t(filepath.ToSlash(pd.Campaigns[n-1].Record)))
		} else {
			fmt.Fprint(w, "\n")
		}
	}
	fmt.Fprintf(w, "  run the scenario %s as a campaign at each step, ${%s} the good commit's worktree, ${%s} the step's:\n", t(p.st.ScenarioPath), ReferenceVar, CandidateVar)
	reproduce.WriteEngines(w, p.Scenario)
	reproduce.WriteReads(w, p.Scenario, reproduce.Reads{
		Own:    t(p.DataDir) + ": the bisect's data folder (bisect.json, its campaigns' data), and its summary",
		Prompt: p.Scenario.PromptPath(), FromEnvironment: fromEnvironment(p.Scenario),
	})
}

// fromEnvironment names the variables the scenario takes from this
// machine's environment, the two worktrees' aside.
func fromEnvironment(s *scenarios.Scenario) []string {
	var out []string
	for _, kv := range s.VarsUsed() {
		if kv.FromEnv && kv.Key != CandidateVar && kv.Key != ReferenceVar && !slices.Contains(out, kv.Key) {
			out = append(out, kv.Key)
		}
	}
	return out
}

// subjectOf is a commit's subject, from the range.
func subjectOf(sum *schema.Bisect, sha string) string {
	for _, c := range sum.Commits {
		if c.SHA == sha {
			return c.Subject
		}
	}
	return ""
}
