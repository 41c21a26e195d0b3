package gguf

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// A header written by the writer reads back: its metadata, its tensors
// and where their data starts.
func TestReadWhatTheWriterWrote(t *testing.T) {
	w := NewWriter()
	w.AddString("general.architecture", "llama")
	w.AddUint32("llama.block_count", 2)
	w.AddInt32Array("llama.attention.head_count_kv", []int32{4, 2})
	w.AddStringArray("tokenizer.ggml.tokens", []string{"a", "b", "c"})
	w.AddTensorF32("token_embd.weight", []uint64{8, 3}, func(d []float32) {})
	w.AddTensorF32("output.weight", []uint64{8, 3}, func(d []float32) {})
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if f.String("general.architecture") != "llama" || f.Alignment != Alignment || len(f.Tensors) != 2 {
		t.Fatalf("%+v", f)
	}
	if n, ok := f.Uint("llama.block_count"); !ok || n != 2 {
		t.Errorf("block_count %v %v", n, ok)
	}
	if kv, ok := f.Meta["llama.attention.head_count_kv"].([]int64); !ok || len(kv) != 2 || kv[0] != 4 || kv[1] != 2 {
		t.Errorf("head_count_kv %v", f.Meta["llama.attention.head_count_kv"])
	}
	if a, ok := f.Meta["tokenizer.ggml.tokens"].(ArrayLen); !ok || a.N != 3 {
		t.Errorf("tokens %v", f.Meta["tokenizer.ggml.tokens"])
	}
	sizes, exact := f.TensorBytes(int64(buf.Len()))
	if !exact || sizes[0] != 96 || sizes[1] != 96 || f.Tensors[1].Offset != 96 {
		t.Errorf("sizes %v exact %v, offsets %d", sizes, exact, f.Tensors[1].Offset)
	}
	if int64(buf.Len()) != f.DataOffset+192 {
		t.Errorf("data at %d, file %d bytes", f.DataOffset, buf.Len())
	}
}

// FuzzReadHeader: whatever a model file holds (a scenario names it), the
// reader returns a header or an error, bounded, never a panic.
func FuzzReadHeader(f *testing.F) {
	w := NewWriter()
	w.AddString("general.architecture", "llama")
	w.AddUint32("llama.block_count", 1)
	w.AddTensorF32("t", []uint64{4}, func(d []float32) {})
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	huge := append([]byte("GGUF"), binary.LittleEndian.AppendUint32(nil, 3)...)
	huge = binary.LittleEndian.AppendUint64(huge, 1)
	huge = binary.LittleEndian.AppendUint64(huge, 1)
	huge = binary.LittleEndian.AppendUint64(huge, 1<<62) // a key of 2^62 bytes
	f.Add(huge)
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		h.TensorBytes(int64(len(b)))
		for _, tn := range h.Tensors {
			tn.Bytes()
		}
	})
}
