package synthmodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"testing"
	"unicode/utf8"
)

// small is a config quick enough to generate many times in tests.
func small() Config {
	// Deliberately independent of Default, so TestGolden survives tuning.
	return Config{Layers: 3, Embd: 64, FFN: 96, Heads: 4, Vocab: 400,
		LayerStd: 0.015, EmbdStd: 1, OutputStd: 0.05, Seed: 1, Name: "small"}
}

func gen(t testing.TB, write func(*bytes.Buffer, Config) error, c Config) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func target(b *bytes.Buffer, c Config) error { return WriteTarget(b, c) }
func draft(b *bytes.Buffer, c Config) error  { return WriteDraft(b, c) }

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// model is what the test parser extracts from a GGUF file.
type model struct {
	kvs     map[string]any
	tensors map[string][]byte // raw F32 bytes
	dims    map[string][]uint64
	order   []string
}

// parseGGUF is a minimal GGUF v3 reader, independent of package gguf.
func parseGGUF(t testing.TB, b []byte) *model {
	t.Helper()
	off := 0
	next := func(n int) []byte {
		if off+n > len(b) {
			t.Fatalf("short file: need %d bytes at %d of %d", n, off, len(b))
		}
		off += n
		return b[off-n : off]
	}
	u32 := func() uint32 { return binary.LittleEndian.Uint32(next(4)) }
	u64 := func() uint64 { return binary.LittleEndian.Uint64(next(8)) }
	str := func() string { return string(next(int(u64()))) }
	var value func(typ uint32) any
	value = func(typ uint32) any {
		switch typ {
		case 4: // uint32
			return u32()
		case 5: // int32
			return int32(u32())
		case 6: // float32
			return math.Float32frombits(u32())
		case 7: // bool
			return next(1)[0] != 0
		case 8: // string
			return str()
		case 9: // array
			et, n := u32(), u64()
			out := make([]any, n)
			for i := range out {
				out[i] = value(et)
			}
			return out
		}
		t.Fatalf("unexpected value type %d", typ)
		return nil
	}
	if string(next(4)) != "GGUF" || u32() != 3 {
		t.Fatal("not a GGUF v3 file")
	}
	nt, nkv := u64(), u64()
	m := &model{kvs: map[string]any{}, tensors: map[string][]byte{}, dims: map[string][]uint64{}}
	for range nkv {
		k := str()
		m.kvs[k] = value(u32())
	}
	type info struct {
		name      string
		n, offset uint64
	}
	var infos []info
	for range nt {
		name := str()
		dims := make([]uint64, u32())
		n := uint64(1)
		for i := range dims {
			dims[i] = u64()
			n *= dims[i]
		}
		if typ := u32(); typ != 0 {
			t.Fatalf("%s: tensor type %d, want F32", name, typ)
		}
		infos = append(infos, info{name, n, u64()})
		m.dims[name] = dims
		m.order = append(m.order, name)
	}
	align := int(m.kvs["general.alignment"].(uint32))
	data := (off + align - 1) / align * align
	for _, in := range infos {
		if in.offset%uint64(align) != 0 {
			t.Errorf("%s: offset %d not aligned", in.name, in.offset)
		}
		start := data + int(in.offset)
		m.tensors[in.name] = b[start : start+4*int(in.n)]
	}
	return m
}

func TestDeterministic(t *testing.T) {
	c := Default()
	if testing.Short() {
		c = small()
	}
	for _, w := range []func(*bytes.Buffer, Config) error{target, draft} {
		a, b := sum(gen(t, w, c)), sum(gen(t, w, c))
		if a != b {
			t.Fatalf("two generations differ: %s vs %s", a, b)
		}
	}
	c2 := c
	c2.Seed++
	if sum(gen(t, target, c)) == sum(gen(t, target, c2)) {
		t.Error("seed does not change the weights")
	}
}

