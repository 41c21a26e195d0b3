package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// linkedChecked counts the linked records checked (tests look at it).
var linkedChecked atomic.Int64

// linkedRecord is what check found of a record a bisect summary links.
type linkedRecord struct {
	once sync.Once
	// summary is set when the file is a bisect summary: refused, not
	// checked, so that no summary leads to another.
	summary  bool
	problems []Problem
	rec      *schema.Record // its data block; nil when it does not parse
	// scenarioHash is its stored scenario's hash read without the
	// record's overrides ("" when it does not load): the meaning of the
	// scenario as stored, secrets masked (scenarios.Scenario.Hash).
	scenarioHash string
}

// record opens the record rel of a summary's steps folder, never through a
// link, and returns what check finds of it, checking it (as the record
// at path) the first time its file is met.
func (l *identityMemo) record(steps *safefs.Dir, rel, path string) (*linkedRecord, linkKey, error) {
	f, err := steps.Open(rel, safefs.MaxRecord)
	if err != nil {
		return nil, linkKey{}, err
	}
	defer f.Close()
	id, err := safefs.IdentityOf(f)
	if err != nil {
		return nil, linkKey{}, err
	}
	key := linkKey{steps.Identity(), id}
	l.mu.Lock()
	e := l.records[key]
	if e == nil {
		e = &linkedRecord{}
		l.records[key] = e
	}
	l.mu.Unlock()
	e.once.Do(func() {
		linkedChecked.Add(1)
		e.check(f, path)
	})
	return e, key, nil
}

// check reads the linked record from f and checks it as the record at
// path.
func (e *linkedRecord) check(f io.Reader, path string) {
	src, err := io.ReadAll(io.LimitReader(f, safefs.MaxRecord+1))
	switch {
	case err != nil:
		e.problems = []Problem{{"Record", termsafe.String(err.Error())}}
		return
	case len(src) > safefs.MaxRecord:
		e.problems = []Problem{{"Record", (&safefs.TooLargeError{Path: path, Limit: safefs.MaxRecord}).Error()}}
		return
	case recorder.IsBisect(src):
		e.summary = true
		return
	}
	rec, err := recorder.Parse(bytes.NewReader(src))
	if err != nil {
		e.problems = []Problem{{"Data", err.Error()}}
		return
	}
	e.problems, _ = checkRecord(path, src, rec, nil)
	e.rec = rec
	e.scenarioHash = storedScenarioHash(path, rec)
}

// checkCampaign checks one campaign of a step (of commit) against its
// linked record: the record passes check, classifies as the summary says,
// is of the bisect's feature, ran the bisect's scenario with no override
// but its rounds, and each arm ran the build of the commit it stands for
// (by its source commit, or its worktree: check_bisect_worktrees.go).
func (e *linkedRecord) checkCampaign(sec, rel string, c schema.BisectCampaign, b *schema.Bisect, commit string) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{sec, fmt.Sprintf(format, args...)})
	}
	if e.summary {
		add("record %s is a bisect summary: a step's campaign links the record of a campaign, never a summary, which is not followed", rel)
		return probs
	}
	for _, p := range e.problems {
		add("record %s: %s", rel, p)
	}
	rec := e.rec
	if rec == nil {
		return probs
	}
	fresh := analysis.ClassifyStep(rec, b.Reference, b.Candidate, b.Threshold)
	fresh.Record, fresh.Rounds = c.Record, c.Rounds
	x, _ := json.Marshal(c)
	y, _ := json.Marshal(fresh)
	if !bytes.Equal(x, y) {
		add("record %s classifies as %s (%s), the summary says %s: %s", rel, fresh.Class, dashIf(string(fresh.Why)), c.Class, firstDifference(c, fresh))
	}
	if rec.Feature != b.Feature {
		add("record %s is of feature %s, the bisect of %s", rel, rec.Feature, b.Feature)
	}
	for _, o := range rec.Scenario.Overrides {
		if o != scenarios.RoundsOverride(c.Rounds) {
			add("record %s ran with override %q; a bisect step overrides only its rounds (%d)", rel, o, c.Rounds)
		}
	}
	if e.scenarioHash != "" && e.scenarioHash != b.ScenarioHash {
		add("record %s ran scenario %.12s, the bisect %.12s", rel, e.scenarioHash, b.ScenarioHash)
	}
	for _, side := range []struct{ role, arm, commit string }{{"reference", b.Reference, b.Good}, {"candidate", b.Candidate, commit}} {
		if sc := rec.EngineOf(side.arm).SourceCommit; sc != "" && sc != side.commit {
			add("record %s: the %s arm %s ran a build of %.12s, not of %.12s", rel, side.role, side.arm, sc, side.commit)
		}
	}
	for _, p := range checkWorktrees(rec, b, commit) {
		add("record %s: %s", rel, p)
	}
	return probs
}

// storedScenarioHash is the hash of the record's stored scenario read
// without its overrides ("" when it cannot be read or does not load; a
// failure check reports). No text in it switches the comparison off: a
// masked secret hashes as stored.
func storedScenarioHash(recPath string, rec *schema.Record) string {
	dataDir, err := recorder.DataPath(recPath, rec)
	if err != nil {
		return ""
	}
	src, err := safefs.ReadFile(filepath.Join(dataDir, recorder.ScenarioFile), scenarios.MaxScenarioBytes)
	if err != nil {
		return ""
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, dataDir, src, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt})
	if err != nil {
		return ""
	}
	return s.Hash()
}
