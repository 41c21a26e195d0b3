package gguf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// miniReader is a deliberately independent, minimal GGUF parser used to check
// what the writer produced. It understands every value type so that it reads
// past any KV, and returns scalars and arrays as Go values.
type miniReader struct {
	b   []byte
	off int
	err error
}

func (r *miniReader) next(n int) []byte {
	if r.err != nil {
		return make([]byte, n)
	}
	if n < 0 || r.off+n > len(r.b) {
		r.err = fmt.Errorf("short read at %d (+%d), len %d", r.off, n, len(r.b))
		return make([]byte, max(n, 0))
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *miniReader) u32() uint32 { return binary.LittleEndian.Uint32(r.next(4)) }
func (r *miniReader) u64() uint64 { return binary.LittleEndian.Uint64(r.next(8)) }
func (r *miniReader) str() string { return string(r.next(int(r.u64()))) }

func (r *miniReader) value(t ValueType) any {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		v := r.next(1)[0]
		if t == TypeBool {
			return v != 0
		}
		return v
	case TypeUint16, TypeInt16:
		return binary.LittleEndian.Uint16(r.next(2))
	case TypeUint32:
		return r.u32()
	case TypeInt32:
		return int32(r.u32())
	case TypeFloat32:
		return math.Float32frombits(r.u32())
	case TypeUint64, TypeInt64, TypeFloat64:
		return r.u64()
	case TypeString:
		return r.str()
	case TypeArray:
		et := ValueType(r.u32())
		n := r.u64()
		out := make([]any, 0, min(n, 1<<20))
		for i := uint64(0); i < n && r.err == nil; i++ {
			out = append(out, r.value(et))
		}
		return out
	}
	r.err = fmt.Errorf("unknown value type %d", t)
	return nil
}

type readTensor struct {
	name   string
	dims   []uint64
	typ    uint32
	offset uint64
}

type readFile struct {
	version   uint32
	kvs       map[string]any
	keys      []string
	tensors   []readTensor
	dataStart int
}

func parse(b []byte) (*readFile, error) {
	r := &miniReader{b: b}
	if m := string(r.next(4)); m != Magic {
		return nil, fmt.Errorf("magic %q", m)
	}
	f := &readFile{version: r.u32(), kvs: map[string]any{}}
	nt, nkv := r.u64(), r.u64()
	for i := uint64(0); i < nkv && r.err == nil; i++ {
		k := r.str()
		f.keys = append(f.keys, k)
		f.kvs[k] = r.value(ValueType(r.u32()))
	}
	for i := uint64(0); i < nt && r.err == nil; i++ {
		t := readTensor{name: r.str()}
		nd := r.u32()
		for j := uint32(0); j < nd && r.err == nil; j++ {
			t.dims = append(t.dims, r.u64())
		}
		t.typ = r.u32()
		t.offset = r.u64()
		f.tensors = append(f.tensors, t)
	}
	align := uint64(32)
	if a, ok := f.kvs[AlignmentKey].(uint32); ok {
		align = uint64(a)
	}
	f.dataStart = int(alignUp(uint64(r.off), align))
	return f, r.err
}

