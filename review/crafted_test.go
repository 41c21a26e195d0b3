package review

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The crafted bisect summaries of the reviewer tools' bounds: generated
// under a test's temporary folder, never committed.

// craftedSummary is a bisect summary of one step, the bad revision, whose
// build succeeded and which links record, links times, as its
// campaigns; pad commits of long subjects make it large.
func craftedSummary(dataDir, record string, links, pad int) *schema.Bisect {
	b := &schema.Bisect{Schema: schema.BisectSchema, Feature: "crafted", Hardware: "h", Date: "2026-01-02",
		Good: fmt.Sprintf("%040x", 0), GoodRef: "good", BadRef: "bad", Build: "make", Threshold: 0.1,
		ScenarioPath: "s.yaml", ScenarioHash: "x", Reference: "reference", Candidate: "candidate", DataDir: dataDir,
		ReferenceBuild: schema.BisectBuild{OK: true, Log: "builds/reference-000000000000.log"}}
	for i := range pad + 1 {
		b.Commits = append(b.Commits, schema.BisectCommit{SHA: fmt.Sprintf("%040x", i+1), Subject: fmt.Sprintf("commit %d %s", i+1, bytes.Repeat([]byte("x"), 60))})
	}
	b.Bad = b.Commits[len(b.Commits)-1].SHA
	st := schema.BisectStep{N: 1, Commit: b.Bad, Build: schema.BisectBuild{OK: true, Log: "builds/" + b.Bad[:12] + ".log"}, Class: schema.ClassBad}
	for range links {
		st.Campaigns = append(st.Campaigns, schema.BisectCampaign{Record: record, Verdict: schema.Valid, Rounds: 5, Class: schema.ClassBad})
	}
	b.Steps = []schema.BisectStep{st}
	b.Outcome = analysis.ConcludeBisect([]string{b.Bad}, map[string]schema.BisectClass{b.Bad: schema.ClassBad})
	return b
}

// nestedSummaries writes depth bisect summaries, each the record of every
// one of links campaigns of the one before (under its data folder's
// steps/), the first at dir/bisect-nested.md: links^depth paths for a
// check that follows every link. It returns the first's path.
func nestedSummaries(tb testing.TB, dir string, depth, links, pad int) string {
	tb.Helper()
	top := filepath.Join(dir, "bisect-nested.md")
	p := top
	for range depth {
		stem := strings.TrimSuffix(filepath.Base(p), ".md")
		dd := "data/" + stem
		steps := filepath.Join(filepath.Dir(p), "data", stem, "steps")
		if err := os.MkdirAll(steps, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := recorder.WriteBisectFile(p, craftedSummary(dd, dd+"/steps/r.md", links, pad)); err != nil {
			tb.Fatal(err)
		}
		p = filepath.Join(steps, "r.md")
	}
	return top
}

// loopSummary writes a bisect summary at dir/bisect-loop.md whose data
// folder's steps/ is a link back to dir, so that the record its links
// campaigns name is the summary itself, reached through one more link
// each time. It returns the summary's path.
func loopSummary(tb testing.TB, dir string, links int) string {
	tb.Helper()
	const dd = "data/bisect-loop"
	if err := os.MkdirAll(filepath.Join(dir, "data", "bisect-loop"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", ".."), filepath.Join(dir, "data", "bisect-loop", "steps")); err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(dir, "bisect-loop.md")
	if err := recorder.WriteBisectFile(p, craftedSummary(dd, dd+"/steps/bisect-loop.md", links, 0)); err != nil {
		tb.Fatal(err)
	}
	return p
}
