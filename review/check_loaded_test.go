package review

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

func loadedRecord() *schema.Record {
	zen := []schema.FileSum{{Path: "/x/libggml-cpu-zen4.so", SHA256: "z"}}
	cuda := []schema.FileSum{{Path: "/x/libggml-cuda.so", SHA256: "c"}}
	rate := func(v float64) map[string]float64 { return map[string]float64{schema.DecodeTokS: v} }
	rec := &schema.Record{
		Scenario: schema.ScenarioInfo{Arms: []schema.ArmInfo{{Name: "classic"}, {Name: "draft"}}},
		Loaded:   []schema.ArmsLoaded{{Arms: []string{"classic"}, Libraries: zen}, {Arms: []string{"draft"}, Libraries: cuda}},
		Runs: []schema.Run{{Seq: 1, Arm: "classic", Loaded: zen, Metrics: rate(100)}, {Seq: 2, Arm: "draft", Loaded: cuda, Metrics: rate(90)},
			{Seq: 3, Arm: "classic", Loaded: zen, Metrics: rate(110)}},
	}
	a := schema.ArmRoofline{Arm: "classic", DecodeTokS: 105, BytesPerToken: 1e8, KVBytesPerToken: 1e6, BandwidthGBs: 20}
	a.Share = schema.RooflineShare(a.DecodeTokS, a.BytesPerToken, a.KVBytesPerToken, a.BandwidthGBs)
	rec.Roofline = []schema.ArmRoofline{a}
	return rec
}

// check re-derives the loaded sets and the roofline share from the runs:
// a set edited in the record, a run listed under no set, or a share or
// rate that its figures do not give is named.
func TestCheckLoadedAndRoofline(t *testing.T) {
	if p := append(checkLoaded(loadedRecord()), checkRoofline(loadedRecord())...); len(p) > 0 {
		t.Fatalf("a consistent record: %v", p)
	}
	rec := loadedRecord()
	rec.Loaded[1].Libraries = rec.Loaded[0].Libraries // the draft arm's set edited to the classic one's
	if p := checkLoaded(rec); len(p) != 1 || !strings.Contains(p[0].Message, "run 2 (arm draft) loaded other libraries") {
		t.Errorf("edited set: %v", p)
	}
	rec = loadedRecord()
	rec.Loaded = rec.Loaded[:1]
	if p := checkLoaded(rec); len(p) != 1 || !strings.Contains(p[0].Message, "which the record does not list") {
		t.Errorf("a set dropped: %v", p)
	}
	rec = loadedRecord()
	rec.Roofline[0].Share *= 1.1
	if p := checkRoofline(rec); len(p) != 1 || !strings.Contains(p[0].Message, "share") {
		t.Errorf("edited share: %v", p)
	}
	rec = loadedRecord()
	rec.Runs[0].Metrics[schema.DecodeTokS] = 120
	if p := checkRoofline(rec); len(p) != 1 || !strings.Contains(p[0].Message, "median is 115") {
		t.Errorf("a run's rate edited: %v", p)
	}
}

// diff compares what each arm loaded, not the candidates, when both
// records read it.
func TestDiffComparesLoadedSets(t *testing.T) {
	old, nu := loadedRecord(), loadedRecord()
	nu.Loaded[0].Libraries = []schema.FileSum{{Path: "/y/libggml-cpu-haswell.so", SHA256: "h"}}
	old.Engine.Libraries = []schema.FileSum{{Path: "/x/libggml-cpu-zen4.so", SHA256: "z"}}
	nu.Engine.Libraries = []schema.FileSum{{Path: "/x/libggml-cpu-zen4.so", SHA256: "z2"}}
	var got []string
	if !loadedChanges(old, nu, func(what, a, b string) {
		if a != b {
			got = append(got, what+": "+a+" → "+b)
		}
	}) {
		t.Fatal("loaded sets not compared")
	}
	if len(got) != 1 || !strings.Contains(got[0], "libraries loaded by arm classic: libggml-cpu-haswell.so absent, libggml-cpu-zen4.so z → libggml-cpu-haswell.so h, libggml-cpu-zen4.so absent") {
		t.Errorf("%q", got)
	}
}

// A committed record whose loaded sets are kept for an arm whose runs no
// longer read what their engine loaded (a CUDA backend claimed for runs
// that read nothing) fails check: every set listed is what runs gave.
func TestCheckLoadedSetBackedByRuns(t *testing.T) {
	const name = "spec-draft-epyc-2026-12-05"
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Loaded) == 0 {
		t.Fatal("the record lists no loaded set")
	}
	arm := rec.Loaded[0].Arms[0]
	for i := range rec.Runs {
		if rec.Runs[i].Arm == arm {
			rec.Runs[i].Loaded = nil
		}
	}
	probs := fmt.Sprint(Check(writeCopy(t, t.TempDir(), filepath.Join(filepath.Dir(src), "data", name), rec)))
	if want := "listed for arm " + arm + ", none of whose finished runs read"; !strings.Contains(probs, want) {
		t.Errorf("check found %s\nwant a problem saying %q", probs, want)
	}
}

// A committed record whose arms read the host's memory by one measured
// source, one arm's bandwidth halved and its share recomputed to match,
// fails check: one memory by one source is one bandwidth.
func TestCheckRooflineOneBandwidth(t *testing.T) {
	const name = "spec-draft-epyc-2026-12-05-4"
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Roofline) < 2 {
		t.Fatalf("the record states %d rooflines", len(rec.Roofline))
	}
	a := &rec.Roofline[len(rec.Roofline)-1]
	a.BandwidthGBs /= 2
	a.Share = schema.RooflineShare(a.DecodeTokS, a.BytesPerToken, a.KVBytesPerToken, a.BandwidthGBs)
	probs := fmt.Sprint(Check(writeCopy(t, t.TempDir(), filepath.Join(filepath.Dir(src), "data", name), rec)))
	if want := "roofline of arm " + a.Arm + ": bandwidth"; !strings.Contains(probs, want) {
		t.Errorf("check found %s\nwant a problem saying %q", probs, want)
	}
}
