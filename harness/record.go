package harness

import (
	"os"

	"github.com/decodebench/decodebench/analysis"
	"path/filepath"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// newRecord is the record's frame before any run: method, machine and
// scenario as the campaign starts.
func (c *campaign) newRecord(hw, date string, id schema.MachineInfo, started time.Time) *schema.Record {
	s := c.scenario
	c.rule = analysis.Current()
	rec := &schema.Record{
		Schema:   schema.SchemaV5,
		Hardware: hw,
		Date:     date,
		Machine:  id,
		Scenario: schema.ScenarioInfo{
			Path:      s.Path,
			Hash:      s.Hash(),
			Vars:      listedVars(s, c.redact),
			Warnings:  c.opt.ScenarioWarnings,
			Overrides: s.Overrides,
		},
		Method: schema.Method{
			Started: started, Rule: c.rule.Name,
			Version: c.opt.Version, Commit: c.opt.Commit, Dirty: c.opt.Dirty,
		},
	}
	// What the scenario alone decides; check compares it with the stored
	// scenario's.
	s.Frame(rec)
	for i, a := range s.Arms {
		l := s.Launch(a.Name)
		rec.Scenario.Arms[i].Command, rec.Scenario.Arms[i].Env = c.redact.Args(l.Command), c.redact.Env(l.Env)
	}
	rel, err := filepath.Rel(filepath.Dir(c.recPath), c.dataDir)
	if err != nil {
		rel = c.dataDir
	}
	rec.DataDir = filepath.ToSlash(rel)
	rec.Places = places()
	return rec
}

// conclude analyses the runs and puts the analysis into the record.
func (c *campaign) conclude() {
	c.rec.Method.Footprint = schema.FootprintTotal(c.rec.Runs)
	a := analysis.Analyze(c.input(c.rec.Runs))
	c.rec.Analysis, c.rec.Verdict = analysis.Stored(a.Analysis, c.rec.Schema), a.Verdict
}

// input is the analysis' input of runs of the campaign, under its rule.
func (c *campaign) input(runs []schema.Run) analysis.Input {
	return analysis.NewInput(c.policy, c.rule, runs, c.rec.Method)
}

// writeOutputs writes the plots, lists the data folder's files as
// decodebench left them into the record (sealed.go), and writes the
// record; it fails, the record written, where the folder is not as
// decodebench left it.
func (c *campaign) writeOutputs() error {
	c.rec.Plots = c.writePlots()
	// Every string of the record (data block and Markdown alike) is masked.
	c.redact.Walk(c.rec)
	if err := c.checkFolders(); err != nil {
		return err
	}
	files, probs, err := c.listFiles()
	if err != nil {
		return err
	}
	c.rec.Files = files
	if err := recorder.WriteIn(c.out, filepath.Base(c.recPath), c.rec); err != nil {
		return err
	}
	if len(probs) > 0 {
		return sealError(c.recPath, probs)
	}
	return nil
}

// commandKind is the record's engine kind: "command" for a command-line
// engine, "" for a server (as records before the field).
func commandKind(s *scenarios.Scenario) string {
	if s.Engine.IsCommand() {
		return string(scenarios.KindCommand)
	}
	return ""
}

// places are the folders the record's Markdown shows paths relative to:
// the repository decodebench runs in (the nearest folder up from the
// current one that holds .git; the current one outside a repository) and
// the home folder.
func places() *schema.Places {
	p := &schema.Places{Command: true}
	if wd, err := os.Getwd(); err == nil {
		p.Repo = wd
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				p.Repo = d
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if h, err := os.UserHomeDir(); err == nil && h != "/" {
		p.Home = h
	}
	return p
}
