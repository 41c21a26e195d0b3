package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/synthmodel"
)

// On the H200 host (nvidia-smi's name), arms whose runs loaded ggml's CUDA
// backend get the GPU's bandwidth from the table: the synthetic target's
// bytes a token at the arm's median rate, the drafting arm effective with
// its draft's bytes stated.
func TestRooflineOnAGPUFromTheLoadedBackend(t *testing.T) {
	dir := t.TempDir()
	for name, write := range map[string]func(*bytes.Buffer) error{
		"target.gguf": func(b *bytes.Buffer) error { return synthmodel.WriteTarget(b, synthmodel.Default()) },
		"draft.gguf":  func(b *bytes.Buffer) error { return synthmodel.WriteDraft(b, synthmodel.Default()) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := strings.NewReplacer(`command: [llama-server, --port, "${PORT}"]`, `command: [llama-server, -m, `+dir+`/target.gguf, --port, "${PORT}"]`,
		"    args: [--b]", "    args: [--spec-type, draft-simple, --spec-draft-model, "+dir+"/draft.gguf]").Replace(testScenario)
	c := testCampaign(t, src)
	cuda := []schema.FileSum{{Path: "/opt/llama/libggml-cuda.so", SHA256: "c"}}
	run := func(seq int, arm string, rate float64) schema.Run {
		return schema.Run{Seq: seq, Arm: arm, Loaded: cuda, Tokens: 256, Metrics: map[string]float64{schema.DecodeTokS: rate},
			EngineTimings: map[string]float64{"prompt_n": 5}}
	}
	c.rec = &schema.Record{Machine: schema.MachineInfo{OS: "linux", GPUs: []schema.GPUInfo{{Name: "NVIDIA H200"}}},
		Runs: []schema.Run{run(1, "a", 2000), run(2, "b", 800), run(3, "a", 2200), run(4, "b", 900)}}
	c.recordRoofline(context.Background())
	if len(c.rec.Roofline) != 2 {
		t.Fatalf("%+v", c.rec.Roofline)
	}
	a, b := c.rec.Roofline[0], c.rec.Roofline[1]
	if a.Memory != "NVIDIA H200" || a.BandwidthGBs != 4800 || a.BandwidthMeasured || a.DecodeTokS != 2100 || a.Effective {
		t.Errorf("classic: %+v", a)
	}
	if a.Context != 5+128 || a.KVBytesPerToken != 133*2*2*8*512 {
		t.Errorf("classic KV at context %v: %v bytes", a.Context, a.KVBytesPerToken)
	}
	if want := 2100 * (110522368 + a.KVBytesPerToken) / 4800e9; a.Share != want {
		t.Errorf("share %v, want %v", a.Share, want)
	}
	if !b.Effective || b.DraftBytesPerToken <= 0 || b.DecodeTokS != 850 {
		t.Errorf("draft: %+v", b)
	}
}
