package review

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// launchName is a committed server record: three arms, every run's log
// starting with the command line the harness launched.
const launchName = "spec-draft-epyc-2026-12-05-4"

// forgedRecord writes the committed record name with its data block
// edited by rec and its runs by runs, its logs copied and then edited by
// logs, everything re-hashed, analysed again and rendered: a forger's
// record, which only a check that reads the logs can tell.
func forgedRecord(t *testing.T, name string, rec func(*schema.Record), runs func([]schema.Run), logs ...logEdit) string {
	t.Helper()
	r, scen, s := committedRecord(t, name)
	rs := slices.Clone(r.Runs)
	r.Scenario.Arms = slices.Clone(r.Scenario.Arms)
	for i := range r.Scenario.Arms {
		r.Scenario.Arms[i].Command = slices.Clone(r.Scenario.Arms[i].Command)
	}
	if rec != nil {
		rec(r)
	}
	if runs != nil {
		runs(rs)
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", name, "logs"), filepath.Join(dir, "data", name, "logs"))
	for _, e := range logs {
		p := filepath.Join(dir, "data", name, e.log)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(e.edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return writeRecordRuns(t, dir, name, r, scen, s, rs)
}

// armIndex is the index of the record's arm named arm.
func armIndex(t *testing.T, r *schema.Record, arm string) int {
	t.Helper()
	for i, a := range r.Scenario.Arms {
		if a.Name == arm {
			return i
		}
	}
	t.Fatalf("no arm %s", arm)
	return -1
}

// An arm's command line in the data block that is not the one every
// run's log launched fails check, once an arm, naming the run, its log,
// both command lines and how many more runs launched otherwise; a mask
// in the log stands only for its argument's text; a log that names no
// launch fails; the record as written passes, and so does a command
// engine's, whose runs launch under their labels.
func TestCheckComparesCommandsWithLaunches(t *testing.T) {
	appendArg := func(arm string, args ...string) func(*schema.Record) {
		return func(r *schema.Record) {
			i := armIndex(t, r, arm)
			r.Scenario.Arms[i].Command = append(r.Scenario.Arms[i].Command, args...)
		}
	}
	mask := func(log, text string) logEdit {
		return logEdit{log: log, edit: func(s string) string { return strings.Replace(s, text, redact.Mask, 1) }}
	}
	for name, c := range map[string]struct {
		record string
		rec    func(*schema.Record)
		logs   []logEdit
		want   []string
	}{
		"as written": {launchName, nil, nil, nil},
		"argument appended": {launchName, appendArg("draft", "--spec-draft-n-max", "32"), nil, []string{
			"Engine: run 3 (draft): its log logs/run-003-draft.log launched \"",
			"--spec-draft-model .cache/models/draft.gguf\"; the data block states arm draft's command line as \"",
			"draft.gguf --spec-draft-n-max 32\" (${PORT} filled with the run's port ",
			"(and 9 more run(s) alike)"}},
		"argument changed": {launchName, func(r *schema.Record) {
			c := r.Scenario.Arms[armIndex(t, r, "classic")].Command
			c[slices.Index(c, "-t")+1] = "4"
		}, nil, []string{"Engine: run 1 (classic): its log logs/run-001-classic.log launched \"", "--metrics -t 4 -np 1"}},
		"command engine": {evidenceName, nil, nil, nil},
		"command engine's argument changed": {evidenceName, func(r *schema.Record) {
			c := r.Scenario.Arms[armIndex(t, r, "t1")].Command
			c[len(c)-1] = "8"
		}, nil, []string{"(t1): its log logs/run-", ".log launched \"", "-c 512 -t 8\" (${PORT} filled"}},
		// The log masked an argument the record states: the mask hides
		// that argument's text only.
		"masked in the log": {launchName, nil, []logEdit{mask("logs/run-003-draft.log", ".cache/models/draft.gguf")}, nil},
		"masked, an argument appended": {launchName, appendArg("draft", "--spec-draft-n-max", "32"),
			[]logEdit{mask("logs/run-003-draft.log", ".cache/models/draft.gguf")},
			[]string{"Engine: run 3 (draft): its log logs/run-003-draft.log launched \"", "--spec-draft-model [redacted]\";"}},
		"no launch": {launchName, nil, []logEdit{{log: "logs/run-001-classic.log", edit: func(s string) string {
			_, rest, _ := strings.Cut(s, "\n")
			return rest
		}}}, []string{"Engine: run 1 (classic): its log logs/run-001-classic.log names no launch of the engine"}},
	} {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, p := range Check(forgedRecord(t, c.record, c.rec, nil, c.logs...)) {
				got = append(got, p.String())
			}
			wantProblems(t, strings.Join(got, "\n"), c.want...)
		})
	}
}

// A record whose runs' times are shifted apart from their logs' (a copy
// of a campaign re-dated a day, its logs byte for byte the original's)
// fails check, naming the first run, its log's marker and the run's
// times; so does a marker whose time does not read, and one shifted
// within a run's log past the slack; the record as written passes.
func TestCheckHoldsRunTimesToLogs(t *testing.T) {
	shift := func(d time.Duration) func([]schema.Run) {
		return func(runs []schema.Run) {
			for i := range runs {
				runs[i].Start = runs[i].Start.Add(d)
			}
		}
	}
	for name, c := range map[string]struct {
		runs func([]schema.Run)
		logs []logEdit
		want []string
	}{
		"as written": {nil, nil, nil},
		"a day later": {shift(24 * time.Hour), nil, []string{
			"Raw runs: run 1 (classic): its log logs/run-001-classic.log has a marker line of 2026-12-05T09:34:51.24688559Z (\"start: ",
			"outside the run's 2026-12-06T09:34:51.234972221Z to 2026-12-06T09:34:57.", "(and 29 more run(s) alike)"}},
		"a few seconds earlier": {shift(-5 * time.Second), nil, []string{"Raw runs: run 1 (classic): its log logs/run-001-classic.log has a marker line of "}},
		"a marker's time": {nil, []logEdit{{log: "logs/run-002-control.log", edit: func(s string) string {
			return strings.Replace(s, "decodebench: 2026-12-05T", "decodebench: 2026-12-07T", 1)
		}}}, []string{"Raw runs: run 2 (control): its log logs/run-002-control.log has a marker line of 2026-12-07T"}},
		"a time that does not read": {nil, []logEdit{{log: "logs/run-002-control.log", edit: func(s string) string {
			return strings.Replace(s, "decodebench: 2026-12-05T", "decodebench: yesterday,T", 1)
		}}}, []string{"Raw runs: run 2 (control): its log logs/run-002-control.log has a marker line whose time does not read"}},
	} {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, p := range Check(forgedRecord(t, launchName, nil, c.runs, c.logs...)) {
				got = append(got, p.String())
			}
			wantProblems(t, strings.Join(got, "\n"), c.want...)
		})
	}
}

