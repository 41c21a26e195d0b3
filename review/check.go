// Package review holds what a reviewer runs on records: check (is this
// record what it claims, and does it follow from its raw runs?), diff
// (what moved between two records, and were they comparable?), index
// (every record of a folder at a glance) and identity (do stored outputs
// agree?). Nothing here executes anything a record or its data folder
// contains.
package review

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/analysis"
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

// Sections every record has, in order.
var requiredSections = []string{"## Summary", "## Engine", "## Machine", "## Method", "## Counter evidence", "## Raw runs", "## Not measured", "## Data"}

// Check lints a record the way a careful reviewer would and returns every
// problem found: the data block parses (exactly one, the last fenced
// block); the required sections are there and not empty; the data folder
// holds every file the record names with the sha256 it names, and nothing
// else; each run's output hash matches its output; a fresh analysis of
// runs.jsonl under the stored scenario gives the data block's analysis and
// verdict; and the Markdown is exactly what the data block and the runs
// render to, so a number edited by hand in any of the three places is
// caught.
//
// Every file is read through the guarded reader (safefs: regular files
// only, never through a link, never blocking, within its size cap), and
// check stops at the first integrity failure: a file whose sha256 is not
// the one the record names, or a run whose output does not match its hash,
// is reported and nothing is analysed or rendered from it. A bisect
// summary is checked as one (checkBisect).
func Check(recordPath string) []Problem {
	src, err := safefs.ReadFile(recordPath, safefs.MaxRecord)
	if err != nil {
		return []Problem{{"Record", termsafe.String(err.Error())}}
	}
	if recorder.IsBisect(src) {
		return checkBisect(recordPath, src)
	}
	rec, err := recorder.Parse(bytes.NewReader(src))
	if err != nil {
		return []Problem{{"Data", err.Error()}}
	}
	return checkRecord(recordPath, src, rec, nil)
}

// checkRecord is Check of a record already read (src) and parsed (rec,
// which it does not change). scan, when not nil, is its data folder as
// the cache's key read it (every entry, each regular file's sha256):
// the folder is then not walked and its files not hashed again.
func checkRecord(recordPath string, src []byte, parsed *schema.Record, scan *folderScan) []Problem {
	r := *parsed
	rec := &r
	var probs []Problem
	add := func(section, format string, args ...any) {
		probs = append(probs, Problem{section, fmt.Sprintf(format, args...)})
	}
	probs = append(probs, checkSections(string(src), rec)...)
	probs = append(probs, checkEngines(rec)...)

	dataDir, err := recorder.DataPath(recordPath, rec)
	if err != nil {
		add("Data", "%s", termsafe.String(err.Error()))
		return probs
	}
	if st, err := os.Lstat(dataDir); err != nil || !st.IsDir() {
		add("Raw runs", "data folder %s is missing", termsafe.String(rec.DataDir))
		return probs
	}
	d, err := recorder.OpenData(recordPath, rec)
	if err != nil {
		add("Raw runs", "%s", termsafe.String(err.Error()))
		return probs
	}
	defer d.Close()
	fileProbs, intact := checkFiles(d, dataDir, rec, scan)
	probs = append(probs, fileProbs...)
	if !intact {
		return probs
	}

	runsBytes, err := d.ReadFile(recorder.RunsFile, safefs.MaxRuns)
	if err != nil {
		add("Raw runs", "%s", termsafe.String(err.Error()))
		return probs
	}
	runs, err := recorder.ParseRunsBytes(runsBytes, recorder.RunsFile)
	if err != nil {
		add("Raw runs", "%v", err)
		return probs
	}
	for _, r := range runs {
		if r.OutputSHA256 == "" {
			continue
		}
		if sum := sha256.Sum256([]byte(r.Output)); hex.EncodeToString(sum[:]) != r.OutputSHA256 {
			add("Raw runs", "run %d (%s): output_sha256 %.12s does not match its output (%.12s)", r.Seq, termsafe.String(r.Arm), termsafe.String(r.OutputSHA256), hex.EncodeToString(sum[:]))
			return probs
		}
	}
	if p := streamsProblem(runs); p != nil {
		return append(probs, *p)
	}
	rec.Runs = runs

	scenarioBytes, err := d.ReadFile(recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		add("Summary", "stored scenario: %s", termsafe.String(err.Error()))
		return probs
	}
	s, err := storedScenario(dataDir, scenarioBytes, rec.Scenario.Request.Prompt, rec.Scenario.Overrides)
	if err != nil {
		add("Summary", "stored scenario does not load: %s", termsafe.String(abbrev.FirstLine(err.Error())))
		return probs
	}
	if s.Hash() != rec.Scenario.Hash && !strings.Contains(string(scenarioBytes), "[redacted]") {
		add("Summary", "stored scenario hashes to %.12s, the record names %.12s", s.Hash(), rec.Scenario.Hash)
	}
	probs = append(probs, checkAnalysis(s.Policy, rec)...)
	probs = append(probs, checkRendering(src, rec)...)
	return probs
}

