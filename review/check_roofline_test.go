package review

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/roofline"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// An arm's roofline is held to the rest of the record: the bytes a token
// reads to its model file's size, the effective mark to its command line
// and share, a table's bandwidth to the table, a last-level cache to a
// measured bandwidth and what a token reads. Each edit recomputes the
// share, as a forger re-rendering the record would.
func TestCheckRooflineOrigins(t *testing.T) {
	edit := func(f func(a *schema.ArmRoofline)) func(*schema.Record) {
		return func(r *schema.Record) {
			for i := range r.Roofline {
				a := &r.Roofline[i]
				f(a)
				a.Share = schema.RooflineShare(a.DecodeTokS, a.BytesPerToken, a.KVBytesPerToken, a.BandwidthGBs)
			}
		}
	}
	draftArm := func(f func(a *schema.ArmRoofline)) func(*schema.Record) {
		return edit(func(a *schema.ArmRoofline) {
			if a.Arm == "draft" {
				f(a)
			}
		})
	}
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "bytes a token past the file", edit: edit(func(a *schema.ArmRoofline) { a.BytesPerToken = 5e11; a.CacheBytes = 0 }),
			want: `5e+11 bytes a token of "/work/main/.cache/models-chaotic/target.gguf", past the largest model file its engine names (111973248 bytes)`},
		{what: "a draft step past the files", edit: draftArm(func(a *schema.ArmRoofline) { a.DraftBytesPerToken = 2e8 }),
			want: `2e+08 bytes a draft step of "/work/main/.cache/models-chaotic/draft.gguf", past the largest model file its engine names (111973248 bytes)`},
		{what: "a draft the command line has not", edit: edit(func(a *schema.ArmRoofline) {
			if a.Arm == "classic" {
				a.DraftModel, a.DraftBytesPerToken = "/work/main/.cache/models-chaotic/draft.gguf", 15073280
			}
		}), want: `roofline of arm classic: draft model "/work/main/.cache/models-chaotic/draft.gguf", where its command line names none`},
		{what: "a draft model dropped (one that could not be read states none)", edit: draftArm(func(a *schema.ArmRoofline) { a.DraftModel, a.DraftBytesPerToken = "", 0 })},
		{what: "a drafting arm not effective", edit: draftArm(func(a *schema.ArmRoofline) { a.Effective = false }),
			want: "marked effective false; its command line drafts true"},
		{what: "a table's bandwidth no table gives", edit: edit(func(a *schema.ArmRoofline) {
			a.BandwidthMeasured, a.BandwidthGBs, a.Memory, a.BandwidthSource, a.CacheBytes = false, 4800, "NVIDIA H200", "https://www.nvidia.com/en-us/data-center/h200/", 0
		}), want: `bandwidth 4800 GB/s of "NVIDIA H200" from the table, which gives 0 GB/s of "" for this machine and backend`},
		{what: "a cache smaller than a token's read", edit: edit(func(a *schema.ArmRoofline) { a.CacheBytes = 1 << 20 }),
			want: "a last-level cache of 1048576 bytes"},
	})
}

// The roofline the harness writes (engine.ModelFiles, roofline.Read,
// roofline.Arm, as recordRoofline and identifyEngines call them) for an
// mlx-lm arm whose --model is a local safetensors folder, which the
// engine's model files do not list, passes checkRooflineOrigins (a review
// helper's reproduction: each such record failed check).
func TestCheckRooflineOfASafetensorsFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "Qwen-4bit")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type stT struct {
		DType   string  `json:"dtype"`
		Shape   []int64 `json:"shape"`
		Offsets []int64 `json:"data_offsets"`
	}
	h, _ := json.Marshal(map[string]stT{"model.embed_tokens.weight": {"BF16", []int64{1000, 64}, []int64{0, 128000}},
		"lm_head.weight": {"BF16", []int64{1000, 64}, []int64{128000, 256000}}})
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	b = append(append(b, h...), make([]byte, 256000)...)
	for name, data := range map[string][]byte{"model.safetensors": b, "config.json": []byte(`{"num_hidden_layers":1,"hidden_size":64,"num_attention_heads":4,"num_key_value_heads":2}`)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	yaml := `feature: mlx-folder
hardware: auto
engine:
  preset: mlx-lm
  command: [python3, -m, mlx_lm.server, --model, ` + dir + `, --host, 127.0.0.1, --port, "${PORT}"]
  request: {endpoint: /v1/completions, model: m, prompt: p, max_tokens: 8}
arms:
  - name: a
    args: []
  - name: b
    args: ["--temp", "0"]
baseline: a
allow_unverified: "demo"
unmeasured: ["x"]
`
	sp := filepath.Join(root, "s.yaml")
	if err := os.WriteFile(sp, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _, err := scenarios.Load(sp, scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := &schema.Record{}
	for _, a := range s.Arms {
		argv := s.Launch(a.Name).Command
		models, _ := engine.ModelFiles(argv)
		rec.Engine.Models = models
		cmd := roofline.ParseCommand(argv)
		w, err := roofline.Read(cmd.Model)
		if err != nil {
			t.Fatal(err)
		}
		rec.Roofline = append(rec.Roofline, roofline.Arm(a.Name, cmd, w, nil, 50, 0, schema.ArmRoofline{BandwidthGBs: 400, Memory: "host", BandwidthSource: "triad", BandwidthMeasured: true}, 0))
	}
	if len(rec.Roofline) != 2 || rec.Roofline[0].Format != "safetensors" {
		t.Fatalf("the harness's roofline: %+v", rec.Roofline)
	}
	if probs := checkRooflineOrigins(s, rec); len(probs) > 0 {
		t.Errorf("a genuine safetensors folder's roofline: %v", probs)
	}
}
