// Package synthmodel generates tiny random "llama"-architecture models as
// GGUF files that llama.cpp can load, so decodebench can exercise a real
// inference engine without downloading any weights.
//
// Two models come out of one Config: a target with Config.Layers layers and a
// one-layer draft for draft-model speculative decoding. The draft is the
// target cut down to its first layer: token embeddings, layer 0, output norm
// and output matrix are bit-identical to the target's. Because the layer
// weights are small (LayerStd) next to the embeddings (EmbdStd), every layer
// only nudges the residual stream, so the draft's greedy choice usually
// agrees with the target's and its drafts are accepted often, which is the
// regime a speculative-decoding benchmark wants to measure. Raising LayerStd
// makes the deeper layers matter and the draft a worse predictor.
//
// Output is a pure function of the Config: every tensor is drawn from its own
// PCG stream seeded from (Seed, tensor name), nothing depends on map order,
// float formatting or transcendental functions whose last bit may vary by
// platform, so the same Config yields the same bytes everywhere.
package synthmodel

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/decodebench/decodebench/gguf"
)

// Config describes a synthetic model. Dimensions use llama.cpp's names:
// Embd is n_embd, FFN is n_ff, Heads is n_head (and n_head_kv: no GQA).
type Config struct {
	Layers, Embd, FFN, Heads, Vocab int
	// Standard deviations of the normal weights: LayerStd for the attention
	// and feed-forward matrices, EmbdStd for token_embd, OutputStd for
	// output (the LM head). Norm weights are always ones.
	//
	// Draft acceptance is governed by LayerStd relative to EmbdStd (layer
	// inputs are RMS-normalised, so layer outputs do not grow with
	// EmbdStd). OutputStd scales all logits alike and so never changes
	// greedy output; it only sets how peaked sampling distributions are.
	LayerStd, EmbdStd, OutputStd float64
	// Seed selects the weights; the tokenizer does not depend on it.
	Seed uint64
	// Name is written as general.name; the draft gets Name + "-draft".
	Name string
}

// Default returns the configuration decodebench uses: a 112 MB F32 target
// (16.5 MB draft), small enough to decode at a few hundred tokens per second
// on two CPU cores. With llama.cpp greedy decoding and 3-token drafts the
// draft is accepted roughly half the time (43-74% over varied prompts).
func Default() Config {
	return Config{
		Layers:    8,
		Embd:      512,
		FFN:       1536,
		Heads:     8,
		Vocab:     700,
		LayerStd:  0.015,
		EmbdStd:   1.0,
		OutputStd: 0.05,
		Seed:      1,
		Name:      "decodebench-synth-llama",
	}
}

// Fixed hyperparameters written into every model.
const (
	contextLength = 4096
	rmsEpsilon    = 1e-5
	ropeFreqBase  = 10000
)

// Token ids of the special tokens, in SentencePiece llama order.
const (
	unkID = 0
	bosID = 1
	eosID = 2
	// firstByteID is the id of <0x00>; the 256 byte tokens follow it.
	firstByteID = 3
	// firstPieceID is the id of the first normal piece.
	firstPieceID = firstByteID + 256
)

// llama.cpp token types (enum llama_token_type).
const (
	typeNormal  = 1
	typeUnknown = 2
	typeControl = 3
	typeByte    = 6
)

// Validate reports whether c describes a model llama.cpp can load.
func (c Config) Validate() error {
	switch {
	case c.Layers < 1 || c.Embd < 1 || c.FFN < 1 || c.Heads < 1:
		return fmt.Errorf("synthmodel: layers, embd, ffn and heads must be positive (got %d, %d, %d, %d)",
			c.Layers, c.Embd, c.FFN, c.Heads)
	case c.Embd%c.Heads != 0 || (c.Embd/c.Heads)%2 != 0:
		// RoPE rotates pairs of dimensions, so the head size must be even.
		return fmt.Errorf("synthmodel: embd %d must be a multiple of heads %d with an even head size", c.Embd, c.Heads)
	case c.Vocab < firstPieceID || c.Vocab > MaxVocab():
		return fmt.Errorf("synthmodel: vocab %d out of range [%d, %d]", c.Vocab, firstPieceID, MaxVocab())
	}
	for _, s := range []struct {
		name string
		v    float64
	}{{"layer", c.LayerStd}, {"embd", c.EmbdStd}, {"output", c.OutputStd}} {
		if !(s.v >= 0) || math.IsInf(s.v, 0) {
			return fmt.Errorf("synthmodel: %s std %v must be finite and non-negative", s.name, s.v)
		}
	}
	return nil
}

// WriteTarget writes the c.Layers-layer target model to w.
func WriteTarget(w io.Writer, c Config) error {
	return write(w, c, c.Layers, c.Name)
}

// WriteDraft writes the one-layer draft model for the target described by c.
// Its token embeddings, output norm, output matrix and layer 0 are
// byte-for-byte the target's, and its tokenizer is identical, so llama.cpp
// accepts it as a draft for that target.
func WriteDraft(w io.Writer, c Config) error {
	return write(w, c, 1, c.Name+"-draft")
}

