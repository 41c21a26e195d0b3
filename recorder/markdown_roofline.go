package recorder

import (
	"fmt"
	"strconv"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// roofline writes the Machine section's roofline table
// (schema.ArmRoofline): per arm, what a decoded token reads, the memory's
// bandwidth and its source, and the share.
func (m *mdWriter) roofline(r *schema.Record, sp shortPaths) {
	if len(r.Roofline) == 0 {
		return
	}
	m.ln("Roofline: decode is memory-bound, every decoded token reading the model's weights once (the token embedding table one row) and the KV cache at its context.")
	m.ln("The share is the arm's median decode rate (`decode_tok_s`) over the memory's bandwidth ÷ the bytes a token reads; " +
		"a drafting arm's is effective (several tokens per read of the weights: it can pass 100%).")
	m.ln("")
	table(m, []column[schema.ArmRoofline]{
		left("arm", func(a schema.ArmRoofline) string { return code(a.Arm) }),
		right("decode tok/s", func(a schema.ArmRoofline) string { return num(a.DecodeTokS, 4) }),
		left("model", func(a schema.ArmRoofline) string {
			return cellCode(sp.path(a.Model)) + " (" + cellText(a.Format) + ")"
		}),
		right("weights bytes/token", func(a schema.ArmRoofline) string { return strconv.FormatFloat(a.BytesPerToken, 'f', 0, 64) }),
		right("KV bytes/token", kvCell),
		left("memory", func(a schema.ArmRoofline) string { return cellText(a.Memory) }),
		right("GB/s", func(a schema.ArmRoofline) string { return num(a.BandwidthGBs, 4) }),
		left("source", func(a schema.ArmRoofline) string {
			if a.BandwidthMeasured {
				return cellText(a.BandwidthSource)
			}
			return "table: " + cellText(a.BandwidthSource)
		}),
		right("share", func(a schema.ArmRoofline) string {
			s := pct.Fixed(a.Share, 1)
			if a.Effective {
				s += " effective"
			}
			return s
		}),
	}, r.Roofline)
	for _, a := range r.Roofline {
		if a.DraftModel != "" {
			m.p("\nArm %s drafts with %s, which reads %s bytes a draft step (not in its share).\n", code(a.Arm), code(sp.path(a.DraftModel)), strconv.FormatFloat(a.DraftBytesPerToken, 'f', 0, 64))
		}
		if a.CacheBytes > 0 {
			m.p("\nArm %s's token reads %s, which fits in the host's last-level cache (%s): the memory's bandwidth is not this decode's ceiling, and its share can pass 100%%.\n",
				code(a.Arm), bytesString(uint64(a.BytesPerToken+a.KVBytesPerToken)), bytesString(uint64(a.CacheBytes)))
		}
		for _, p := range a.Problems {
			m.p("\nArm %s: %s.\n", code(a.Arm), text(p))
		}
	}
	m.ln("")
}

func kvCell(a schema.ArmRoofline) string {
	if a.Context == 0 {
		return "—"
	}
	return fmt.Sprintf("%s (context %s)", strconv.FormatFloat(a.KVBytesPerToken, 'f', 0, 64), num(a.Context, 4))
}
