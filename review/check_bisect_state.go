package review

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// maxBisectState bounds the state read (bisect's maxStateBytes).
const maxBisectState = 16 << 20

// checkBisectState binds the summary to the resume state bisect writes
// beside it (bisectStateFile, written before the summary at every save,
// since bisect's first version): what the bisect is, its range, build
// command, scenario, arms and threshold, is what the state says (as
// bisect --resume requires), and each step the summary states is the
// state's step of that number (the state may be a step ahead: a crash
// between the two writes). Nothing else in the summary binds the
// threshold: its steps and outcome follow from any threshold the steps'
// ratios do not straddle, so a summary re-rendered at another one would
// otherwise pass.
func checkBisectState(d *safefs.Dir, b *schema.Bisect) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Data", fmt.Sprintf(format, args...)})
	}
	src, err := d.ReadFile(bisectStateFile, maxBisectState)
	if err != nil {
		add("the bisect's state (%s), which bisect writes beside every summary: %v", bisectStateFile, err)
		return probs
	}
	var st struct {
		Summary schema.Bisect `json:"summary"`
	}
	if err := json.Unmarshal(src, &st); err != nil {
		add("%s: %v", bisectStateFile, err)
		return probs
	}
	x, _ := json.Marshal(bisectIdentity(st.Summary))
	y, _ := json.Marshal(bisectIdentity(*b))
	if !bytes.Equal(x, y) {
		add("%s and the summary disagree on what the bisect is (its range, build command, scenario, arms or threshold: %v there, %v here)", bisectStateFile, st.Summary.Threshold, b.Threshold)
		return probs
	}
	for i, s := range b.Steps {
		if i >= len(st.Summary.Steps) {
			add("the summary states step %d, which %s does not", s.N, bisectStateFile)
			break
		}
		x, _ := json.Marshal(st.Summary.Steps[i])
		y, _ := json.Marshal(s)
		if !bytes.Equal(x, y) {
			add("step %d is not what %s says of it", s.N, bisectStateFile)
		}
	}
	return probs
}

// bisectIdentity is what a bisect is, less where it stands (bisect's
// identity).
func bisectIdentity(b schema.Bisect) schema.Bisect {
	b.ReferenceBuild, b.Steps, b.Pending, b.Outcome, b.Files = schema.BisectBuild{}, nil, nil, schema.BisectOutcome{}, nil
	return b
}
