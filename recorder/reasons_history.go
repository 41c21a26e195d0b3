package recorder

import (
	"fmt"
	"math"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// historyReason states the warning that the host ran outside its own
// history (analysis.HostBand).
func (f style) historyReason(r schema.Reason) (string, bool) {
	h, ok := r.(schema.HostOffHistory)
	if !ok {
		return "", false
	}
	dir, how := "below", "worse"
	if h.Change > 0 {
		dir = "above"
	}
	if !h.Worse {
		how = "better"
	}
	unit := ""
	if u := schema.MetricOf(h.Metric).Unit; u != "" {
		unit = " " + u
	}
	var names []string
	for _, n := range strings.Split(h.Compared, ", ") {
		names = append(names, f.code(n))
	}
	engines := ""
	if h.OtherEngine > 0 {
		engines = fmt.Sprintf(" %d of the %d ran another engine binary than this campaign's baseline: the change may be the engine's, not the host's.", h.OtherEngine, h.Records)
	}
	return sentences(
		fmt.Sprintf("This host ran %s its own history by %s (%s):", dir, pct.Fixed(math.Abs(h.Change), 1), how),
		fmt.Sprintf("the baseline %s's median %s, %s%s, against a median of %s%s over its %d earlier records of this scenario on this hardware,", f.code(h.Arm), f.code(h.Metric), num(h.Value, 4), unit, num(h.Median, 4), unit, h.Records),
		fmt.Sprintf("outside their band of %s to %s (the median ± %s × 1.4826 × MAD, at least ± %s); compared: %s.", num(h.Lo, 4), num(h.Hi, 4), count(analysis.HistoryK), pct.Rounded(analysis.HistoryMinHalfWidth), strings.Join(names, ", ")),
		"The interleaved ratios stand; the absolute numbers are flagged: look for a power mode, a thermal limit, other load, or a changed engine or model."+engines), true
}

// hostHistory is the method section's line on the host's own history:
// what the baseline was compared with, and whether it fell in the band.
func (m *mdWriter) hostHistory(r *schema.Record) {
	h := r.Method.History
	band, ok := analysis.HostBand(h)
	if !ok {
		return
	}
	verdict := "inside it"
	for _, w := range r.Analysis.Warnings {
		if _, off := w.(schema.HostOffHistory); off {
			verdict = "outside it (the warning above)"
		}
	}
	var recs []string
	for _, v := range h.Records {
		other := ""
		if v.OtherEngine {
			other = ", another engine binary"
		}
		recs = append(recs, fmt.Sprintf("%s (%s, %s%s)", code(v.Record), text(v.Date), num(v.Value, 4), other))
	}
	m.p("- This host's own history: the baseline %s's median %s against its %d earlier records of this scenario on this hardware, newest first: %s. ",
		code(h.Arm), code(h.Metric), band.N, strings.Join(recs, ", "))
	m.p("Their median is %s and their band %s to %s (the median ± %s × 1.4826 × MAD, at least ± %s); this campaign's baseline is %s.\n",
		num(band.Median, 4), num(band.Lo, 4), num(band.Hi, 4), count(analysis.HistoryK), pct.Rounded(analysis.HistoryMinHalfWidth), verdict)
}