func TestWriteReadBack(t *testing.T) {
	w := NewWriter()
	w.AddString("general.architecture", "llama")
	w.AddUint32("llama.block_count", 2)
	w.AddFloat32("test.eps", 1e-5)
	w.AddBool("test.flag", true)
	w.AddStringArray("test.strs", []string{"<unk>", "▁a", ""})
	w.AddFloat32Array("test.f32s", []float32{0, -1.5})
	w.AddInt32Array("test.i32s", []int32{2, 3, 6})
	// Sizes chosen so that no tensor ends on an alignment boundary by
	// itself (3 and 5 floats = 12 and 20 bytes), forcing padding.
	w.AddTensorF32("a", []uint64{3}, func(d []float32) {
		for i := range d {
			d[i] = float32(i) + 0.5
		}
	})
	// Larger than one fill chunk, to exercise chunked filling.
	big := uint64(fillChunk + 5)
	next := float32(0)
	w.AddTensorF32("b", []uint64{5, big}, func(d []float32) {
		for i := range d {
			d[i] = next
			next++
		}
	})
	w.AddTensorF32("c", []uint64{5}, func(d []float32) {
		for i := range d {
			d[i] = -2
		}
	})

	var buf bytes.Buffer
	n, err := w.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo returned %d, wrote %d bytes", n, buf.Len())
	}
	b := buf.Bytes()
	f, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if f.version != 3 {
		t.Errorf("version %d, want 3", f.version)
	}
	if len(f.keys) != 8 || len(f.tensors) != 3 {
		t.Fatalf("got %d KVs, %d tensors; want 8, 3", len(f.keys), len(f.tensors))
	}
	if got := f.kvs["general.architecture"]; got != "llama" {
		t.Errorf("general.architecture = %v", got)
	}
	if got := f.kvs["llama.block_count"]; got != uint32(2) {
		t.Errorf("llama.block_count = %#v", got)
	}
	if got := f.kvs["test.eps"]; got != float32(1e-5) {
		t.Errorf("test.eps = %#v", got)
	}
	if got := f.kvs["test.flag"]; got != true {
		t.Errorf("test.flag = %#v", got)
	}
	if got := fmt.Sprint(f.kvs["test.strs"]); got != "[<unk> ▁a ]" {
		t.Errorf("test.strs = %s", got)
	}
	if got := fmt.Sprint(f.kvs["test.f32s"], f.kvs["test.i32s"]); got != "[0 -1.5] [2 3 6]" {
		t.Errorf("arrays = %s", got)
	}
	if got := f.kvs[AlignmentKey]; got != uint32(Alignment) {
		t.Errorf("%s = %#v", AlignmentKey, got)
	}
	if f.dataStart%Alignment != 0 {
		t.Errorf("data section starts at %d", f.dataStart)
	}
	wantDims := [][]uint64{{3}, {5, big}, {5}}
	for i, tt := range f.tensors {
		if tt.offset%Alignment != 0 {
			t.Errorf("tensor %s offset %d not aligned", tt.name, tt.offset)
		}
		if tt.typ != uint32(TensorF32) {
			t.Errorf("tensor %s type %d", tt.name, tt.typ)
		}
		if fmt.Sprint(tt.dims) != fmt.Sprint(wantDims[i]) {
			t.Errorf("tensor %s dims %v, want %v", tt.name, tt.dims, wantDims[i])
		}
	}
	at := func(tn, i int) float32 {
		p := f.dataStart + int(f.tensors[tn].offset) + 4*i
		return math.Float32frombits(binary.LittleEndian.Uint32(b[p:]))
	}
	if at(0, 2) != 2.5 || at(1, 0) != 0 || at(1, int(5*big)-1) != float32(5*big-1) || at(2, 4) != -2 {
		t.Errorf("tensor data read back wrong: %v %v %v %v", at(0, 2), at(1, 0), at(1, int(5*big)-1), at(2, 4))
	}
	last := f.tensors[2]
	if end := f.dataStart + int(last.offset) + 4*5; len(b) != int(alignUp(uint64(end), Alignment)) {
		t.Errorf("file length %d, last tensor ends at %d", len(b), end)
	}
}

func TestWriterErrors(t *testing.T) {
	fill := func(d []float32) {}
	cases := map[string]func(w *Writer){
		"duplicate key":    func(w *Writer) { w.AddUint32("k", 1); w.AddString("k", "x") },
		"alignment key":    func(w *Writer) { w.AddUint32(AlignmentKey, 64) },
		"duplicate tensor": func(w *Writer) { w.AddTensorF32("t", []uint64{1}, fill); w.AddTensorF32("t", []uint64{1}, fill) },
		"zero dim":         func(w *Writer) { w.AddTensorF32("t", []uint64{4, 0}, fill) },
		"five dims":        func(w *Writer) { w.AddTensorF32("t", []uint64{1, 1, 1, 1, 1}, fill) },
	}
	for name, f := range cases {
		w := NewWriter()
		f(w)
		var buf bytes.Buffer
		if _, err := w.WriteTo(&buf); err == nil || !strings.HasPrefix(err.Error(), "gguf: ") {
			t.Errorf("%s: err = %v, want a gguf error", name, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes despite the error", name, buf.Len())
		}
	}
}
