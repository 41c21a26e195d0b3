package main

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/harness"
)

// The rerun line compare prints runs the scenario again into the folder
// compare wrote to (and under its --hw and --date), whatever --rounds: it
// named no folder without --rounds, and run then wrote into the records
// folder (or refused outside a clone).
func TestCompareRerunKeepsItsFolder(t *testing.T) {
	var b strings.Builder
	printRerun([]string{"engine.request.max_tokens=8"}, []string{"--out", "/tmp/my recs", "--hw", "m5"})(&b, &harness.Outcome{DataDir: "/tmp/my recs/data/compare-m5-2026-12-06"})
	want := "edit it and run it again: decodebench run '/tmp/my recs/data/compare-m5-2026-12-06/scenario.yaml' --out '/tmp/my recs' --hw m5 --set engine.request.max_tokens=8\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("printed\n%s\nwant a last line\n%s", b.String(), want)
	}
}