// TestGolden pins the exact bytes of a small model, so a change of the
// generator, or a platform that computes different weights, is noticed.
// Update the hash only for an intended change of the model format.
func TestGolden(t *testing.T) {
	const want = "6ba1073aa6257a2b890565fb428f9032c947a2cb75be71f1d6ac6afa152be714"
	if got := sum(gen(t, target, small())); got != want {
		t.Errorf("sha256 of small target = %s, want %s", got, want)
	}
}

func TestDraftSharesTensors(t *testing.T) {
	c := small()
	tm := parseGGUF(t, gen(t, target, c))
	dm := parseGGUF(t, gen(t, draft, c))

	if got := dm.kvs["llama.block_count"]; got != uint32(1) {
		t.Errorf("draft block_count = %v, want 1", got)
	}
	if got := tm.kvs["llama.block_count"]; got != uint32(c.Layers) {
		t.Errorf("target block_count = %v, want %d", got, c.Layers)
	}
	if fmt.Sprint(tm.kvs["tokenizer.ggml.tokens"]) != fmt.Sprint(dm.kvs["tokenizer.ggml.tokens"]) {
		t.Error("draft and target vocabularies differ")
	}
	if len(tm.order) != 3+9*c.Layers || len(dm.order) != 3+9 {
		t.Errorf("tensor counts: target %d, draft %d", len(tm.order), len(dm.order))
	}
	for _, name := range dm.order {
		tb, ok := tm.tensors[name]
		if !ok {
			t.Errorf("draft tensor %s missing from target", name)
			continue
		}
		if !bytes.Equal(tb, dm.tensors[name]) {
			t.Errorf("draft tensor %s differs from the target's", name)
		}
	}
	if _, ok := dm.tensors["token_embd.weight"]; !ok {
		t.Error("draft lacks token_embd.weight")
	}
	if !bytes.Equal(tm.tensors["token_embd.weight"], dm.tensors["token_embd.weight"]) {
		t.Error("token_embd.weight differs")
	}
	if bytes.Equal(tm.tensors["token_embd.weight"], tm.tensors["output.weight"]) {
		t.Error("output.weight must not be tied to the embeddings")
	}
}

func TestShapesAndMetadata(t *testing.T) {
	c := small()
	m := parseGGUF(t, gen(t, target, c))
	e, f, v := uint64(c.Embd), uint64(c.FFN), uint64(c.Vocab)
	want := map[string][]uint64{
		"token_embd.weight":        {e, v},
		"output_norm.weight":       {e},
		"output.weight":            {e, v},
		"blk.2.attn_norm.weight":   {e},
		"blk.2.attn_q.weight":      {e, e},
		"blk.2.attn_output.weight": {e, e},
		"blk.2.ffn_norm.weight":    {e},
		"blk.2.ffn_gate.weight":    {e, f},
		"blk.2.ffn_up.weight":      {e, f},
		"blk.2.ffn_down.weight":    {f, e},
	}
	for name, d := range want {
		if fmt.Sprint(m.dims[name]) != fmt.Sprint(d) {
			t.Errorf("%s dims %v, want %v", name, m.dims[name], d)
		}
	}
	for k, v := range map[string]any{
		"general.architecture":                   "llama",
		"llama.context_length":                   uint32(4096),
		"llama.embedding_length":                 uint32(c.Embd),
		"llama.feed_forward_length":              uint32(c.FFN),
		"llama.attention.head_count":             uint32(c.Heads),
		"llama.attention.head_count_kv":          uint32(c.Heads),
		"llama.rope.dimension_count":             uint32(c.Embd / c.Heads),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.vocab_size":                       uint32(c.Vocab),
		"tokenizer.ggml.model":                   "llama",
		"tokenizer.ggml.bos_token_id":            uint32(1),
		"tokenizer.ggml.eos_token_id":            uint32(2),
		"tokenizer.ggml.unknown_token_id":        uint32(0),
		"tokenizer.ggml.add_bos_token":           true,
	} {
		if m.kvs[k] != v {
			t.Errorf("%s = %#v, want %#v", k, m.kvs[k], v)
		}
	}
	ones := m.tensors["blk.1.ffn_norm.weight"]
	for i := 0; i < len(ones); i += 4 {
		if math.Float32frombits(binary.LittleEndian.Uint32(ones[i:])) != 1 {
			t.Fatal("norm weights are not ones")
		}
	}
}

