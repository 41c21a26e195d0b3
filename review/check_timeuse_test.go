package review

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// A record whose method's times leave a phase of "Where the time went"
// below zero fails check, the record re-hashed and re-rendered so that
// only the sums can tell: a diagnosis_s below zero, one longer than the
// time the runs leave, and a resume after the campaign finished (a gap
// longer than the wall time has room for); and a run cut off
// (cut_off_s) in a campaign that was not interrupted. The record as
// written passes.
func TestCheckTimeUseNegativePhase(t *testing.T) {
	const name = "spec-draft-epyc-2026-12-05"
	for what, c := range map[string]struct {
		edit func(*schema.Method)
		want string
	}{
		"as written":           {func(*schema.Method) {}, ""},
		"diagnosis below zero": {func(m *schema.Method) { m.DiagnosisS = -3 }, "phase diagnosis comes to -3.000 s, below zero"},
		"diagnosis too long": {func(m *schema.Method) { m.DiagnosisS = m.Finished.Sub(m.Started).Seconds() },
			"phase outside comes to -"},
		"resumed after the finish": {func(m *schema.Method) { m.Resumed = []time.Time{m.Finished.Add(time.Hour)} },
			"phase outside comes to -"},
		"a run cut off in a finished campaign": {func(m *schema.Method) { m.CutOffS = 0.5 },
			"cut_off_s 0.500 s on a campaign that was not interrupted"},
		"a run cut off longer than the room after the last run": {func(m *schema.Method) { m.Interrupted, m.CutOffS = true, 1e6 },
			"cut_off_s 1000000.000 s, where the run a stop cut off lies within the "},
		"a run cut off below zero": {func(m *schema.Method) { m.Interrupted, m.CutOffS = true, -2 }, "cut_off_s -2.000 s, where"},
	} {
		t.Run(what, func(t *testing.T) {
			rec, scen, s := committedRecord(t, name)
			dir := t.TempDir()
			copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", name), filepath.Join(dir, "data", name))
			c.edit(&rec.Method)
			var got []string
			for _, p := range Check(writeRecordRuns(t, dir, name, rec, scen, s, rec.Runs)) {
				// The record is robust-8's, and cut_off_s is written
				// under robust-15 on: that problem is another test's.
				if !strings.Contains(p.Message, "the record holds method.cut_off_s, which decodebench writes from commit") {
					got = append(got, p.String())
				}
			}
			switch {
			case c.want == "" && len(got) > 0:
				t.Errorf("problems: %v", got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], "Where the time went: "+c.want)):
				t.Errorf("problems %v, want one saying %q", got, c.want)
			}
		})
	}
}
