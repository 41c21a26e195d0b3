package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// stateFile is written into the data folder when a campaign starts, so an
// interrupted campaign can be resumed: it names the scenario and the
// semantic hash the scenario must still have. It names no path decodebench
// writes to: a resume derives every path it writes from the data folder's
// own location and name (see resumeTarget), so a crafted or copied
// campaign.json cannot send a write elsewhere.
const stateFile = "campaign.json"

// maxStateBytes bounds what readState reads: the state is a few hundred
// bytes.
const maxStateBytes = 1 << 20

type state struct {
	// ScenarioPath is where the scenario was read from, for `run --resume
	// DIR` without a scenario argument; it is only ever read.
	ScenarioPath string    `json:"scenario_path"`
	ScenarioHash string    `json:"scenario_hash"`
	Started      time.Time `json:"started"`
	EngineSHA256 string    `json:"engine_sha256"`
	// ArmEngines is each arm's engine binary hash (with its wrapped
	// binary's); a resume refuses when any changed.
	ArmEngines map[string]string `json:"arm_engines,omitempty"`
	// ArmModels is each arm's model files and their hashes
	// (schema.EngineInfo.ModelKey); a resume refuses when any changed.
	// States written before it have none.
	ArmModels map[string]string `json:"arm_models,omitempty"`
	// ArmIdentity is each arm's engine as the record states it beside
	// its hashes (its command, path, version, source) when the campaign
	// started, and ResumedIdentity as each resume identified it (the
	// record written last states one of them: a resume killed before it
	// wrote its record leaves the one before). States written before it
	// have none.
	ArmIdentity     map[string]schema.EngineIdentity   `json:"arm_identity,omitempty"`
	ResumedIdentity []map[string]schema.EngineIdentity `json:"resumed_identity,omitempty"`
	// Overrides are the --set overrides the campaign started with; a
	// resume applies them again.
	Overrides []string `json:"overrides,omitempty"`
	// Resumed lists every earlier resumption.
	Resumed []time.Time `json:"resumed,omitempty"`
	// PlannedRounds are a budgeted schedule's plans at its looks so far
	// (Method.PlannedRounds): a resume keeps them.
	PlannedRounds []int `json:"planned_rounds,omitempty"`
	// Vars are the variables the environment gave the scenario when the
	// campaign started; nil in a state written before they were kept
	// (then a resume takes its own shell's). A resume runs with these
	// values, whatever its shell sets or leaves unset (vars.go).
	Vars []stateVar `json:"vars"`
	// WorkDir is the folder the campaign ran in, where its engine found
	// the relative paths of its command: a resume runs there too.
	WorkDir string `json:"work_dir,omitempty"`
}

// writeStateIn writes the state into a data folder held open: into a
// temporary file created beside it, renamed over it (never through a
// link).
func writeStateIn(d *safefs.Dir, st state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := d.WriteFile(stateFile, b, 0o644); err != nil {
		return fmt.Errorf("campaign state: %w", err)
	}
	noteOwned(d.Path(), b)
	return nil
}

// readState reads the state strictly (safefs.ReadJSON, as bisect reads
// its own): a field this decodebench does not write is refused, never
// ignored.
func readState(dataDir string) (state, error) {
	var st state
	err := safefs.ReadJSON(filepath.Join(dataDir, stateFile), maxStateBytes, &st)
	if errors.Is(err, fs.ErrNotExist) {
		return st, fmt.Errorf("resume %s: not a campaign data folder: %w", dataDir, err)
	}
	if err != nil {
		return st, fmt.Errorf("resume %s: %w", dataDir, err)
	}
	st.withheld()
	return st, nil
}