// checkSections finds each required section and says which are missing,
// out of order, or empty.
func checkSections(md string, rec *schema.Record) []Problem {
	var probs []Problem
	lines := strings.Split(md, "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "# ") {
		probs = append(probs, Problem{"Title", "the record does not start with its title"})
	}
	want := append([]string{}, requiredSections...)
	if rec.Verdict.ShowsResults() && len(rec.Analysis.Results) > 0 {
		want = append(want, "## Results")
	}
	if rec.Analysis.Identity != nil {
		want = append(want, "## Output identity")
	}
	body := map[string]int{}
	current := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "## ") {
			if _, dup := body[l]; dup {
				probs = append(probs, Problem{strings.TrimPrefix(l, "## "), "section appears twice"})
			}
			current = l
			body[l] = 0
			continue
		}
		if current != "" && strings.TrimSpace(l) != "" {
			body[current]++
		}
	}
	for _, h := range want {
		n, ok := body[h]
		switch {
		case !ok:
			probs = append(probs, Problem{strings.TrimPrefix(h, "## "), "section missing"})
		case n == 0:
			probs = append(probs, Problem{strings.TrimPrefix(h, "## "), "section empty"})
		}
	}
	return probs
}

// checkFiles compares the data folder with the record's list of files. It
// reports every file the record names that is missing and every file it
// does not name, but stops at the first file whose sha256 differs (intact
// false): nothing read from a changed folder is analysed.
//
// With scan, the sha256 and the list of entries are the scan's (a file
// over its size cap is still opened, and refused, through d).
func checkFiles(d *safefs.Dir, dataDir string, rec *schema.Record, scan *folderScan) (probs []Problem, intact bool) {
	intact = true
	listed := map[string]string{}
	for _, f := range rec.Files {
		clean := path.Clean(f.Path)
		if f.Path == "" || path.IsAbs(f.Path) || clean != f.Path || strings.HasPrefix(clean, "../") || clean == ".." {
			probs = append(probs, Problem{"Data", fmt.Sprintf("file %q is not a plain path inside the data folder", f.Path)})
			continue
		}
		listed[f.Path] = f.SHA256
	}
	for _, need := range []string{recorder.RunsFile, recorder.ScenarioFile} {
		if _, ok := listed[need]; !ok {
			probs = append(probs, Problem{"Data", "the record names no sha256 for " + need})
		}
	}
	for _, f := range rec.Files {
		if _, ok := listed[f.Path]; !ok {
			continue
		}
		var got string
		var err error
		if sf, ok := scan.file(f.Path); ok && sf.size <= sizeCap(f.Path) {
			got = sf.sha256
		} else {
			got, err = hashIn(d, f.Path)
		}
		if err != nil {
			probs = append(probs, Problem{sectionOf(f.Path), termsafe.String(err.Error())})
			intact = false
			continue
		}
		if got != f.SHA256 {
			probs = append(probs, Problem{sectionOf(f.Path), fmt.Sprintf("%s has sha256 %.12s, the record names %.12s: changed after the record was written", f.Path, got, termsafe.String(f.SHA256))})
			return probs, false
		}
	}
	unlisted := func(rel string) {
		if _, ok := listed[rel]; !ok && rel != "campaign.json" {
			probs = append(probs, Problem{"Data", fmt.Sprintf("%s is in the data folder but the record does not name it", termsafe.String(rel))})
		}
	}
	if scan != nil {
		for _, rel := range scan.entries {
			unlisted(rel)
		}
		return probs, intact
	}
	_ = filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dataDir, p)
		unlisted(filepath.ToSlash(rel))
		return nil
	})
	return probs, intact
}

// sizeCap is the most bytes check reads of a data folder's file.
func sizeCap(rel string) int64 {
	if rel == recorder.RunsFile {
		return safefs.MaxRuns
	}
	return safefs.MaxDataFile
}

// hashIn is the sha256 of a data folder's file, read through the guarded
// reader.
func hashIn(d *safefs.Dir, rel string) (string, error) {
	limit := sizeCap(rel)
	f, err := d.Open(rel, limit)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, limit+1)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func sectionOf(file string) string {
	switch {
	case file == recorder.RunsFile || strings.HasPrefix(file, "logs/"):
		return "Raw runs"
	case file == recorder.ScenarioFile:
		return "Summary"
	case strings.HasSuffix(file, ".png") || strings.HasSuffix(file, ".svg"):
		return "Results"
	}
	return "Data"
}

