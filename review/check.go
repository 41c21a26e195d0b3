package review

import (
	"bytes"
	"fmt"
	"os"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Problem is one thing wrong with a record, with the section it is in.
type Problem struct {
	Section string
	Message string
}

func (p Problem) String() string { return p.Section + ": " + p.Message }

// Check lints a record the way a careful reviewer would and returns every
// problem found: the data block parses (exactly one, the last fenced
// block); the required sections are there and not empty; the data folder
// holds every file the record names with the sha256 it names, and nothing
// else; each run's output hash matches its output; a fresh analysis of
// runs.jsonl under the stored scenario gives the data block's analysis and
// verdict; and the Markdown is exactly what the data block and the runs
// render to, so a number edited by hand in any of the three places is
// caught. The data folder is data/<the record file's name without .md>,
// as the harness writes it (recorder.Reserve), so that no two records
// share one campaign's runs.
//
// Every file is read through the guarded reader (safefs: regular files
// only, never through a link, never blocking, within its size cap), and
// check stops at the first integrity failure: a file whose sha256 is not
// the one the record names, or a run whose output does not match its hash,
// is reported and nothing is analysed or rendered from it. A bisect
// summary is checked as one (checkBisect).
func Check(recordPath string) []Problem { return check(recordPath, newIdentityMemo()) }

// check is Check with the records bisect summaries link kept in links.
func check(recordPath string, links *identityMemo) []Problem {
	probs, _ := checkNoted(recordPath, links)
	return probs
}

// checkNoted is check, and the notes of a record (checkRecord).
func checkNoted(recordPath string, links *identityMemo) ([]Problem, []string) {
	src, err := safefs.ReadFile(recordPath, safefs.MaxRecord)
	if err != nil {
		return []Problem{{"Record", termsafe.String(err.Error())}}, nil
	}
	if err := safefs.TooManyLines(src); err != nil {
		return []Problem{{"Record", "a record of " + err.Error()}}, nil
	}
	if recorder.IsBisect(src) {
		return checkBisect(recordPath, src, links), nil
	}
	rec, err := recorder.Parse(bytes.NewReader(src))
	if err != nil {
		return []Problem{{"Data", err.Error()}}, nil
	}
	return checkRecord(recordPath, src, rec, nil)
}

// checkRecord is Check of a record already read (src) and parsed (rec,
// which it does not change), with its notes: what its runs give under
// today's rule where its own rule judges them otherwise (checkRule).
// scan, when not nil, is its data folder as the cache's key read it
// (every entry, each regular file's sha256): the folder is then not
// walked and its files not hashed again.
func checkRecord(recordPath string, src []byte, parsed *schema.Record, scan *folderScan) ([]Problem, []string) {
	r := *parsed
	rec := &r
	var probs []Problem
	add := func(section, format string, args ...any) {
		probs = append(probs, Problem{section, fmt.Sprintf(format, args...)})
	}
	probs = append(probs, checkSections(string(src), rec)...)
	probs = append(probs, checkEngines(rec)...)
	probs = append(probs, recordSecrets(rec)...)
	probs = append(probs, checkPlots(rec)...)

	dataDir, err := recorder.DataPath(recordPath, rec)
	if err != nil {
		add("Data", "%s", termsafe.String(err.Error()))
		return probs, nil
	}
	if want := ownDataDir(recordPath); rec.DataDir != want {
		add("Data", "data folder %s is not %s, the one the harness writes beside a record of this file name: a record's runs are its own, not another record's", termsafe.String(rec.DataDir), termsafe.String(want))
	}
	probs = append(probs, checkName(recordPath, rec)...)
	probs = append(probs, checkHistory(recordPath, rec)...)
	if st, err := os.Lstat(dataDir); err != nil || !st.IsDir() {
		add("Raw runs", "data folder %s is missing", termsafe.String(rec.DataDir))
		return probs, nil
	}
	d, err := recorder.OpenData(recordPath, rec)
	if err != nil {
		add("Raw runs", "%s", termsafe.String(err.Error()))
		return probs, nil
	}
	defer d.Close()
	fileProbs, intact := checkFiles(d, dataDir, rec, scan)
	if len(fileProbs) > 0 {
		probs = append(probs, resumeUnfinished(d, dataDir, rec)...)
	}
	probs = append(probs, fileProbs...)
	if !intact {
		return probs, nil
	}

	runs, release, p := readRuns(d, rec, int64(len(src)))
	defer release()
	if p != nil {
		return append(probs, *p), nil
	}
	probs = append(probs, runSecrets(runs)...)
	if p := streamsProblem(runs); p != nil {
		return append(probs, *p), nil
	}
	rec.Runs = runs
	probs = append(append(append(probs, checkLoaded(rec)...), checkRoofline(rec)...), checkTimeUse(rec)...)
	probs = append(probs, checkFootprint(rec)...)

	scenarioBytes, err := d.ReadFile(recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		add("Summary", "stored scenario: %s", termsafe.String(err.Error()))
		return probs, nil
	}
	s, err := storedScenario(dataDir, scenarioBytes, rec.Scenario.Request.Prompt, rec.Scenario.Overrides)
	if err != nil {
		add("Summary", "stored scenario does not load: %s", termsafe.String(abbrev.FirstLine(err.Error())))
		return probs, nil
	}
	if s.Hash() != rec.Scenario.Hash {
		add("Summary", "stored scenario hashes to %.12s, the record names %.12s", s.Hash(), rec.Scenario.Hash)
	}
	probs = append(probs, checkFrame(s, rec)...)
	probs = append(probs, checkRooflineOrigins(s, rec)...)
	probs = append(probs, checkLifecycle(s, rec)...)
	probs = append(probs, checkSlots(s, rec)...)
	probs = append(probs, checkRequests(s, rec)...)
	probs = append(probs, checkEvidence(d, s, rec)...)
	probs = append(probs, checkFailedRuns(d, s, rec)...)
	probs = append(probs, checkDerived(s, rec)...)
	probs = append(probs, checkPlanAndTimes(s, rec)...)
	st, stProbs := readRunState(d, rec)
	probs = append(probs, stProbs...)
	probs = append(probs, checkArmEngines(s, rec, d, st)...)
	probs = append(probs, checkMachineText(dataDir, scenarioBytes, s, rec, st)...)
	probs = append(probs, checkAnalysis(s.Policy, rec)...)
	ruleProbs, notes := checkRule(s, rec)
	probs = append(probs, ruleProbs...)
	probs = append(probs, checkRendering(src, rec)...)
	return probs, notes
}

// ownDataDir is the data folder of the record at recordPath as the
// harness names it: data/<its file name without .md>.
// checkName holds the record's feature, hardware and date to its file
// name, which the harness makes of them: regime, history and index group
// records by what the record says, so one renamed inside (a xeon record
// stating epyc) would be counted as another machine's.
func checkName(recordPath string, rec *schema.Record) []Problem {
	stem := recordStem(recordPath)
	st, err := recorder.ParseStem(stem, rec.Feature)
	switch {
	case err != nil:
		return []Problem{{"Data", termsafe.String(fmt.Sprintf("the record states feature %q: %v", rec.Feature, err))}}
	case st.Hardware != rec.Hardware || st.Date != rec.Date:
		return []Problem{{"Data", termsafe.String(fmt.Sprintf("the record states hardware %q and date %s, its file name %s and %s: the harness names a record by its own", rec.Hardware, rec.Date, st.Hardware, st.Date))}}
	}
	return nil
}

func ownDataDir(recordPath string) string {
	return "data/" + recordStem(recordPath)
}
