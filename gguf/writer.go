// Package gguf writes GGUF v3 files, the model container read by llama.cpp,
// and reads any GGUF v2 or v3 file's header (reader.go).
//
// It exists so that decodebench can manufacture small synthetic models
// locally (see package synthmodel) instead of downloading real weights. It
// therefore implements only what such models need: scalar, string and array
// metadata, and F32 tensors. Quantized tensor types are deliberately absent:
// synthetic weights gain nothing from quantization and F32 keeps the bytes
// trivially reproducible.
//
// File layout (all integers little-endian):
//
//	magic "GGUF" | version uint32 (3) | tensor count uint64 | KV count uint64
//	KV pairs:     key string | value type uint32 | value
//	tensor infos: name string | n_dims uint32 | dims [n_dims]uint64 (ne0 first) |
//	              type uint32 | offset uint64 (relative to the data section)
//	padding to Alignment
//	tensor data, each tensor starting at a multiple of Alignment
//
// where a string is a uint64 byte length followed by UTF-8 bytes, without a
// terminator.
package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// Version is the GGUF format version written. Version 3 is the one current
// llama.cpp builds expect (v1 used 32-bit counts and is no longer read).
const Version = 3

// Magic is the four bytes every GGUF file starts with.
const Magic = "GGUF"

// Alignment is the byte alignment of the tensor data section and of every
// tensor inside it. 32 is GGUF's default; the writer still records it as
// general.alignment so readers never have to rely on that default.
const Alignment = 32

// AlignmentKey is the metadata key under which the writer records Alignment.
// Callers must not add it themselves.
const AlignmentKey = "general.alignment"

// ValueType is the type tag of a metadata value, as numbered by the GGUF
// specification.
type ValueType uint32

// Metadata value types. Only the ones this writer emits are used, but the
// full numbering is listed because the tags are part of the file format.
const (
	TypeUint8   ValueType = 0
	TypeInt8    ValueType = 1
	TypeUint16  ValueType = 2
	TypeInt16   ValueType = 3
	TypeUint32  ValueType = 4
	TypeInt32   ValueType = 5
	TypeFloat32 ValueType = 6
	TypeBool    ValueType = 7
	TypeString  ValueType = 8
	TypeArray   ValueType = 9
	TypeUint64  ValueType = 10
	TypeInt64   ValueType = 11
	TypeFloat64 ValueType = 12
)

// TensorType is the ggml element type of a tensor.
type TensorType uint32

// TensorF32 is ggml's GGML_TYPE_F32, the only tensor type this writer emits.
const TensorF32 TensorType = 0

// fillChunk is the number of float32 elements handed to a fill function at a
// time, which bounds the writer's memory use independently of tensor size.
const fillChunk = 1 << 16

type kv struct {
	key string
	// enc appends the value type tag and the encoded value.
	enc func(b []byte) []byte
}

type tensor struct {
	name   string
	dims   []uint64
	n      uint64 // element count
	offset uint64 // relative to the start of the data section
	fill   func(dst []float32)
}

