// Package roofline is what a decoded token reads of the memory: the
// model's weights (from a GGUF file's tensor list or a safetensors
// header, never their data), the KV cache at a context, and the decode
// rate as a share of what the memory's bandwidth allows
// (schema.ArmRoofline).
package roofline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/gguf"
)

// Weights is what one decoded token reads of a model's files.
type Weights struct {
	Path, Format string
	// TensorBytes is every tensor's bytes; BytesPerToken what a token
	// reads of them (Read's rule).
	TensorBytes, BytesPerToken int64
	// KV is the cache's geometry; zero when the model does not say.
	KV KVGeometry
	// Problems say what was approximated.
	Problems []string
}

// KVGeometry is the KV cache's elements per position, summed over the
// layers: keys and values.
type KVGeometry struct {
	KElems, VElems int64
}

// KVBytes is what a token reads of the cache at context positions, keys
// and values of types k and v (ggml's; f16 by default).
func (g KVGeometry) KVBytes(context float64, k, v gguf.TensorType) float64 {
	return context * (typeBytes(g.KElems, k) + typeBytes(g.VElems, v))
}

func typeBytes(elems int64, t gguf.TensorType) float64 {
	b, ok := gguf.TypeBlock(t)
	if !ok {
		b, _ = gguf.TypeBlock(1) // f16
	}
	return float64(elems) * float64(b.Bytes) / float64(b.Elements)
}

// Read is the weights of the model at path: a GGUF file, a safetensors
// file, or a folder of safetensors shards with its config.json (an MLX or
// Hugging Face model). A token reads every tensor once, with two
// exceptions: the token embedding table, of which it reads one row
// (unless the model has no separate output matrix, when the table is also
// the output and is read whole), and a mixture of experts' expert
// tensors, of which it reads the share of experts a token uses.
func Read(path string) (Weights, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Weights{}, err
	}
	if fi.IsDir() {
		return readSafetensorsDir(path)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".safetensors":
		return readSafetensorsDir(path)
	}
	f, err := gguf.ReadFile(path)
	if err != nil {
		return Weights{}, err
	}
	return ggufWeights(path, f, fi.Size())
}

// ggufWeights applies Read's rule to a GGUF header.
func ggufWeights(path string, f *gguf.File, size int64) (Weights, error) {
	w := Weights{Path: path, Format: "gguf"}
	sizes, exact := f.TensorBytes(size)
	if !exact {
		w.Problems = append(w.Problems, "a tensor type this reader does not size was taken at its span in the file, padding included")
	}
	arch := f.String("general.architecture")
	experts, used := metaUint(f, arch+".expert_count"), metaUint(f, arch+".expert_used_count")
	tied := true
	for _, t := range f.Tensors {
		if t.Name == "output.weight" {
			tied = false
		}
	}
	for i, t := range f.Tensors {
		n := sizes[i]
		if n < 0 || n > size {
			return w, fmt.Errorf("%s: tensor %q claims %d bytes of a %d-byte file", path, t.Name, n, size)
		}
		w.TensorBytes += n
		switch {
		case t.Name == "token_embd.weight" && !tied && len(t.Dims) == 2 && t.Dims[1] > 0:
			n /= int64(t.Dims[1])
		case strings.Contains(t.Name, "_exps.") && experts > 0 && used > 0 && used < experts:
			n = n * int64(used) / int64(experts)
		}
		w.BytesPerToken += n
	}
	if len(f.Tensors) == 0 {
		return w, errors.New("no tensors")
	}
	if w.TensorBytes > size {
		return w, fmt.Errorf("%s: its tensors claim %d bytes of a %d-byte file", path, w.TensorBytes, size)
	}
	w.KV = ggufKV(f, arch)
	return w, nil
}

func metaUint(f *gguf.File, key string) uint64 {
	v, _ := f.Uint(key)
	return v
}

// ggufKV is the cache geometry llama.cpp's metadata gives: per layer,
// head_count_kv heads of key_length and value_length (embedding_length ÷
// head_count by default); head_count_kv may be per layer.
func ggufKV(f *gguf.File, arch string) KVGeometry {
	layers := int(metaUint(f, arch+".block_count"))
	embd, heads := metaUint(f, arch+".embedding_length"), metaUint(f, arch+".attention.head_count")
	if layers == 0 || heads == 0 {
		return KVGeometry{}
	}
	kl, vl := metaUint(f, arch+".attention.key_length"), metaUint(f, arch+".attention.value_length")
	if kl == 0 {
		kl = embd / heads
	}
	if vl == 0 {
		vl = embd / heads
	}
	perLayer := make([]int64, layers)
	switch v := f.Meta[arch+".attention.head_count_kv"].(type) {
	case []int64:
		copy(perLayer, v)
	default:
		n, ok := f.Uint(arch + ".attention.head_count_kv")
		if !ok {
			n = heads
		}
		for i := range perLayer {
			perLayer[i] = int64(n)
		}
	}
	var g KVGeometry
	for _, h := range perLayer {
		g.KElems += h * int64(kl)
		g.VElems += h * int64(vl)
	}
	return g
}

// errFormat is a model file this package cannot read.
func errFormat(path string) error {
	return fmt.Errorf("%s: neither GGUF nor safetensors", path)
}