// launchAs rewrites the logs of the record at path (rec, loaded with its
// runs) so that every launch names its arm's command line as rec states
// it, and names their new sha256 in rec: a test fixture's record whose
// commands were edited on purpose (inWorktrees), its logs as the harness
// would have written them.
func launchAs(t *testing.T, path string, rec *schema.Record) {
	t.Helper()
	data := filepath.Join(filepath.Dir(path), filepath.FromSlash(rec.DataDir))
	for _, r := range rec.Runs {
		if r.Log == "" {
			continue
		}
		argv, _ := armCommand(rec, r)
		want := make([]string, len(argv))
		for i, a := range argv {
			want[i] = scenarios.ExpandPort(a, strconv.Itoa(r.Port))
		}
		p := filepath.Join(data, filepath.FromSlash(r.Log))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		for i, l := range lines {
			text, ok := strings.CutPrefix(l, engine.MarkerPrefix)
			if !ok {
				continue
			}
			when, text, _ := strings.Cut(text, " ")
			if loc := launchMarker.FindStringIndex(text); loc != nil {
				lines[i] = engine.MarkerPrefix + when + " " + text[:loc[1]] + strings.Join(want, " ") + "\n"
			}
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		for i, f := range rec.Files {
			if f.Path == r.Log {
				rec.Files[i].SHA256 = sha(strings.Join(lines, ""))
			}
		}
	}
}