func TestWeightStatistics(t *testing.T) {
	c := small()
	c.LayerStd = 0.02
	m := parseGGUF(t, gen(t, target, c))
	for name, std := range map[string]float64{
		"blk.0.ffn_up.weight": c.LayerStd,
		"token_embd.weight":   c.EmbdStd,
		"output.weight":       c.OutputStd,
	} {
		b := m.tensors[name]
		n := float64(len(b) / 4)
		var s, s2 float64
		for i := 0; i < len(b); i += 4 {
			x := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
			s += x
			s2 += x * x
		}
		mean := s / n
		sd := math.Sqrt(s2/n - mean*mean)
		if math.Abs(mean) > 4*std/math.Sqrt(n) || math.Abs(sd/std-1) > 0.03 {
			t.Errorf("%s: mean %g std %g, want 0 and %g", name, mean, sd, std)
		}
	}
}

func TestVocabulary(t *testing.T) {
	for _, n := range []int{259, 260, Default().Vocab, 5000, MaxVocab()} {
		tokens, scores, types := vocabulary(n)
		if len(tokens) != n || len(scores) != n || len(types) != n {
			t.Fatalf("vocabulary(%d): %d tokens", n, len(tokens))
		}
		index := map[string]int{}
		for i, tok := range tokens {
			if j, dup := index[tok]; dup {
				t.Fatalf("vocabulary(%d): %q at %d and %d", n, tok, j, i)
			}
			index[tok] = i
		}
		if tokens[0] != "<unk>" || types[0] != 2 || tokens[1] != "<s>" || types[1] != 3 ||
			tokens[2] != "</s>" || types[2] != 3 || tokens[3] != "<0x00>" || tokens[258] != "<0xFF>" || types[258] != 6 {
			t.Fatalf("vocabulary(%d): bad special or byte tokens", n)
		}
		for i := firstPieceID; i < n; i++ {
			tok := tokens[i]
			if types[i] != 1 || scores[i] != -float32(i) {
				t.Fatalf("%q: type %d score %v", tok, types[i], scores[i])
			}
			if utf8.RuneCountInString(tok) < 2 {
				continue
			}
			// SentencePiece builds a piece by merging two adjacent pieces,
			// so a multi-character piece is only usable if it has a split
			// into two pieces that exist.
			ok := false
			for k := range tok {
				if k == 0 {
					continue
				}
				a, aok := index[tok[:k]]
				b, bok := index[tok[k:]]
				if aok && bok && a < i && b < i {
					ok = true
					break
				}
			}
			if !ok {
				t.Errorf("vocabulary(%d): piece %q cannot be merged from earlier pieces", n, tok)
			}
		}
	}
	tokens, _, _ := vocabulary(Default().Vocab)
	if tokens[firstPieceID] != "▁" {
		t.Errorf("first piece %q, want ▁", tokens[firstPieceID])
	}
}

func TestValidate(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []func(*Config){
		func(c *Config) { c.Layers = 0 },
		func(c *Config) { c.Heads = 3 },
		func(c *Config) { c.Embd, c.Heads = 24, 8 }, // odd head size
		func(c *Config) { c.Vocab = 258 },
		func(c *Config) { c.Vocab = MaxVocab() + 1 },
		func(c *Config) { c.LayerStd = -1 },
		func(c *Config) { c.OutputStd = math.NaN() },
		func(c *Config) { c.EmbdStd = math.Inf(1) },
	}
	for i, f := range bad {
		c := Default()
		f(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("case %d: %+v accepted", i, c)
		}
		var b bytes.Buffer
		if WriteTarget(&b, c) == nil || WriteDraft(&b, c) == nil || b.Len() != 0 {
			t.Errorf("case %d: invalid config written", i)
		}
	}
}
