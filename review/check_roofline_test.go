package review

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// An arm's roofline is held to the rest of the record: the bytes a token
// reads to its model file's size, the effective mark to its command line
// and share, a table's bandwidth to the table, a last-level cache to a
// measured bandwidth and what a token reads. Each edit recomputes the
// share, as a forger re-rendering the record would.
func TestCheckRooflineOrigins(t *testing.T) {
	edit := func(f func(a *schema.ArmRoofline)) func(*schema.Record) {
		return func(r *schema.Record) {
			for i := range r.Roofline {
				a := &r.Roofline[i]
				f(a)
				a.Share = schema.RooflineShare(a.DecodeTokS, a.BytesPerToken, a.KVBytesPerToken, a.BandwidthGBs)
			}
		}
	}
	draftArm := func(f func(a *schema.ArmRoofline)) func(*schema.Record) {
		return edit(func(a *schema.ArmRoofline) {
			if a.Arm == "draft" {
				f(a)
			}
		})
	}
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "bytes a token past the file", edit: edit(func(a *schema.ArmRoofline) { a.BytesPerToken = 5e11; a.CacheBytes = 0 }),
			want: `5e+11 bytes a token of "/work/main/.cache/models-chaotic/target.gguf", a file of 111973248 bytes`},
		{what: "a draft step past the file", edit: draftArm(func(a *schema.ArmRoofline) { a.DraftBytesPerToken = 2e7 }),
			want: `2e+07 bytes a draft step of "/work/main/.cache/models-chaotic/draft.gguf", a file of 16520448 bytes`},
		{what: "another model", edit: edit(func(a *schema.ArmRoofline) { a.Model = "/models/llama-70b.gguf" }),
			want: `model "/models/llama-70b.gguf" is none of the model files its engine names`},
		{what: "a draft model dropped", edit: draftArm(func(a *schema.ArmRoofline) { a.DraftModel, a.DraftBytesPerToken = "", 0 }),
			want: `draft model "", where its command line names`},
		{what: "a drafting arm not effective", edit: draftArm(func(a *schema.ArmRoofline) { a.Effective = false }),
			want: "marked effective false; its command line drafts true"},
		{what: "a table's bandwidth no table gives", edit: edit(func(a *schema.ArmRoofline) {
			a.BandwidthMeasured, a.BandwidthGBs, a.Memory, a.BandwidthSource, a.CacheBytes = false, 4800, "NVIDIA H200", "https://www.nvidia.com/en-us/data-center/h200/", 0
		}), want: `bandwidth 4800 GB/s of "NVIDIA H200" from the table, which gives 0 GB/s of "" for this machine and backend`},
		{what: "a cache smaller than a token's read", edit: edit(func(a *schema.ArmRoofline) { a.CacheBytes = 1 << 20 }),
			want: "a last-level cache of 1048576 bytes"},
	})
}
