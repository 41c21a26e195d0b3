package review

import (
	"fmt"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/roofline"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkRooflineOrigins holds each arm's roofline to what the record
// states elsewhere (checkRoofline re-derives its rate and share):
//   - the bytes a token (and a draft step) reads of a GGUF model are at
//     most the largest model file its engine names (a model reads no more
//     than its file; the files are matched by size, not by name: a model
//     named twice is hashed once, and a safetensors folder or a hub id is
//     not a file the engine lists, so there is nothing to hold then);
//   - a draft model is stated only where its stored command line names
//     one (a draft it names that could not be read states none);
//   - it is effective exactly where its command line drafts or its share
//     passes 1, as the harness marks it;
//   - a bandwidth from the table (not measured) is the table's figure, of
//     that memory and source, for the record's machine and the backend
//     the arm's runs loaded;
//   - a last-level cache is stated only beside a measured bandwidth, and
//     only where what a token reads fits in it.
//
// A measured bandwidth is the host's own figure, which nothing in the
// record can hold (the triad's result is not kept beside the runs).
func checkRooflineOrigins(s *scenarios.Scenario, rec *schema.Record) []Problem {
	var probs []Problem
	add := func(arm, format string, args ...any) {
		probs = append(probs, Problem{"Machine", fmt.Sprintf("roofline of arm %s: ", arm) + fmt.Sprintf(format, args...)})
	}
	for _, a := range rec.Roofline {
		if _, ok := s.Arm(a.Arm); !ok {
			add(a.Arm, "no such arm in the stored scenario")
			continue
		}
		cmd := roofline.ParseCommand(s.Launch(a.Arm).Command)
		if largest, ok := largestModel(rec.EngineOf(a.Arm).Models); ok && a.Format == "gguf" {
			if a.BytesPerToken > float64(largest) {
				add(a.Arm, "%v bytes a token of %q, past the largest model file its engine names (%d bytes)", a.BytesPerToken, a.Model, largest)
			}
			if a.DraftBytesPerToken > float64(largest) {
				add(a.Arm, "%v bytes a draft step of %q, past the largest model file its engine names (%d bytes)", a.DraftBytesPerToken, a.DraftModel, largest)
			}
		}
		if a.DraftModel != "" && cmd.Draft == "" {
			add(a.Arm, "draft model %q, where its command line names none", a.DraftModel)
		}
		if want := cmd.Drafts || a.Share > 1; a.Effective != want {
			add(a.Arm, "marked effective %t; its command line drafts %t and its share is %v", a.Effective, cmd.Drafts, a.Share)
		}
		if !a.BandwidthMeasured {
			bw, ok := machine.TableBandwidth(rec.Machine, roofline.LoadedGPU(rec, a.Arm))
			if !ok || bw.GBs != a.BandwidthGBs || bw.Memory != a.Memory || bw.Source != a.BandwidthSource {
				add(a.Arm, "bandwidth %v GB/s of %q from the table, which gives %v GB/s of %q for this machine and backend", a.BandwidthGBs, a.Memory, bw.GBs, bw.Memory)
			}
		}
		if a.CacheBytes != 0 && (!a.BandwidthMeasured || a.CacheBytes < 0 || a.BytesPerToken+a.KVBytesPerToken > float64(a.CacheBytes)) {
			add(a.Arm, "a last-level cache of %d bytes, stated where a token reads %v bytes by a bandwidth measured %t", a.CacheBytes, a.BytesPerToken+a.KVBytesPerToken, a.BandwidthMeasured)
		}
	}
	return probs
}

// largestModel is the size of the largest model file of models; false
// when there is none.
func largestModel(models []schema.ModelFile) (int64, bool) {
	var most int64
	for _, m := range models {
		most = max(most, m.Bytes)
	}
	return most, len(models) > 0
}
