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
//   - its model, and its draft model where it has one, are the model files
//     its engine names, as its stored command line names them: the bytes
//     a token reads of a model are at most the file's bytes, and a draft
//     is stated exactly where the command line has one;
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
		models := rec.EngineOf(a.Arm).Models
		if m, ok := modelNamed(models, a.Model); !ok {
			add(a.Arm, "model %q is none of the model files its engine names", a.Model)
		} else if a.Format == "gguf" && a.BytesPerToken > float64(m.Bytes) {
			add(a.Arm, "%v bytes a token of %q, a file of %d bytes", a.BytesPerToken, a.Model, m.Bytes)
		}
		switch m, ok := modelNamed(models, a.DraftModel); {
		case (a.DraftModel != "") != (cmd.Draft != ""):
			add(a.Arm, "draft model %q, where its command line names %q", a.DraftModel, cmd.Draft)
		case a.DraftModel != "" && !ok:
			add(a.Arm, "draft model %q is none of the model files its engine names", a.DraftModel)
		case a.DraftModel != "" && a.DraftBytesPerToken > float64(m.Bytes):
			add(a.Arm, "%v bytes a draft step of %q, a file of %d bytes", a.DraftBytesPerToken, a.DraftModel, m.Bytes)
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

// modelNamed is the model file of models that a command line names as arg
// (its argument, or its resolved path).
func modelNamed(models []schema.ModelFile, arg string) (schema.ModelFile, bool) {
	for _, m := range models {
		if arg != "" && (m.Arg == arg || m.Path == arg) {
			return m, true
		}
	}
	return schema.ModelFile{}, false
}
