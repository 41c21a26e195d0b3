package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// The record names the one ggml CPU backend llama-server loaded, of the
// fourteen its Debian install carries as candidates, and gives each arm
// the roofline of the synthetic target (its bytes a token counted in
// roofline's tests) and the decode rate on both clocks.
func TestRecordNamesLoadedCPUBackend(t *testing.T) {
	res := run(t, scenario{Feature: "e2e-loaded", Rounds: 2, Warmup: 1, MaxTokens: 32})
	rec := res.record
	if rec == nil || len(rec.Runs) == 0 {
		t.Fatalf("no record (exit %d)", res.code)
	}
	cpu := func(fs []schema.FileSum) []string {
		var out []string
		for _, f := range fs {
			if strings.HasPrefix(filepath.Base(f.Path), "libggml-cpu-") {
				out = append(out, filepath.Base(f.Path))
			}
		}
		return out
	}
	candidates := cpu(rec.Engine.Libraries)
	if len(rec.Loaded) == 0 {
		t.Fatalf("no loaded set in the record (candidates %v)", candidates)
	}
	var chosen string
	for _, l := range rec.Loaded {
		got := cpu(l.Libraries)
		if len(got) != 1 {
			t.Fatalf("arms %v loaded CPU backends %v, want exactly one", l.Arms, got)
		}
		if chosen != "" && got[0] != chosen {
			t.Errorf("arms loaded different CPU backends: %s and %s", chosen, got[0])
		}
		chosen = got[0]
		for _, f := range l.Libraries {
			if f.SHA256 == "" {
				t.Errorf("%s not hashed", f.Path)
			}
		}
	}
	t.Logf("candidates %v; loaded %s", candidates, chosen)
	if len(candidates) > 1 && !strings.Contains(strings.Join(candidates, " "), chosen) {
		t.Errorf("loaded %s is not one of the candidates %v", chosen, candidates)
	}
	if !strings.Contains(res.md, "| Backend | `") || !strings.Contains(res.md, chosen+"`, sha256") {
		t.Errorf("the record's Engine section does not name the loaded backend %s", chosen)
	}
	for _, r := range rec.Runs {
		if r.OK() && len(cpu(r.Loaded)) != 1 {
			t.Errorf("run %d loaded %v", r.Seq, cpu(r.Loaded))
		}
	}
	if len(rec.Roofline) != 2 {
		t.Fatalf("roofline %+v, want both arms", rec.Roofline)
	}
	for _, r := range rec.Roofline {
		if r.BytesPerToken != 110522368 || r.BandwidthGBs <= 0 || !r.BandwidthMeasured || r.Share <= 0 {
			t.Errorf("roofline %+v", r)
		}
		// A drafting arm is effective; any other only where its share
		// passes 100% (a model that fits in the host's last-level cache,
		// as on the Xeon VM, whose record says so).
		if want := r.Arm == "draft" || r.Share > 1; r.Effective != want {
			t.Errorf("arm %s effective %v at share %.3f", r.Arm, r.Effective, r.Share)
		}
	}
	if len(rec.Analysis.Clocks) != 2 {
		t.Errorf("clocks %+v, want both arms", rec.Analysis.Clocks)
	}
	for _, c := range rec.Analysis.Clocks {
		if c.Requests != 2 || c.ClientTokS <= 0 || c.EngineTokS <= 0 {
			t.Errorf("clocks %+v", c)
		}
	}
}