// checkAnalysis re-derives the analysis from the runs and compares it with
// the data block's.
func checkAnalysis(p scenarios.Policy, rec *schema.Record) []Problem {
	fresh, verdict, err := analysis.Record(p, rec.Runs, rec.Method, rec.Schema)
	if err != nil {
		return []Problem{{"Method", err.Error()}}
	}
	var probs []Problem
	if verdict != rec.Verdict {
		probs = append(probs, Problem{"Title", fmt.Sprintf("verdict %s, but the runs give %s", rec.Verdict, verdict)})
	}
	if sameJSON(rec.Analysis, fresh) {
		return probs
	}
	a, _ := json.Marshal(rec.Analysis)
	b, _ := json.Marshal(fresh)
	if !bytes.Equal(a, b) {
		probs = append(probs, Problem{"Data", "the data block's analysis differs from a fresh analysis of runs.jsonl: " + firstDifference(rec.Analysis, fresh)})
	}
	return probs
}

// firstDifference names the first JSON path at which two values differ.
func firstDifference(a, b any) string {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &x)
	_ = json.Unmarshal(jb, &y)
	if p := diffPath("", x, y); p != "" {
		return p
	}
	return "(somewhere)"
}

func diffPath(at string, x, y any) string {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok {
			return at
		}
		keys := map[string]bool{}
		for k := range xv {
			keys[k] = true
		}
		for k := range yv {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			if p := diffPath(at+"."+k, xv[k], yv[k]); p != "" {
				return p
			}
		}
		return ""
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return at
		}
		for i := range xv {
			if p := diffPath(fmt.Sprintf("%s[%d]", at, i), xv[i], yv[i]); p != "" {
				return p
			}
		}
		return ""
	}
	if fmt.Sprint(x) != fmt.Sprint(y) {
		return fmt.Sprintf("%s is %v in the record, %v from the runs", at, x, y)
	}
	return ""
}

// checkRendering renders the record from its data block and runs and
// compares it with the file, line by line.
func checkRendering(src []byte, rec *schema.Record) []Problem {
	var buf bytes.Buffer
	if err := recorder.Markdown(&buf, rec); err != nil {
		return []Problem{{"Data", err.Error()}}
	}
	if bytes.Equal(buf.Bytes(), src) {
		return nil
	}
	got := lines(src)
	want := lines(buf.Bytes())
	var probs []Problem
	section := "Title"
	for i := 0; i < max(len(got), len(want)) && len(probs) < 10; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if strings.HasPrefix(g, "## ") {
			section = strings.TrimPrefix(g, "## ")
		}
		if g != w {
			probs = append(probs, Problem{section, fmt.Sprintf("line %d does not follow from the data block and the runs:\n      in the record: %s\n      rendered:      %s", i+1, excerpt(g), excerpt(w))})
			if len(got) != len(want) {
				break // a line added or removed shifts every line after it
			}
		}
	}
	return probs
}

func lines(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func excerpt(s string) string {
	if r := []rune(s); len(r) > 160 {
		return termsafe.String(string(r[:160])) + "…"
	}
	return termsafe.String(s)
}

// checkEngines checks a record whose arms ran several engines: it is v4,
// every arm is listed under exactly one engine, the engines differ, and
// Engine is the baseline's. A v3 or v2 record has no Engines.
func checkEngines(rec *schema.Record) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Engine", fmt.Sprintf(format, args...)})
	}
	switch {
	case len(rec.Engines) == 0 && rec.Schema == schema.SchemaV4:
		add("a %s record lists the engines its arms ran, this one none", rec.Schema)
		return probs
	case len(rec.Engines) == 0:
		return nil
	case rec.Schema != schema.SchemaV4:
		add("a %s record cannot list engines per arm (that is %s)", rec.Schema, schema.SchemaV4)
	case len(rec.Engines) < 2:
		add("one engine listed per arm: a record whose arms ran one engine names it once")
	}
	seen := map[string]int{}
	for _, e := range rec.Engines {
		for _, a := range e.Arms {
			seen[a]++
		}
	}
	for _, a := range rec.Scenario.Arms {
		if seen[a.Name] != 1 {
			add("arm %s is listed under %d engines, want 1", a.Name, seen[a.Name])
		}
		delete(seen, a.Name)
	}
	for a := range seen {
		add("engine listed for %s, which is not an arm", a)
	}
	if b := rec.EngineOf(rec.Scenario.Baseline); b.SHA256 != rec.Engine.SHA256 || b.Path != rec.Engine.Path {
		add("the record's engine is not the baseline %s's", rec.Scenario.Baseline)
	}
	return probs
}
