package roofline

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
)

// maxSafetensorsHeader bounds a safetensors file's JSON header read.
const maxSafetensorsHeader = 64 << 20

// stTensor is one tensor of a safetensors header.
type stTensor struct {
	DType   string  `json:"dtype"`
	Shape   []int64 `json:"shape"`
	Offsets []int64 `json:"data_offsets"`
}

// readSafetensorsHeader reads the tensors of a safetensors file: an
// 8-byte little-endian header length, then a JSON object of tensors by
// name (and "__metadata__").
func readSafetensorsHeader(path string) (map[string]stTensor, error) {
	f, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var n uint64
	if err := binary.Read(f, binary.LittleEndian, &n); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n == 0 || n > maxSafetensorsHeader {
		return nil, fmt.Errorf("%s: a safetensors header of %d bytes", path, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a safetensors header: %w", path, err)
	}
	out := map[string]stTensor{}
	for k, v := range raw {
		if k == "__metadata__" {
			continue
		}
		var t stTensor
		if err := json.Unmarshal(v, &t); err != nil || len(t.Offsets) != 2 || t.Offsets[1] < t.Offsets[0] {
			return nil, fmt.Errorf("%s: tensor %q: bad entry", path, k)
		}
		out[k] = t
	}
	return out, nil
}

// hfConfig is what Read takes of a model folder's config.json.
type hfConfig struct {
	Layers     int64 `json:"num_hidden_layers"`
	Hidden     int64 `json:"hidden_size"`
	Heads      int64 `json:"num_attention_heads"`
	KVHeads    int64 `json:"num_key_value_heads"`
	HeadDim    int64 `json:"head_dim"`
	Experts    int64 `json:"num_local_experts"`
	ExpertsAlt int64 `json:"num_experts"`
	ExpertsTok int64 `json:"num_experts_per_tok"`
	TieEmbed   *bool `json:"tie_word_embeddings"`
}

// readSafetensorsDir applies Read's rule to a safetensors file, or to
// every *.safetensors file of a folder (shards) with its config.json.
func readSafetensorsDir(path string) (Weights, error) {
	w := Weights{Path: path, Format: "safetensors"}
	dir, files := path, []string{path}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.safetensors"))
		slices.Sort(files)
	} else {
		dir = filepath.Dir(path)
	}
	if len(files) == 0 {
		return w, errFormat(path)
	}
	var cfg hfConfig
	if b, err := safefs.ReadNamed(filepath.Join(dir, "config.json"), 16<<20); err == nil {
		_ = json.Unmarshal(b, &cfg)
	}
	experts := max(cfg.Experts, cfg.ExpertsAlt)
	tensors := map[string]stTensor{}
	for _, f := range files {
		ts, err := readSafetensorsHeader(f)
		if err != nil {
			return w, err
		}
		for k, v := range ts {
			tensors[k] = v
		}
	}
	tied := true
	for name := range tensors {
		if strings.HasPrefix(name, "lm_head.") || strings.Contains(name, ".lm_head.") {
			tied = false
		}
	}
	if cfg.TieEmbed != nil && *cfg.TieEmbed {
		tied = true
	}
	for name, t := range tensors {
		n := t.Offsets[1] - t.Offsets[0]
		w.TensorBytes += n
		switch {
		case strings.Contains(name, "embed_tokens.") && !tied && len(t.Shape) >= 1 && t.Shape[0] > 0:
			// A quantized table's scales and biases have the rows too.
			n /= t.Shape[0]
		case (strings.Contains(name, ".experts.") || strings.Contains(name, "switch_mlp.")) && experts > 0 && cfg.ExpertsTok > 0 && cfg.ExpertsTok < experts:
			n = n * cfg.ExpertsTok / experts
		}
		w.BytesPerToken += n
	}
	if cfg.Layers > 0 && cfg.Heads > 0 {
		kv := cfg.KVHeads
		if kv == 0 {
			kv = cfg.Heads
		}
		hd := cfg.HeadDim
		if hd == 0 {
			hd = cfg.Hidden / cfg.Heads
		}
		w.KV = KVGeometry{KElems: cfg.Layers * kv * hd, VElems: cfg.Layers * kv * hd}
	}
	return w, nil
}
