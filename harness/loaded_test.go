package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// libs writes shared-object files of the given names and contents.
func libs(t *testing.T, dir string, files map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	return out
}

// A run whose engine loaded other libraries than its arm's first run
// fails, naming what changed.
func TestLoadedRefusesAnArmThatChangedMidCampaign(t *testing.T) {
	c := testCampaign(t, testScenario)
	c.rec = &schema.Record{}
	l := libs(t, t.TempDir(), map[string]string{"libggml-cpu-haswell.so": "h", "libggml-cpu-zen4.so": "z", "libggml-base.so": "b"})
	first := schema.Run{Seq: 1, Arm: "a"}
	if err := c.loaded(&first, []string{l["libggml-base.so"], l["libggml-cpu-zen4.so"]}, nil); err != nil {
		t.Fatal(err)
	}
	c.rec.Runs = append(c.rec.Runs, first)
	same := schema.Run{Seq: 2, Arm: "a"}
	if err := c.loaded(&same, []string{l["libggml-cpu-zen4.so"]}, []string{l["libggml-base.so"]}); err != nil {
		t.Errorf("the same set read in two halves: %v", err)
	}
	other := schema.Run{Seq: 3, Arm: "a"}
	err := c.loaded(&other, []string{l["libggml-base.so"], l["libggml-cpu-haswell.so"]}, nil)
	if err == nil || !strings.Contains(err.Error(), "+libggml-cpu-haswell.so") || !strings.Contains(err.Error(), "−libggml-cpu-zen4.so") {
		t.Errorf("want the change named, got %v", err)
	}
}

// Two installs whose binaries are byte-identical run with the same
// arguments: when their runs load byte-identical libraries the comparison
// is A/A and the run that shows it fails; when they load different
// backends it is a real comparison; a control arm is never refused.
func TestLoadedRefusesAnAAComparison(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 1")
	src := strings.Replace(buildsScenario(base, head, ""), `expect: {base: "== 1", head: "== 2"}`, `expect: {base: "== 1", head: "== 1"}`, 1) + "allow_unverified: test\n"
	l := libs(t, dir, map[string]string{"base/libggml-cpu-zen4.so": "z", "head/libggml-cpu-zen4.so": "z", "head/libggml-cpu-haswell.so": "h"})
	for _, tc := range []struct {
		name, src string
		head      string
		refused   bool
	}{
		{"same backend", src, "head/libggml-cpu-zen4.so", true},
		{"other backend", src, "head/libggml-cpu-haswell.so", false},
		{"control", strings.Replace(src, "  - name: head\n", "  - name: other\n    args: [--x]\n  - name: head\n    control: true\n", 1), "head/libggml-cpu-zen4.so", false},
	} {
		c := testCampaign(t, tc.src)
		c.engines = identifyEngines(context.Background(), c.scenario)
		b := schema.Run{Seq: 1, Arm: "base", Loaded: engine.HashLoaded([]string{l["base/libggml-cpu-zen4.so"]})}
		c.rec = &schema.Record{Runs: []schema.Run{b}}
		h := schema.Run{Seq: 2, Arm: "head"}
		err := c.loaded(&h, []string{l[tc.head]}, nil)
		if got := err != nil && strings.Contains(err.Error(), "A/A"); got != tc.refused {
			t.Errorf("%s: %v, want refused %v", tc.name, err, tc.refused)
		}
	}
}

// The record lists each set once, with the arms that loaded it.
func TestRecordLoadedGroupsArms(t *testing.T) {
	zen := []schema.FileSum{{Path: "/x/libggml-cpu-zen4.so", SHA256: "z"}}
	has := []schema.FileSum{{Path: "/y/libggml-cpu-haswell.so", SHA256: "h"}}
	rec := &schema.Record{Scenario: schema.ScenarioInfo{Arms: []schema.ArmInfo{{Name: "a"}, {Name: "b"}, {Name: "c"}}},
		Runs: []schema.Run{{Seq: 1, Arm: "c", Loaded: has}, {Seq: 2, Arm: "a", Loaded: zen}, {Seq: 3, Arm: "b", Loaded: zen}}}
	recordLoaded(rec)
	if len(rec.Loaded) != 2 || strings.Join(rec.Loaded[0].Arms, ",") != "a,b" || rec.Loaded[1].Arms[0] != "c" {
		t.Errorf("%+v", rec.Loaded)
	}
}