// Writer accumulates metadata and tensor descriptions and then streams a
// complete GGUF file with WriteTo. Tensor contents are produced lazily by
// fill callbacks during WriteTo, so a model far larger than memory can be
// written and the header (which must state every tensor's offset up front)
// never has to be patched afterwards.
//
// Errors from the Add methods (duplicate names, bad shapes) are sticky: the
// first one is returned by WriteTo, which keeps call sites free of error
// plumbing. The order of keys and tensors in the file is the order of the
// Add calls, so output bytes depend only on the calls made.
type Writer struct {
	kvs      []kv
	tensors  []tensor
	keys     map[string]bool
	names    map[string]bool
	dataSize uint64
	err      error
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer {
	return &Writer{keys: map[string]bool{}, names: map[string]bool{}}
}

func (w *Writer) setErr(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *Writer) addKV(key string, enc func(b []byte) []byte) {
	switch {
	case key == "":
		w.setErr(errors.New("gguf: empty metadata key"))
	case key == AlignmentKey:
		w.setErr(fmt.Errorf("gguf: %s is written by the writer itself", AlignmentKey))
	case w.keys[key]:
		w.setErr(fmt.Errorf("gguf: duplicate metadata key %q", key))
	default:
		w.keys[key] = true
		w.kvs = append(w.kvs, kv{key: key, enc: enc})
	}
}

// AddUint32 adds a uint32 metadata value.
func (w *Writer) AddUint32(key string, v uint32) {
	w.addKV(key, func(b []byte) []byte {
		return le.AppendUint32(appendType(b, TypeUint32), v)
	})
}

// AddFloat32 adds a float32 metadata value.
func (w *Writer) AddFloat32(key string, v float32) {
	w.addKV(key, func(b []byte) []byte {
		return le.AppendUint32(appendType(b, TypeFloat32), math.Float32bits(v))
	})
}

// AddBool adds a bool metadata value (one byte, 0 or 1).
func (w *Writer) AddBool(key string, v bool) {
	w.addKV(key, func(b []byte) []byte {
		b = appendType(b, TypeBool)
		if v {
			return append(b, 1)
		}
		return append(b, 0)
	})
}

// AddString adds a string metadata value.
func (w *Writer) AddString(key, v string) {
	w.addKV(key, func(b []byte) []byte {
		return appendString(appendType(b, TypeString), v)
	})
}

// AddStringArray adds an array-of-string metadata value. The slice is copied.
func (w *Writer) AddStringArray(key string, v []string) {
	addArray(w, key, TypeString, v, appendString)
}

// AddFloat32Array adds an array-of-float32 metadata value. The slice is copied.
func (w *Writer) AddFloat32Array(key string, v []float32) {
	addArray(w, key, TypeFloat32, v, func(b []byte, f float32) []byte { return le.AppendUint32(b, math.Float32bits(f)) })
}

// AddInt32Array adds an array-of-int32 metadata value. The slice is copied.
func (w *Writer) AddInt32Array(key string, v []int32) {
	addArray(w, key, TypeInt32, v, func(b []byte, x int32) []byte { return le.AppendUint32(b, uint32(x)) })
}

// addArray adds a copy of v as an array of elem, each element appended by put.
func addArray[T any](w *Writer, key string, elem ValueType, v []T, put func([]byte, T) []byte) {
	v = slices.Clone(v)
	w.addKV(key, func(b []byte) []byte {
		b = appendArrayHeader(b, elem, len(v))
		for _, x := range v {
			b = put(b, x)
		}
		return b
	})
}

// AddTensorF32 declares an F32 tensor. dims are in ggml order: dims[0] (ne0)
// is the contiguous, fastest-varying dimension, so a llama weight matrix
// mapping n_in to n_out features is declared as [n_in, n_out].
//
// fill produces the contents during WriteTo. It is called one or more times
// with consecutive pieces of the tensor, in order, and must overwrite every
// element of dst; a stateful generator can therefore simply keep drawing
// values across calls. Piece sizes are an implementation detail and must not
// influence the values produced.
func (w *Writer) AddTensorF32(name string, dims []uint64, fill func(dst []float32)) {
	if name == "" {
		w.setErr(errors.New("gguf: empty tensor name"))
		return
	}
	if w.names[name] {
		w.setErr(fmt.Errorf("gguf: duplicate tensor name %q", name))
		return
	}
	if len(dims) == 0 || len(dims) > 4 { // GGML_MAX_DIMS
		w.setErr(fmt.Errorf("gguf: tensor %q: %d dims, want 1..4", name, len(dims)))
		return
	}
	if fill == nil {
		w.setErr(fmt.Errorf("gguf: tensor %q: nil fill function", name))
		return
	}
	n := uint64(1)
	for _, d := range dims {
		if d == 0 || n > math.MaxInt64/4/d {
			w.setErr(fmt.Errorf("gguf: tensor %q: bad dims %v", name, dims))
			return
		}
		n *= d
	}
	w.names[name] = true
	w.tensors = append(w.tensors, tensor{
		name:   name,
		dims:   append([]uint64(nil), dims...),
		n:      n,
		offset: w.dataSize,
		fill:   fill,
	})
	w.dataSize = alignUp(w.dataSize+4*n, Alignment)
}

// WriteTo writes the complete file to out. It implements io.WriterTo.
// WriteTo should be called once: fill callbacks are typically stateful.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	cw := &countWriter{w: out}
	bw := bufio.NewWriterSize(cw, 1<<20)

	var err error
	b := make([]byte, 0, 4096)
	b = append(b, Magic...)
	b = le.AppendUint32(b, Version)
	b = le.AppendUint64(b, uint64(len(w.tensors)))
	b = le.AppendUint64(b, uint64(len(w.kvs))+1) // +1: general.alignment
	for _, e := range w.kvs {
		b = appendString(b, e.key)
		b = e.enc(b)
		if b, err = flushIfLarge(bw, b); err != nil {
			return cw.n, err
		}
	}
	b = appendString(b, AlignmentKey)
	b = le.AppendUint32(appendType(b, TypeUint32), Alignment)
	for _, t := range w.tensors {
		b = appendString(b, t.name)
		b = le.AppendUint32(b, uint32(len(t.dims)))
		for _, d := range t.dims {
			b = le.AppendUint64(b, d)
		}
		b = le.AppendUint32(b, uint32(TensorF32))
		b = le.AppendUint64(b, t.offset)
		if b, err = flushIfLarge(bw, b); err != nil {
			return cw.n, err
		}
	}
	if _, err := bw.Write(b); err != nil {
		return cw.n, err
	}
	// Header length so far is the count of bytes accepted by bw.
	headerLen := cw.n + int64(bw.Buffered())
	if err := writeZeros(bw, alignUp(uint64(headerLen), Alignment)-uint64(headerLen)); err != nil {
		return cw.n, err
	}

	vals := make([]float32, fillChunk)
	raw := make([]byte, 0, 4*fillChunk)
	var pos uint64 // bytes of data section written
	for _, t := range w.tensors {
		if err := writeZeros(bw, t.offset-pos); err != nil {
			return cw.n, err
		}
		pos = t.offset
		for left := t.n; left > 0; {
			k := min(left, fillChunk)
			dst := vals[:k]
			t.fill(dst)
			raw = raw[:0]
			for _, f := range dst {
				raw = le.AppendUint32(raw, math.Float32bits(f))
			}
			if _, err := bw.Write(raw); err != nil {
				return cw.n, err
			}
			left -= k
			pos += 4 * k
		}
	}
	// Pad the final tensor too, so the file length is a multiple of the
	// alignment like the files llama.cpp's own writer produces.
	if err := writeZeros(bw, w.dataSize-pos); err != nil {
		return cw.n, err
	}
	err = bw.Flush()
	return cw.n, err
}

var le = binary.LittleEndian

func appendType(b []byte, t ValueType) []byte { return le.AppendUint32(b, uint32(t)) }

func appendString(b []byte, s string) []byte {
	return append(le.AppendUint64(b, uint64(len(s))), s...)
}

func appendArrayHeader(b []byte, elem ValueType, n int) []byte {
	b = appendType(b, TypeArray)
	b = le.AppendUint32(b, uint32(elem))
	return le.AppendUint64(b, uint64(n))
}

func alignUp(n, a uint64) uint64 { return (n + a - 1) / a * a }

// flushIfLarge hands the pending header bytes to bw once they grow large,
// keeping the scratch buffer small even for big vocabularies.
func flushIfLarge(bw *bufio.Writer, b []byte) ([]byte, error) {
	if len(b) < 1<<16 {
		return b, nil
	}
	_, err := bw.Write(b)
	return b[:0], err
}

var zeros [Alignment]byte

func writeZeros(w io.Writer, n uint64) error {
	for n > 0 {
		k := min(n, uint64(len(zeros)))
		if _, err := w.Write(zeros[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
