package gguf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/decodebench/decodebench/internal/safefs"
)

// The reader: a GGUF file's header, its scalar metadata and its tensor
// list, never the tensor data, so that a model's bytes per decoded token
// (package roofline) are known without reading its weights. Arrays are
// skipped (their length kept), which is what the tokenizer's hundred
// thousand strings need.

// File is what Read found in a GGUF header.
type File struct {
	Version uint32
	// Meta holds the scalar metadata: uint64, int64, float64, string or
	// bool by the value's type; an array of at most 4,096 integers is
	// []int64, any other array its length, as ArrayLen.
	Meta    map[string]any
	Tensors []TensorInfo
	// Alignment is general.alignment, else GGUF's default 32.
	Alignment uint64
	// DataOffset is where the tensor data starts in the file.
	DataOffset int64
}

// ArrayLen is an array's length, which Read keeps instead of its values.
type ArrayLen struct {
	Elem ValueType
	N    uint64
}

// TensorInfo is one tensor of the header.
type TensorInfo struct {
	Name string
	// Dims are ggml's, ne0 first: a matrix mapping n_in to n_out features
	// is [n_in, n_out], its rows the second dimension.
	Dims   []uint64
	Type   TensorType
	Offset uint64
}

// Elements is the tensor's element count.
func (t TensorInfo) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Bytes is the tensor's size in the file from its type's block size, ok
// false for a type this reader does not know (see File.TensorBytes).
func (t TensorInfo) Bytes() (int64, bool) {
	bs, ok := TypeBlock(t.Type)
	if !ok {
		return 0, false
	}
	n := t.Elements()
	if bs.Elements == 0 || n%bs.Elements != 0 {
		return 0, false
	}
	return int64(n / bs.Elements * bs.Bytes), true
}

// Block is a tensor type's storage: so many bytes hold so many elements.
type Block struct {
	Elements, Bytes uint64
}

// typeBlocks are ggml's element types (enum ggml_type) as ggml.c's
// type_traits size them: block size and bytes per block.
var typeBlocks = map[TensorType]Block{
	0: {1, 4}, 1: {1, 2}, // F32, F16
	2: {32, 18}, 3: {32, 20}, 6: {32, 22}, 7: {32, 24}, 8: {32, 34}, 9: {32, 36}, // Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q8_1
	10: {256, 84}, 11: {256, 110}, 12: {256, 144}, 13: {256, 176}, 14: {256, 210}, 15: {256, 292}, // Q2_K..Q8_K
	16: {256, 66}, 17: {256, 74}, 18: {256, 98}, 19: {256, 50}, 20: {32, 18}, // IQ2_XXS IQ2_XS IQ3_XXS IQ1_S IQ4_NL
	21: {256, 110}, 22: {256, 82}, 23: {256, 136}, // IQ3_S IQ2_S IQ4_XS
	24: {1, 1}, 25: {1, 2}, 26: {1, 4}, 27: {1, 8}, 28: {1, 8}, // I8 I16 I32 I64 F64
	29: {256, 56}, 30: {1, 2}, // IQ1_M BF16
	34: {256, 54}, 35: {256, 66}, // TQ1_0 TQ2_0
	39: {32, 17}, // MXFP4
}

// TypeBlock is the storage of ggml type t; ok false when unknown.
func TypeBlock(t TensorType) (Block, bool) {
	b, ok := typeBlocks[t]
	return b, ok
}

// TypeByName is a ggml type by the name llama.cpp's --cache-type-k
// takes (f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1).
func TypeByName(name string) (TensorType, bool) {
	t, ok := map[string]TensorType{"f32": 0, "f16": 1, "q4_0": 2, "q4_1": 3, "q5_0": 6, "q5_1": 7, "q8_0": 8, "iq4_nl": 20, "bf16": 30}[name]
	return t, ok
}

// TensorBytes is each tensor's size: from its type where the reader knows
// it, else the distance to the next tensor's data (or to the file's end,
// fileSize), which includes the alignment padding. exact is false when
// any size had to be taken that way.
func (f *File) TensorBytes(fileSize int64) (sizes []int64, exact bool) {
	exact = true
	sizes = make([]int64, len(f.Tensors))
	for i, t := range f.Tensors {
		if n, ok := t.Bytes(); ok {
			sizes[i] = n
			continue
		}
		exact = false
		end := uint64(max(fileSize-f.DataOffset, 0))
		for _, u := range f.Tensors {
			if u.Offset > t.Offset && u.Offset < end {
				end = u.Offset
			}
		}
		sizes[i] = int64(end - min(t.Offset, end))
	}
	return sizes, exact
}

// Uint is a metadata value as an unsigned integer; ok false when absent
// or not a non-negative integer.
func (f *File) Uint(key string) (uint64, bool) {
	switch v := f.Meta[key].(type) {
	case uint64:
		return v, true
	case int64:
		return uint64(v), v >= 0
	}
	return 0, false
}

// String is a metadata string value.
func (f *File) String(key string) string {
	s, _ := f.Meta[key].(string)
	return s
}

// Bounds on what Read accepts from a header, so a corrupt or hostile file
// cannot make it allocate without limit.
const (
	maxString  = 1 << 20
	maxKVs     = 1 << 20
	maxTensors = 1 << 20
	maxDims    = 8
)

