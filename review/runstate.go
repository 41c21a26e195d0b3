package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/schema"
)

// stateRequired is when gather began to copy a record's campaign state
// (a campaign has always written one): a record started since then
// without it had it deleted, which would switch off every check of its
// engines, models, variables and overrides against it. Records started
// before may have been gathered without it, and are held to the stored
// scenario alone.
var stateRequired = time.Date(2026, 12, 6, 16, 0, 0, 0, time.UTC)

// runState is what check reads of the campaign state (harness's
// stateFile), once a record, to hold the data block's engines and
// machine-given text to it: each arm's engine hashes, models and identity
// (checkArmEngines), where the scenario was read from, the folder the
// campaign ran in, the values the environment gave its variables and the
// overrides (checkMachineText).
type runState struct {
	ArmEngines      map[string]string                  `json:"arm_engines"`
	ArmModels       map[string]string                  `json:"arm_models"`
	ArmIdentity     map[string]schema.EngineIdentity   `json:"arm_identity"`
	ResumedIdentity []map[string]schema.EngineIdentity `json:"resumed_identity"`

	ScenarioPath string `json:"scenario_path"`
	WorkDir      string `json:"work_dir"`
	// Vars is nil in a state from before it listed them.
	Vars *[]stateVarJSON `json:"vars"`
	// Overrides are the --set overrides the campaign started with (a
	// resume applies them again).
	Overrides []string `json:"overrides"`
	// Resumed are the campaign's resumptions so far: one the record does
	// not list began after it was written (resumeUnfinished).
	Resumed []time.Time `json:"resumed"`
}

// resumeUnfinished is the problem of a record whose data folder a resume
// has changed since it was written (it lists fewer resumptions than the
// campaign state): the resume is running, or was killed, and the record
// is superseded by the one it writes when it finishes. Check names that
// first, beside the files that no longer match.
func resumeUnfinished(d *safefs.Dir, dataDir string, rec *schema.Record) []Problem {
	st, _ := readRunState(d, rec)
	if st == nil || len(st.Resumed) <= len(rec.Method.Resumed) {
		return nil
	}
	at := st.Resumed[len(st.Resumed)-1]
	return []Problem{{"Method", fmt.Sprintf("a resume of this campaign began at %s, after this record was written, and has not written its record: "+
		"the data folder holds that resume's files; finish it with `decodebench run --resume %s` (it rewrites this record)", at.UTC().Format(time.RFC3339), termsafe.ShellJoin([]string{dataDir}))}}
}

type stateVarJSON struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Withheld bool   `json:"withheld"`
}

// readRunState reads the record's campaign state: nil where there is
// none (a problem for a record started since stateRequired), where it is
// no regular file within maxCampaignState, or where it does not parse
// (both problems, whatever the record's date).
func readRunState(d *safefs.Dir, rec *schema.Record) (*runState, []Problem) {
	b, err := d.ReadFile(campaignStateFile, maxCampaignState)
	switch {
	case errors.Is(err, fs.ErrNotExist) && rec.Method.Started.After(stateRequired):
		return nil, []Problem{{"Data", fmt.Sprintf("the data folder has no %s, which every campaign writes as it starts and gather copies (since %s): the engines, models and variables the record states cannot be held to it",
			campaignStateFile, stateRequired.Format("2006-01-02 15:04 MST"))}}
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil // a record gathered without it, or from before
	case err != nil:
		// A folder, a FIFO or a file past the bound is nothing a campaign
		// or gather leaves: taken for an absent state, it switched off
		// every check against the state of any record.
		return nil, []Problem{{"Data", fmt.Sprintf("the data folder's %s is not a campaign state (a regular file of at most %d KiB): the engines, models and variables the record states cannot be held to it",
			campaignStateFile, maxCampaignState>>10)}}
	}
	var st runState
	if json.Unmarshal(b, &st) != nil {
		return nil, []Problem{{"Engine", campaignStateFile + " does not parse"}}
	}
	return &st, nil
}