func write(w io.Writer, c Config, layers int, name string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	tokens, scores, types := vocabulary(c.Vocab)

	g := gguf.NewWriter()
	g.AddString("general.architecture", "llama")
	g.AddString("general.name", name)
	g.AddUint32("general.file_type", 0) // LLAMA_FTYPE_ALL_F32
	g.AddUint32("llama.context_length", contextLength)
	g.AddUint32("llama.embedding_length", uint32(c.Embd))
	g.AddUint32("llama.block_count", uint32(layers))
	g.AddUint32("llama.feed_forward_length", uint32(c.FFN))
	g.AddUint32("llama.attention.head_count", uint32(c.Heads))
	g.AddUint32("llama.attention.head_count_kv", uint32(c.Heads))
	g.AddUint32("llama.rope.dimension_count", uint32(c.Embd/c.Heads))
	g.AddFloat32("llama.rope.freq_base", ropeFreqBase)
	g.AddFloat32("llama.attention.layer_norm_rms_epsilon", rmsEpsilon)
	g.AddUint32("llama.vocab_size", uint32(c.Vocab))

	g.AddString("tokenizer.ggml.model", "llama")
	g.AddStringArray("tokenizer.ggml.tokens", tokens)
	g.AddFloat32Array("tokenizer.ggml.scores", scores)
	g.AddInt32Array("tokenizer.ggml.token_type", types)
	g.AddUint32("tokenizer.ggml.bos_token_id", bosID)
	g.AddUint32("tokenizer.ggml.eos_token_id", eosID)
	g.AddUint32("tokenizer.ggml.unknown_token_id", unkID)
	g.AddBool("tokenizer.ggml.add_bos_token", true)
	g.AddBool("tokenizer.ggml.add_eos_token", false)

	e, f, v := uint64(c.Embd), uint64(c.FFN), uint64(c.Vocab)
	normal := func(name string, std float64, dims ...uint64) {
		g.AddTensorF32(name, dims, normalFill(c.Seed, name, std))
	}
	ones := func(name string, dims ...uint64) { g.AddTensorF32(name, dims, fillOnes) }

	normal("token_embd.weight", c.EmbdStd, e, v)
	for i := range layers {
		p := fmt.Sprintf("blk.%d.", i)
		ones(p+"attn_norm.weight", e)
		normal(p+"attn_q.weight", c.LayerStd, e, e)
		normal(p+"attn_k.weight", c.LayerStd, e, e)
		normal(p+"attn_v.weight", c.LayerStd, e, e)
		normal(p+"attn_output.weight", c.LayerStd, e, e)
		ones(p+"ffn_norm.weight", e)
		normal(p+"ffn_gate.weight", c.LayerStd, e, f)
		normal(p+"ffn_up.weight", c.LayerStd, e, f)
		normal(p+"ffn_down.weight", c.LayerStd, f, e)
	}
	ones("output_norm.weight", e)
	// A separate LM head rather than tied embeddings: with tied weights the
	// logit of the current token contains x·x, the squared norm of its own
	// embedding, which would make the model favour repeating its input.
	normal("output.weight", c.OutputStd, e, v)

	_, err := g.WriteTo(w)
	return err
}

func fillOnes(d []float32) {
	for i := range d {
		d[i] = 1
	}
}

// streamSeed derives the PCG seed of one tensor from the model seed and the
// tensor name. Seeding per tensor (rather than drawing all tensors from one
// stream) is what makes the draft's shared tensors identical to the target's
// even though the draft has fewer tensors, and makes any tensor independent
// of which other tensors exist.
func streamSeed(seed uint64, name string) (uint64, uint64) {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write([]byte("decodebench/synthmodel\x00"))
	h.Write(b[:])
	h.Write([]byte(name))
	sum := h.Sum(nil)
	return binary.LittleEndian.Uint64(sum[0:8]), binary.LittleEndian.Uint64(sum[8:16])
}

// normalFill returns a fill function producing approximately N(0, std²)
// values from the tensor's own PCG stream.
//
// The normal variate is the Irwin–Hall sum of twelve 16-bit uniforms, minus
// six, rather than rand.NormFloat64: NormFloat64's ziggurat falls back to
// math.Exp and math.Log, which have assembly implementations on some
// architectures and may differ in the last bit, and that could flip an
// accept/reject decision and shift the whole stream. The sum below is exact
// integer arithmetic followed by one correctly rounded multiplication, so it
// is identical on every platform. Its tails stop at ±6σ, which is irrelevant
// for random weights.
func normalFill(seed uint64, name string, std float64) func([]float32) {
	s1, s2 := streamSeed(seed, name)
	r := rand.New(rand.NewPCG(s1, s2))
	// Each uniform is (u+0.5)/65536 with u in [0, 65536); twelve of them sum
	// to (S+6)/65536 with mean 6 and variance 1-2⁻³², so the centred value is
	// (S + 6 - 6·65536) / 65536. Dividing std by 65536 is exact.
	scale := std / 65536
	return func(d []float32) {
		for i := range d {
			var s int64
			for range 3 {
				u := r.Uint64()
				s += int64(u&0xffff + u>>16&0xffff + u>>32&0xffff + u>>48)
			}
			d[i] = float32(float64(s+6-6*65536) * scale)
		}
	}
}