// ReadFile reads the header of the GGUF file at path (through the guarded
// reader: a FIFO or a device is refused).
func ReadFile(path string) (*File, error) {
	fh, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Read(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Read reads a GGUF v2 or v3 header from r.
func Read(r io.Reader) (*File, error) {
	d := &decoder{r: bufio.NewReaderSize(r, 1<<16)}
	magic := d.bytes(4)
	if d.err == nil && string(magic) != Magic {
		return nil, errors.New("not a GGUF file (no GGUF magic)")
	}
	f := &File{Meta: map[string]any{}, Alignment: Alignment}
	f.Version = d.u32()
	if d.err == nil && f.Version != 2 && f.Version != 3 {
		return nil, fmt.Errorf("GGUF version %d: only 2 and 3 are read", f.Version)
	}
	nt, nkv := d.u64(), d.u64()
	if d.err == nil && (nt > maxTensors || nkv > maxKVs) {
		return nil, fmt.Errorf("GGUF header claims %d tensors and %d metadata entries", nt, nkv)
	}
	for i := uint64(0); i < nkv && d.err == nil; i++ {
		key := d.str()
		f.Meta[key] = d.value(ValueType(d.u32()), true)
	}
	if a, ok := f.Uint(AlignmentKey); ok && a > 0 && a <= 1<<16 {
		f.Alignment = a
	}
	for i := uint64(0); i < nt && d.err == nil; i++ {
		t := TensorInfo{Name: d.str()}
		nd := d.u32()
		if d.err == nil && (nd == 0 || nd > maxDims) {
			return nil, fmt.Errorf("tensor %q has %d dimensions", t.Name, nd)
		}
		for j := uint32(0); j < nd && d.err == nil; j++ {
			t.Dims = append(t.Dims, d.u64())
		}
		t.Type = TensorType(d.u32())
		t.Offset = d.u64()
		f.Tensors = append(f.Tensors, t)
	}
	if d.err != nil {
		return nil, fmt.Errorf("GGUF header: %w", d.err)
	}
	f.DataOffset = int64((uint64(d.n) + f.Alignment - 1) / f.Alignment * f.Alignment)
	return f, nil
}

type decoder struct {
	r   *bufio.Reader
	n   int64
	err error
	buf [8]byte
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	b := make([]byte, n)
	k, err := io.ReadFull(d.r, b)
	d.n += int64(k)
	if err != nil {
		d.err = fmt.Errorf("truncated at byte %d: %w", d.n, err)
	}
	return b
}

func (d *decoder) skip(n uint64) {
	if d.err != nil {
		return
	}
	k, err := d.r.Discard(int(min(n, math.MaxInt32)))
	d.n += int64(k)
	if err == nil && n > math.MaxInt32 {
		d.skip(n - math.MaxInt32)
		return
	}
	if err != nil {
		d.err = fmt.Errorf("truncated at byte %d: %w", d.n, err)
	}
}

func (d *decoder) fixed(n int) []byte {
	if d.err != nil {
		return d.buf[:n]
	}
	k, err := io.ReadFull(d.r, d.buf[:n])
	d.n += int64(k)
	if err != nil {
		d.err = fmt.Errorf("truncated at byte %d: %w", d.n, err)
	}
	return d.buf[:n]
}

func (d *decoder) u32() uint32 { return le.Uint32(d.fixed(4)) }
func (d *decoder) u64() uint64 { return le.Uint64(d.fixed(8)) }

func (d *decoder) str() string {
	n := d.u64()
	if d.err == nil && n > maxString {
		d.err = fmt.Errorf("a string of %d bytes at byte %d", n, d.n)
	}
	if d.err != nil {
		return ""
	}
	return string(d.bytes(int(n)))
}

// maxKeptArray is the longest integer array Read keeps the values of.
const maxKeptArray = 4096

func integer(t ValueType) bool {
	switch t {
	case TypeUint8, TypeInt8, TypeUint16, TypeInt16, TypeUint32, TypeInt32, TypeUint64, TypeInt64:
		return true
	}
	return false
}

// scalarSize is the size of a fixed-size value type; 0 for strings and
// arrays.
func scalarSize(t ValueType) uint64 {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64:
		return 8
	}
	return 0
}

// value reads one value of type t; an array (top is true for a
// metadata value itself) is skipped and its length returned.
func (d *decoder) value(t ValueType, top bool) any {
	switch t {
	case TypeUint8, TypeUint16, TypeUint32, TypeUint64:
		b := d.fixed(int(scalarSize(t)))
		var v uint64
		for i := len(b) - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		return v
	case TypeInt8:
		return int64(int8(d.fixed(1)[0]))
	case TypeInt16:
		return int64(int16(le.Uint16(d.fixed(2))))
	case TypeInt32:
		return int64(int32(d.u32()))
	case TypeInt64:
		return int64(d.u64())
	case TypeFloat32:
		return float64(math.Float32frombits(d.u32()))
	case TypeFloat64:
		return math.Float64frombits(d.u64())
	case TypeBool:
		return d.fixed(1)[0] != 0
	case TypeString:
		return d.str()
	case TypeArray:
		elem, n := ValueType(d.u32()), d.u64()
		if top && n <= maxKeptArray && integer(elem) {
			// A per-layer count (head_count_kv of a model whose layers
			// differ) is kept.
			out := make([]int64, 0, n)
			for i := uint64(0); i < n && d.err == nil; i++ {
				switch v := d.value(elem, false).(type) {
				case uint64:
					out = append(out, int64(v))
				case int64:
					out = append(out, v)
				}
			}
			return out
		}
		if sz := scalarSize(elem); sz > 0 {
			if d.err == nil && n > math.MaxInt64/sz {
				d.err = fmt.Errorf("an array of %d values at byte %d", n, d.n)
			}
			d.skip(n * sz)
		} else {
			for i := uint64(0); i < n && d.err == nil; i++ {
				d.value(elem, false)
			}
		}
		return ArrayLen{Elem: elem, N: n}
	}
	if d.err == nil {
		d.err = fmt.Errorf("unknown value type %d at byte %d", t, d.n)
	}
	return nil
}
