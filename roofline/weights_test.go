package roofline

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/gguf"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/synthmodel"
)

// The synthetic target's bytes per token, counted from the tensor list the
// generator writes (synthmodel.write): F32 (4 bytes an element), per layer
// two norms of embd, four embd×embd attention matrices and three embd×ffn
// feed-forward ones; the output norm and the output matrix (embd×vocab);
// of the token embedding table (embd×vocab) one row, embd.
func TestSyntheticGGUFBytesPerToken(t *testing.T) {
	c := synthmodel.Default()
	path := filepath.Join(t.TempDir(), "target.gguf")
	var buf bytes.Buffer
	if err := synthmodel.WriteTarget(&buf, c); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	e, f, v, L := int64(c.Embd), int64(c.FFN), int64(c.Vocab), int64(c.Layers)
	layer := 2*e + 4*e*e + 3*e*f
	all := 4 * (L*layer + e + e*v + e*v)
	perToken := 4 * (L*layer + e + e*v + e)
	w, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if w.Format != "gguf" || w.TensorBytes != all || w.BytesPerToken != perToken || len(w.Problems) > 0 {
		t.Errorf("read %+v, want tensors %d bytes, %d a token", w, all, perToken)
	}
	if perToken != 110522368 {
		t.Errorf("the default target reads %d bytes a token, the record of this machine says 110522368", perToken)
	}
	// Every layer caches heads × head size of keys and of values a position.
	if want := L * e; w.KV.KElems != want || w.KV.VElems != want {
		t.Errorf("KV geometry %+v, want %d elements a position each", w.KV, want)
	}
	// At 100 positions of f16: 2 bytes × 2 × layers × embd × 100.
	if got, want := w.KV.KVBytes(100, 1, 1), float64(2*2*L*e*100); got != want {
		t.Errorf("KV bytes %v, want %v", got, want)
	}
	// q8_0 keys: 34 bytes for 32 elements.
	if got, want := w.KV.KVBytes(1, 8, 1), float64(L*e)*34/32+float64(2*L*e); got != want {
		t.Errorf("q8_0 keys: %v, want %v", got, want)
	}
}

// A GGUF header of quantized, tied and expert tensors, written here byte
// by byte (the package's writer writes only F32).
func TestGGUFTypesTiedAndExperts(t *testing.T) {
	var b []byte
	le := binary.LittleEndian
	str := func(s string) { b = le.AppendUint64(b, uint64(len(s))); b = append(b, s...) }
	u32kv := func(k string, v uint32) {
		str(k)
		b = le.AppendUint32(b, uint32(gguf.TypeUint32))
		b = le.AppendUint32(b, v)
	}
	b = append(b, "GGUF"...)
	b = le.AppendUint32(b, 3)
	b = le.AppendUint64(b, 3) // tensors
	b = le.AppendUint64(b, 3) // kvs
	str("general.architecture")
	b = le.AppendUint32(b, uint32(gguf.TypeString))
	str("moe")
	u32kv("moe.expert_count", 8)
	u32kv("moe.expert_used_count", 2)
	tensor := func(name string, typ uint32, off uint64, dims ...uint64) {
		str(name)
		b = le.AppendUint32(b, uint32(len(dims)))
		for _, d := range dims {
			b = le.AppendUint64(b, d)
		}
		b = le.AppendUint32(b, typ)
		b = le.AppendUint64(b, off)
	}
	tensor("token_embd.weight", 12, 0, 256, 10)            // Q4_K: 10 rows of 144 bytes
	tensor("blk.0.ffn_up_exps.weight", 8, 1440, 64, 16, 8) // Q8_0: 8 experts of 16×64/32×34 bytes
	tensor("blk.0.attn_q.weight", 99, 1440+8*1088, 64, 64) // a type the reader does not know
	path := filepath.Join(t.TempDir(), "m.gguf")
	hdr := len(b)
	data := (hdr+31)/32*32 + 1440 + 8*1088 + 5000
	if err := os.WriteFile(path, append(b, make([]byte, data-hdr)...), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// Tied: no output.weight, so the table is read whole; 2 of 8 experts;
	// the unknown tensor at its span to the end of the file.
	want := int64(1440 + 2*1088 + 5000)
	if w.BytesPerToken != want || len(w.Problems) != 1 {
		t.Errorf("bytes a token %d (problems %v), want %d and one problem", w.BytesPerToken, w.Problems, want)
	}
}

// A safetensors folder as MLX writes one: shards and config.json.
func TestSafetensorsFolder(t *testing.T) {
	dir := t.TempDir()
	shard := func(name string, tensors map[string]stTensor) {
		h, _ := json.Marshal(tensors)
		var b []byte
		b = binary.LittleEndian.AppendUint64(b, uint64(len(h)))
		b = append(b, h...)
		end := int64(0)
		for _, t := range tensors {
			end = max(end, t.Offsets[1])
		}
		if err := os.WriteFile(filepath.Join(dir, name), append(b, make([]byte, end)...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shard("model-00001-of-00002.safetensors", map[string]stTensor{
		"model.embed_tokens.weight":              {DType: "BF16", Shape: []int64{1000, 64}, Offsets: []int64{0, 128000}},
		"model.layers.0.self_attn.q_proj.weight": {DType: "BF16", Shape: []int64{64, 64}, Offsets: []int64{128000, 136192}},
	})
	shard("model-00002-of-00002.safetensors", map[string]stTensor{
		"model.layers.0.mlp.switch_mlp.up_proj.weight": {DType: "BF16", Shape: []int64{4, 128, 64}, Offsets: []int64{0, 65536}},
		"lm_head.weight": {DType: "BF16", Shape: []int64{1000, 64}, Offsets: []int64{65536, 193536}},
	})
	cfg := `{"num_hidden_layers": 1, "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "num_experts": 4, "num_experts_per_tok": 1}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(128 + 8192 + 65536/4 + 128000); w.BytesPerToken != want || w.Format != "safetensors" {
		t.Errorf("bytes a token %d, want %d", w.BytesPerToken, want)
	}
	if w.KV.KElems != 2*16 || w.KV.VElems != 2*16 {
		t.Errorf("KV %+v, want 32 elements each", w.KV)
	}
}

func TestArmShareAndEffective(t *testing.T) {
	c := ParseCommand([]string{"llama-server", "-m", "/m/t.gguf", "--spec-type", "draft-simple", "--spec-draft-model=/m/d.gguf", "-ctk", "q8_0"})
	if c.Model != "/m/t.gguf" || c.Draft != "/m/d.gguf" || !c.Drafts || c.KType != 8 || c.VType != 1 {
		t.Fatalf("parsed %+v", c)
	}
	w := Weights{Format: "gguf", BytesPerToken: 1e9}
	r := Arm("draft", c, w, &Weights{BytesPerToken: 1e8}, 100, 0, schema.ArmRoofline{BandwidthGBs: 50, Memory: "x", BandwidthSource: "https://x"}, 0)
	if math.Abs(r.Share-2) > 1e-12 || !r.Effective || r.DraftBytesPerToken != 1e8 {
		t.Errorf("%+v", r)
	}
	plain := ParseCommand([]string{"llama-server", "--model", "/m/t.gguf", "--spec-type", "none"})
	r = Arm("classic", plain, w, nil, 20, 0, schema.ArmRoofline{BandwidthGBs: 50}, 2e9)
	if math.Abs(r.Share-0.4) > 1e-12 || r.Effective || r.CacheBytes != 2e9 {
		t.Errorf("%+v", r)
	}
}
