package schema

import "slices"

// ArmRoofline is an arm's decode rate as a share of what the machine's
// memory allows a memory-bound decode: every decoded token reads the
// model's weights once (and the KV cache at its context), so the memory's
// bandwidth over the bytes a token reads is a ceiling on tokens per
// second, and Share is the rate over that ceiling:
//
//	Share = DecodeTokS × (BytesPerToken + KVBytesPerToken) / (BandwidthGBs × 1e9)
//
// A speculative arm decodes several tokens per read of the target's
// weights and can pass 1: its share is Effective (tokens per weight read,
// not a share of the memory's time).
type ArmRoofline struct {
	Arm string `json:"arm"`
	// Share is the fraction of the ceiling (1 is 100%).
	Share float64 `json:"share"`
	// Effective is set for an arm that drafts (a draft model or
	// speculation on its command line), or any arm whose share passes 1.
	Effective bool `json:"effective,omitempty"`
	// DecodeTokS is the arm's decode rate the share is of: the median of
	// its finished runs' decode_tok_s (the client's clock, the verdict's).
	DecodeTokS float64 `json:"decode_tok_s"`
	// Model is the model file (or folder) the arm decodes with, as its
	// command line names it; Format "gguf" or "safetensors".
	Model  string `json:"model"`
	Format string `json:"format"`
	// BytesPerToken is what one decoded token reads of the model's
	// weights: every tensor, the token embedding table one row (unless
	// the model has no separate output matrix, when it is read whole),
	// a mixture of experts' expert tensors in the share of experts a
	// token uses.
	BytesPerToken float64 `json:"bytes_per_token"`
	// KVBytesPerToken is what a decoded token reads of the KV cache at
	// Context, the mean context over the decode (prompt tokens plus half
	// the generated ones), at the cache's element types; 0 when the
	// model's attention geometry is unknown.
	KVBytesPerToken float64 `json:"kv_bytes_per_token,omitempty"`
	Context         float64 `json:"context,omitempty"`
	// DraftModel and DraftBytesPerToken are a drafting arm's draft model
	// and what one of its steps reads (stated, not in Share).
	DraftModel         string  `json:"draft_model,omitempty"`
	DraftBytesPerToken float64 `json:"draft_bytes_per_token,omitempty"`
	// BandwidthGBs is the memory's bandwidth (1e9 bytes a second), of
	// Memory ("NVIDIA H200", "Apple M4 Max (16-core CPU)", "host memory
	// (…)"), from BandwidthSource: the table's source, or how it was
	// measured (BandwidthMeasured).
	BandwidthGBs      float64 `json:"bandwidth_gb_s"`
	Memory            string  `json:"memory"`
	BandwidthSource   string  `json:"bandwidth_source"`
	BandwidthMeasured bool    `json:"bandwidth_measured,omitempty"`
	// CacheBytes is the host's last-level cache, set when the bytes a
	// token reads fit in it: the memory's bandwidth is then not the
	// decode's ceiling, and a share above 1 says so.
	CacheBytes int64 `json:"cache_bytes,omitempty"`
	// Problems say why a part could not be read (a model format not
	// known, a tensor type sized from the file's offsets).
	Problems []string `json:"problems,omitempty"`
}

// RooflineShare is the share the ArmRoofline fields give.
func RooflineShare(decodeTokS, bytesPerToken, kvBytesPerToken, bandwidthGBs float64) float64 {
	if bandwidthGBs <= 0 {
		return 0
	}
	return decodeTokS * (bytesPerToken + kvBytesPerToken) / (bandwidthGBs * 1e9)
}

// RunsMedian is the median of value over arm's finished runs that have
// one (0 when none): the rate and context an ArmRoofline is of.
func RunsMedian(runs []Run, arm string, value func(Run) (float64, bool)) float64 {
	var xs []float64
	for _, r := range runs {
		if r.Arm != arm || !r.OK() {
			continue
		}
		if v, ok := value(r); ok {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// RooflineOf is arm's roofline share in the record, if it has one.
func (r *Record) RooflineOf(arm string) (ArmRoofline, bool) {
	for _, x := range r.Roofline {
		if x.Arm == arm {
			return x, true
		}
	}
	return ArmRoofline{}, false
}
