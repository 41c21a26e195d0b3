package review

import (
	"fmt"
	"slices"

	"github.com/decodebench/decodebench/schema"
)

// checkLoaded checks the record's loaded sets against its runs: every
// finished run that read what its engine loaded loaded its arm's set as
// the record lists it, each arm is listed once, and each set listed is
// listed for arms whose finished runs loaded it (as the harness lists
// them, recordLoaded): a set listed for an arm whose runs read nothing,
// or for no arm, is what no run gave.
func checkLoaded(rec *schema.Record) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Engine", fmt.Sprintf(format, args...)})
	}
	listed := map[string]int{}
	for _, l := range rec.Loaded {
		for _, a := range l.Arms {
			listed[a]++
		}
	}
	for a, n := range listed {
		if n > 1 {
			add("arm %s is listed under %d loaded sets, want 1", a, n)
		}
	}
	read := map[string]bool{}
	for _, r := range rec.Runs {
		if r.OK() && len(r.Loaded) > 0 {
			read[r.Arm] = true
		}
	}
	for i, l := range rec.Loaded {
		if len(l.Arms) == 0 {
			add("loaded set %d is listed for no arm", i+1)
		}
		for _, a := range l.Arms {
			if !read[a] {
				add("a loaded set is listed for arm %s, none of whose finished runs read what its engine loaded", a)
			}
		}
	}
	for _, r := range rec.Runs {
		if !r.OK() || len(r.Loaded) == 0 {
			continue
		}
		set := rec.LoadedOf(r.Arm)
		if set == nil {
			add("run %d (arm %s) loaded %d libraries, which the record does not list", r.Seq, r.Arm, len(r.Loaded))
			continue
		}
		if !slices.Equal(set, r.Loaded) {
			add("run %d (arm %s) loaded other libraries than the record lists for its arm", r.Seq, r.Arm)
		}
	}
	return probs
}

// checkRoofline re-derives each arm's roofline share from the runs: its
// decode rate is the median of its finished runs' decode_tok_s, and its
// share follows from that, the bytes a token reads and the bandwidth.
// Arms that read one memory by one source state one bandwidth: the
// harness measures the host's once a campaign and takes a table's from
// the machine alone, so an arm's bandwidth edited apart from the others'
// (its share recomputed to match) is named.
func checkRoofline(rec *schema.Record) []Problem {
	var probs []Problem
	first := map[string]schema.ArmRoofline{}
	for _, a := range rec.Roofline {
		k := fmt.Sprintf("%s\x00%s\x00%t", a.Memory, a.BandwidthSource, a.BandwidthMeasured)
		f, ok := first[k]
		switch {
		case !ok:
			first[k] = a
		case f.BandwidthGBs != a.BandwidthGBs:
			probs = append(probs, Problem{"Machine", fmt.Sprintf("roofline of arm %s: bandwidth %v GB/s, but arm %s reads the same memory (%q) by the same source at %v GB/s", a.Arm, a.BandwidthGBs, f.Arm, a.Memory, f.BandwidthGBs)})
		}
	}
	for _, a := range rec.Roofline {
		rate := schema.RunsMedian(rec.Runs, a.Arm, func(r schema.Run) (float64, bool) {
			v, ok := r.Analysed()[schema.DecodeTokS]
			return v, ok && v > 0
		})
		share := schema.RooflineShare(a.DecodeTokS, a.BytesPerToken, a.KVBytesPerToken, a.BandwidthGBs)
		switch {
		case rate != a.DecodeTokS:
			probs = append(probs, Problem{"Machine", fmt.Sprintf("roofline of arm %s: decode rate %v, but its runs' median is %v", a.Arm, a.DecodeTokS, rate)})
		case share != a.Share:
			probs = append(probs, Problem{"Machine", fmt.Sprintf("roofline of arm %s: share %v, but its figures give %v", a.Arm, a.Share, share)})
		}
	}
	return probs
}