// resumeTarget derives, from the data folder's path alone, where a resumed
// campaign writes: the data folder is <out>/data/<stem>, the record
// <out>/<stem>.md, and the stem must be a record name of the scenario's
// feature. The record's hardware slug and date are the stem's. outDir, when
// set (an explicit --out), must be the data folder's <out>. The data folder
// and everything in it must be plain folders and regular files: a
// symbolic link anywhere in it is refused, never followed.
func resumeTarget(dataDir, feature, outDir string) (recPath string, stem recorder.Stem, err error) {
	fail := func(format string, args ...any) (string, recorder.Stem, error) {
		return "", recorder.Stem{}, fmt.Errorf("resume %s: "+format, append([]any{dataDir}, args...)...)
	}
	fi, err := os.Lstat(dataDir)
	switch {
	case err != nil:
		return fail("%v", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fail("the data folder is a symbolic link; name the folder itself")
	case !fi.IsDir():
		return fail("not a folder")
	}
	parent := filepath.Dir(dataDir)
	if filepath.Base(parent) != "data" {
		return fail("a campaign's data folder is <out>/data/<name>, and this one is not in a folder named data")
	}
	if stem, err = recorder.ParseStem(filepath.Base(dataDir), feature); err != nil {
		return fail("%v", err)
	}
	out := filepath.Dir(parent)
	if outDir != "" {
		abs, err := filepath.Abs(outDir)
		if err != nil {
			return fail("%v", err)
		}
		if abs != out {
			return fail("--out %s, but the data folder belongs to the records in %s; leave --out out when resuming, or name that folder", outDir, out)
		}
	}
	recPath = filepath.Join(out, stem.String()+".md")
	if fi, err := os.Lstat(recPath); err == nil && !fi.Mode().IsRegular() {
		return fail("%s is not a regular file (%s); refusing to replace it", recPath, fi.Mode().Type())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail("%v", err)
	}
	if err := checkDataDir(dataDir); err != nil {
		return fail("%v", err)
	}
	return recPath, stem, nil
}

// checkDataDir refuses a data folder holding anything but folders and
// regular files: decodebench writes none, and writing into the folder
// through a link could change a file outside it.
func checkDataDir(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		t := d.Type()
		switch {
		case t&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			return fmt.Errorf("%s is a symbolic link (to %s): a data folder decodebench wrote holds none, and resuming would write through it; remove it, or start a new campaign", rel, target)
		case t.IsDir(), t.IsRegular():
			return nil
		}
		return fmt.Errorf("%s is not a regular file (%s): a data folder decodebench wrote holds none", rel, t)
	})
}

// scenarioChanged explains a resume refused because the scenario's meaning
// changed: every key whose value differs between the data folder's
// scenario.yaml (as the campaign started, redacted) and the scenario now
// (redacted the same way: shell is the campaign's Options.Shell).
// Variables' values and the working folder are not part of the meaning,
// so they never show here. keysOnly names the keys alone: the scenario is
// a file a received data folder named (Options.ReceivedScenario), whose
// values are not to be shown.
func scenarioChanged(dataDir string, s *scenarios.Scenario, shell []string, now, was string, keysOnly bool) error {
	head := fmt.Sprintf("resume %s: the scenario changed since the campaign started (semantic hash %.12s, was %.12s): a resumed record would mix two campaigns", dataDir, now, was)
	old, err := safefs.ReadFile(filepath.Join(dataDir, recorder.ScenarioFile), scenarios.MaxScenarioBytes)
	if err != nil {
		return fmt.Errorf("%s; the started scenario cannot be shown: %v", head, err)
	}
	changes, err := scenarios.DiffYAML(old, NewRedactor(s, shell...).YAML(s.Source))
	if err != nil {
		return fmt.Errorf("%s; the two cannot be compared key by key: %v", head, err)
	}
	if len(changes) == 0 {
		return fmt.Errorf("%s; %s and the scenario agree key by key, so what changed is what it refers to: the prompt file's content, or how this decodebench reads the scenario", head, recorder.ScenarioFile)
	}
	var b strings.Builder
	if keysOnly {
		fmt.Fprintf(&b, "%s; the keys that differ from %s (their values withheld: the scenario is a file a data folder this user's decodebench did not write named):", head, filepath.Join(dataDir, recorder.ScenarioFile))
		for _, c := range changes {
			b.WriteString("\n  " + c.Path)
		}
		return errors.New(b.String())
	}
	fmt.Fprintf(&b, "%s; what differs from %s (was → now):", head, filepath.Join(dataDir, recorder.ScenarioFile))
	for _, c := range changes {
		b.WriteString("\n  " + c.String())
	}
	return errors.New(b.String())
}

// startState is the state a campaign starts with. It names the scenario
// by absolute path, so that a resume from another folder finds it. It
// names no path to write to: a resume derives those from the data folder
// (resumeTarget).
func (c *campaign) startState() state {
	s := c.scenario
	scenarioPath := s.Path
	if !strings.HasPrefix(scenarioPath, "embedded:") {
		if abs, err := filepath.Abs(scenarioPath); err == nil {
			scenarioPath = abs
		}
	}
	wd, _ := os.Getwd()
	return state{ScenarioPath: scenarioPath, ScenarioHash: s.Hash(), Started: c.rec.Method.Started,
		EngineSHA256: c.rec.Engine.SHA256, ArmEngines: c.engines.armHashes(), ArmModels: c.engines.armModels(), ArmIdentity: c.engines.armIdentity(), Overrides: s.Overrides,
		Vars: environmentVars(s), WorkDir: wd}
}

// startedPath is the scenario's path as the campaign's start named it:
// relative to the folder it ran in where it lies there (as a path given
// relative to it is written), else whole.
func (st state) startedPath() string {
	p := st.ScenarioPath
	if st.WorkDir == "" || strings.HasPrefix(p, "embedded:") {
		return p
	}
	if rel, err := filepath.Rel(st.WorkDir, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}
