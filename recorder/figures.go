package recorder

import (
	"os"

	"github.com/decodebench/decodebench/schema"
)

// maxFigureText bounds a text a run's figures keep that its record does
// not name (an arm outside the scenario, an error): a run of a hostile
// record may carry tens of megabytes in any of its strings.
const maxFigureText = 4 << 10

// LoadFigures is Load that keeps of each run its figures only (Figures),
// never its generated text or token ids: what diff and export read of a
// record's runs, held in memory of the order of the runs' count, not of
// runs.jsonl's size (up to safefs.MaxRuns).
func LoadFigures(path string) (*schema.Record, error) {
	var runs []schema.Run
	rec, err := LoadWith(path, func(rec *schema.Record, _ *os.File) (func(schema.Run) error, error) {
		keep := AppendRun(&runs, path+": "+RunsFile)
		return func(r schema.Run) error { return keep(Figures(rec, r)) }, nil
	})
	if err != nil {
		return nil, err
	}
	rec.Runs = runs
	return rec, nil
}

// Figures is what a reader of a run's figures reads of it, the rest
// left out: its place in the plan (seq, round, arm, attempt, start), its
// times and token count, its metrics and those of its measured requests
// (Analysed), the host's load and contention samples with the busiest
// other process of the window (which names a remedy), whether it failed
// (its error, cut to maxFigureText), its output's sha256, and its log
// where the record names that file (history.Campaign). Its text, its
// reasoning, token ids, streams, other requests, counters and the host's
// other processes are not kept. An arm the record's scenario names is its
// scenario's string, shared by every run; another, and a process's name,
// is cut to maxFigureText.
func Figures(rec *schema.Record, r schema.Run) schema.Run {
	f := schema.Run{
		Seq: r.Seq, Round: r.Round, Arm: armOf(rec, r.Arm), Attempt: r.Attempt, Start: r.Start,
		Seconds: r.Seconds, CooldownS: r.CooldownS, ReadyS: r.ReadyS, Tokens: r.Tokens,
		Metrics: r.Metrics, LoadBefore: r.LoadBefore, LoadAfter: r.LoadAfter,
		Error: cut(r.Error), OutputSHA256: cut(r.OutputSHA256),
	}
	if r.Contention != nil {
		c := *r.Contention
		if p := c.Culprit; p != nil {
			// The busiest other process names the remedy a verdict's
			// sentences give (style.busyRemedy), the headline's too.
			c.Culprit = &schema.HostProcess{PID: p.PID, Name: cut(p.Name), Reason: cut(p.Reason), Cores: p.Cores, GPUMemMiB: p.GPUMemMiB}
		}
		c.Next, c.GPUOthers = nil, nil
		f.Contention = &c
	}
	for _, q := range r.Requests {
		if q.Kind == schema.RequestMeasured {
			f.Requests = append(f.Requests, schema.ServedRequest{Kind: q.Kind, Metrics: q.Metrics, Tokens: q.Tokens})
		}
	}
	for _, file := range rec.Files {
		if r.Log != "" && file.Path == r.Log {
			f.Log = file.Path
			break
		}
	}
	return f
}

// armOf is arm as the record's scenario spells it when it names it, else
// cut to maxFigureText.
func armOf(rec *schema.Record, arm string) string {
	for _, a := range rec.Scenario.Arms {
		if a.Name == arm {
			return a.Name
		}
	}
	return cut(arm)
}

// cut is s, or its first maxFigureText bytes when longer (as a copy: a
// slice would keep the whole text).
func cut(s string) string {
	if len(s) <= maxFigureText {
		return s
	}
	return string([]byte(s[:maxFigureText]))
}
