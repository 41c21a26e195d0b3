package history_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
)

// The records of testdata/layers are real campaigns of testdata/layers.yaml
// (classic decode on llama-server, one thread, and a copy arm running the
// same configuration with its default spelled out) on the 2-core
// development VM, one after another on one day, run as
//
//	LLAMA_SERVER=... MODEL_DIR=$dir decodebench run --wait-lock 30m \
//	    --out history/testdata/layers history/testdata/layers.yaml
//
// with MODEL_DIR the 8-layer synthetic models (.cache/models) for the
// first five records and a 16-layer target (synthgguf -layers 16) for the
// last five. MODEL_DIR is a variable the environment gives, so every record
// has the same scenario meaning (hash) and falls in one series, as a
// fleet's nightly runs do when a machine's model or thread count changes
// between them; the record keeps the command lines they ran, not the
// environment's values.
//
// The variable is the model's layer count, not llama-server's thread
// count (-t), which issue 22 names: on this shared 2-core host, with a
// load of 10 to 20, two threads spin at ggml's barriers waiting for each
// other and can decode slower than one, so whether -t 2 → -t 1 is a step
// up or down follows the other work on the host. Twice the layers is
// twice the work per token, which no background load reverses.
const layersFeature = "history-layers"

// layersHistory reads testdata/layers as index and the history command
// do (their -N suffixes order the records of one date) and the MODEL_DIR
// each record ran.
func layersHistory(t *testing.T) (recs []history.Record, modelDir map[string]string) {
	t.Helper()
	recs, bad, err := review.LoadHistory("testdata/layers")
	if err != nil || len(bad) > 0 || len(recs) == 0 {
		t.Fatalf("testdata/layers: %d records, errors %v %v", len(recs), err, bad)
	}
	modelDir = map[string]string{}
	for _, r := range recs {
		// The record keeps no value the environment gave (it could be
		// a secret); the baseline's command line shows where it went.
		for _, a := range r.Rec.Scenario.Arms {
			if i := slices.Index(a.Command, "-m"); a.Name == r.Rec.Scenario.Baseline && i >= 0 && i+1 < len(a.Command) {
				modelDir[r.Stem] = filepath.Dir(a.Command[i+1])
			}
		}
	}
	return recs, modelDir
}

// On real campaigns whose model changed part-way (8 layers, then 16),
// history finds exactly one step in the baseline's own decode rate,
// between the last record run on the 8-layer model and the first run on
// the 16-layer one, names what differs between them (the model file and the
// baseline's command line, not the engine), and offers no bisect (both sides ran the
// same engine build, which names no source commit). The copy arm's ratio
// to the baseline (the same configuration twice) has no step.
func TestStepOnRealCampaigns(t *testing.T) {
	recs, modelDir := layersHistory(t)
	series := history.Build(recs, changepoint.Defaults)
	if len(series) != 1 {
		t.Fatalf("%d series, want 1 (one scenario meaning)", len(series))
	}
	s := series[0]
	if len(s.Records) != len(recs) {
		t.Fatalf("%d of %d records in the series", len(s.Records), len(recs))
	}
	// The series' order is the campaigns' order: each record started
	// after the one before it.
	start := map[string]time.Time{}
	for _, r := range recs {
		full, err := recorder.Load(filepath.Join("testdata", "layers", r.Stem+".md"))
		if err != nil || len(full.Runs) == 0 {
			t.Fatalf("%s: runs: %v", r.Stem, err)
		}
		start[r.Stem] = full.Runs[0].Start
	}
	for i := 1; i < len(s.Records); i++ {
		if !start[s.Records[i]].After(start[s.Records[i-1]]) {
			t.Errorf("%s (started %s) comes after %s (started %s)", s.Records[i], start[s.Records[i]], s.Records[i-1], start[s.Records[i-1]])
		}
	}
	// The records in series order, and where the model changed.
	first := modelDir[s.Records[0]]
	var lastBefore, firstAfter string
	for i, stem := range s.Records {
		if modelDir[stem] == "" {
			t.Fatalf("%s lists no MODEL_DIR", stem)
		}
		if modelDir[stem] != first && firstAfter == "" {
			firstAfter, lastBefore = stem, s.Records[i-1]
		}
		if firstAfter != "" && modelDir[stem] == first {
			t.Fatalf("%s ran MODEL_DIR=%s again after the change", stem, first)
		}
	}
	if firstAfter == "" {
		t.Fatalf("the records ran one MODEL_DIR: %v", modelDir)
	}
	found := false
	for _, m := range s.Metrics {
		t.Logf("%s %s (%s): %d step(s)", m.Kind, m.Arm, m.Name, len(m.Steps))
		for _, st := range m.Steps {
			t.Logf("  %s → %s: %+.1f%%, p=%.2g, mean %.4g → %.4g", st.Last.Stem, st.First.Stem, 100*st.Change, st.P, st.Before, st.After)
		}
		switch {
		case m.Kind == history.KindBaseline && m.Name == "decode_tok_s":
			found = true
			if len(m.Steps) != 1 {
				t.Fatalf("the baseline's decode rate has %d steps, want 1", len(m.Steps))
			}
			st := m.Steps[0]
			if st.Last.Stem != lastBefore || st.First.Stem != firstAfter {
				t.Errorf("the step is between %s and %s, want %s and %s, where MODEL_DIR changed", st.Last.Stem, st.First.Stem, lastBefore, firstAfter)
			}
			// Twice the layers: decode slows by about half.
			if !st.Worse || st.Change > -0.25 {
				t.Errorf("the step is %+.1f%% (worse %v), want a slowdown of more than 25%%", 100*st.Change, st.Worse)
			}
			if st.Bisectable || st.Last.SourceCommit != "" || st.First.SourceCommit != "" {
				t.Errorf("a step between two records of one engine build without a source commit is bisectable: %+v", st)
			}
			kinds := map[history.ChangeKind]history.Change{}
			for _, c := range st.Changes {
				kinds[c.Kind] = c
			}
			if c := kinds[history.ChangeCommand]; !strings.Contains(c.Before, modelDir[lastBefore]+"/target.gguf") || !strings.Contains(c.After, modelDir[firstAfter]+"/target.gguf") {
				t.Errorf("the step's changes do not name the baseline command's model %s → %s: %+v", modelDir[lastBefore], modelDir[firstAfter], st.Changes)
			}
			if c, ok := kinds[history.ChangeModel]; !ok || c.Name != "1" || c.Before == "" || c.After == "" || c.Before == c.After {
				t.Errorf("the step's changes do not name the model file: %+v", st.Changes)
			}
			if len(st.Changes) != 2 {
				t.Errorf("the step names %d changes, want the model file and the baseline command (not the engine): %+v", len(st.Changes), st.Changes)
			}
		case m.Kind == history.KindRatio:
			if len(m.Steps) != 0 {
				t.Errorf("the %s / %s ratio (the same configuration twice) has %d step(s)", m.Arm, m.Baseline, len(m.Steps))
			}
		}
	}
	if !found {
		t.Fatal("no series of the baseline's decode_tok_s")
	}
	if !slices.ContainsFunc(s.Metrics, func(m history.Metric) bool { return m.Kind == history.KindRatio && m.Arm == "copy" }) {
		t.Error("no series of the copy arm's ratio")
	}
	if recs[0].Rec.Feature != layersFeature {
		t.Errorf("feature %q", recs[0].Rec.Feature)
	}
}
