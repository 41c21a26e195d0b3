package reproduce

import (
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/internal/committed"
)

// A record to reproduce is someone else's, its runs.jsonl up to 1 GiB of
// generated text: the plan keeps its runs' figures (what the comparison
// with the reproduction reads), never their texts or token ids.
func TestPrepareKeepsNoRunText(t *testing.T) {
	const name = "spec-draft-epyc-2026-11-29"
	dst := committed.Copy(t, name)
	p, err := Prepare(filepath.Join(dst, name+".md"), func(string) (string, bool) { return "x", true })
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Record.Runs) == 0 {
		t.Fatal("the plan's record has no runs")
	}
	for _, r := range p.Record.Runs {
		if r.Output != "" || len(r.TokenIDs) > 0 || len(r.Requests) > 0 && r.Requests[0].Output != "" {
			t.Fatalf("run %d keeps %d bytes of text and %d token ids", r.Seq, len(r.Output), len(r.TokenIDs))
		}
		if r.OK() && len(r.Metrics) == 0 {
			t.Fatalf("run %d keeps no figures", r.Seq)
		}
	}
}
