package roofline

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/gguf"
	"github.com/decodebench/decodebench/schema"
)

// Command is what an arm's command line says of the model it decodes with.
type Command struct {
	// Model and Draft are the model and draft model files (or folders)
	// the command names (llama.cpp's -m/--model and
	// -md/--model-draft/--spec-draft-model; mlx-lm's --model and
	// --draft-model).
	Model, Draft string
	// Drafts is set when the command drafts: a draft model, or
	// llama.cpp's --spec-type other than none.
	Drafts bool
	// KType and VType are the KV cache's element types
	// (--cache-type-k/-ctk, --cache-type-v/-ctv; f16 by default).
	KType, VType gguf.TensorType
}

// ParseCommand reads an arm's full command line.
func ParseCommand(argv []string) Command {
	c := Command{KType: 1, VType: 1}
	for i := 1; i < len(argv); i++ {
		flag, val, inline := strings.Cut(argv[i], "=")
		if !inline {
			if i+1 >= len(argv) {
				break
			}
			val = argv[i+1]
		}
		used := true
		switch flag {
		case "-m", "--model":
			c.Model = val
		case "-md", "--model-draft", "--spec-draft-model", "--draft-model":
			c.Draft, c.Drafts = val, true
		case "--spec-type":
			if val != "none" {
				c.Drafts = true
			}
		case "-ctk", "--cache-type-k":
			if t, ok := gguf.TypeByName(val); ok {
				c.KType = t
			}
		case "-ctv", "--cache-type-v":
			if t, ok := gguf.TypeByName(val); ok {
				c.VType = t
			}
		default:
			used = false
		}
		if used && !inline {
			i++
		}
	}
	return c
}

// Arm is an arm's roofline: decodeTokS its decode rate, context the mean
// context over its decode, bw the memory's bandwidth (GB/s, what it is of,
// where the figure comes from, whether measured). cacheBytes is the
// host's last-level cache when the engine decodes on the CPU (0
// otherwise).
func Arm(arm string, c Command, w Weights, draft *Weights, decodeTokS, context float64, bw schema.ArmRoofline, cacheBytes int64) schema.ArmRoofline {
	r := bw
	r.Arm, r.DecodeTokS, r.Model, r.Format = arm, decodeTokS, c.Model, w.Format
	r.BytesPerToken = float64(w.BytesPerToken)
	if context > 0 && (w.KV.KElems > 0 || w.KV.VElems > 0) {
		r.Context = context
		r.KVBytesPerToken = w.KV.KVBytes(context, c.KType, c.VType)
	}
	if draft != nil {
		r.DraftModel, r.DraftBytesPerToken = c.Draft, float64(draft.BytesPerToken)
	}
	r.Share = schema.RooflineShare(decodeTokS, r.BytesPerToken, r.KVBytesPerToken, r.BandwidthGBs)
	r.Effective = c.Drafts || r.Share > 1
	if cacheBytes > 0 && r.BytesPerToken+r.KVBytesPerToken <= float64(cacheBytes) {
		r.CacheBytes = cacheBytes
	}
	r.Problems = append(r.Problems, w.Problems...)
	return r
}

// LoadedGPU reports whether arm's runs loaded a CUDA backend (ggml's, or
// the CUDA runtime): its engine decoded on the GPU.
func LoadedGPU(rec *schema.Record, arm string) bool {
	for _, r := range rec.Runs {
		if r.Arm != arm {
			continue
		}
		if slices.ContainsFunc(r.Loaded, func(f schema.FileSum) bool {
			b := filepath.Base(f.Path)
			return strings.HasPrefix(b, "libggml-cuda") || strings.HasPrefix(b, "libcudart") || strings.HasPrefix(b, "libcuda.so")
		}) {
			return true
		}
	}
	return false
}