// Vocabulary layout. Normal pieces come in this fixed order until the
// requested size is reached:
//
//  1. "▁" (SentencePiece's word-boundary space) and the 94 other printable
//     ASCII characters, so ordinary English text never needs byte fallback;
//  2. "▁" + each ASCII letter, the word starts;
//  3. a fixed list of frequent English pieces, so common words tokenize into
//     a few tokens and the default 700-token vocabulary looks plausible;
//  4. every lowercase two-letter piece, then "▁" + each, then every
//     lowercase three-letter piece, then "▁" + each,
//
// skipping pieces already present. Every multi-character piece can be built
// by SentencePiece merges, since it splits into two pieces that come before
// it (the tests check this).
var commonPieces = []string{
	"th", "he", "in", "er", "an", "re", "on", "at", "en", "nd", "ti", "es",
	"or", "te", "of", "ed", "is", "it", "al", "ar", "st", "to", "nt", "ng",
	"se", "ha", "as", "ou", "io", "le", "ve", "co", "me", "de", "hi", "ri",
	"ro", "ic", "ne", "ea", "ra", "ce", "li", "ch", "ll", "be", "ma", "si",
	"om", "ur", "no", "wa", "ow", "ot", "ca", "ec", "ac", "ct", "pe", "ai",
	"ss", "the", "and", "ing", "ion", "tio", "ent", "ati", "for", "her",
	"ter", "hat", "tha", "ere", "ate", "his", "con", "res", "ver", "all",
	"ons", "nce", "men", "ith", "ted", "ers", "pro", "thi", "wit", "are",
	"ess", "not", "ive", "was", "ect", "rea", "com", "eve", "per", "int",
	"est", "sta", "cti", "ica", "ist", "ear", "ain", "one", "our",
	"▁th", "▁the", "▁an", "▁and", "▁of", "▁to", "▁in", "▁is", "▁it",
	"▁wa", "▁was", "▁he", "▁hi", "▁his", "▁ha", "▁had", "▁on", "▁up",
	"▁upo", "▁upon", "▁ti", "▁tim", "▁time", "▁On", "▁Onc", "▁Once",
	"▁wh", "▁be", "▁fo", "▁for", "▁wi", "▁wit", "▁with", "▁as", "▁at",
	"▁by", "▁thi", "▁this", "▁tha", "▁that", "▁sh", "▁she", "▁we", "▁yo",
	"▁you", "▁no", "▁not", "▁do", "▁so", "▁my", "▁me", "▁or", "▁if",
	"▁al", "▁all", "▁ca", "▁can", "▁sa", "▁sai", "▁said", "▁da", "▁day",
	"▁ther", "▁there", "▁wer", "▁were",
}

// allPieces is the complete ordered list of normal pieces; a vocabulary of
// size n uses its first n-firstPieceID entries.
var allPieces = sync.OnceValue(func() []string {
	const sp = "▁"
	var out []string
	seen := map[string]bool{} // membership only, never iterated
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	add(sp)
	for c := byte('!'); c <= '~'; c++ {
		add(string(c))
	}
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for i := range len(letters) {
		add(sp + letters[i:i+1])
	}
	for _, p := range commonPieces {
		add(p)
	}
	lower := letters[:26]
	var two, three []string
	for i := range 26 {
		for j := range 26 {
			two = append(two, lower[i:i+1]+lower[j:j+1])
		}
	}
	for _, t := range two {
		for k := range 26 {
			three = append(three, t+lower[k:k+1])
		}
	}
	for _, set := range [][]string{two, three} {
		for _, prefix := range []string{"", sp} {
			for _, p := range set {
				add(prefix + p)
			}
		}
	}
	return out
})

// MaxVocab is the largest Config.Vocab supported.
func MaxVocab() int { return firstPieceID + len(allPieces()) }

// vocabulary returns the first n tokens, their scores and their types.
// Normal pieces score minus their id, so SentencePiece merging prefers the
// earlier (more common) pieces; special and byte tokens score zero.
func vocabulary(n int) (tokens []string, scores []float32, types []int32) {
	tokens = make([]string, 0, n)
	scores = make([]float32, 0, n)
	types = make([]int32, 0, n)
	add := func(tok string, score float32, typ int32) {
		tokens = append(tokens, tok)
		scores = append(scores, score)
		types = append(types, typ)
	}
	add("<unk>", 0, typeUnknown)
	add("<s>", 0, typeControl)
	add("</s>", 0, typeControl)
	for b := range 256 {
		add(fmt.Sprintf("<0x%02X>", b), 0, typeByte)
	}
	for _, p := range allPieces()[:n-firstPieceID] {
		add(p, -float32(len(tokens)), typeNormal)
	}
	return tokens, scores, types
}
