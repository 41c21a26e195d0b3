package plots

import (
	"slices"
	"testing"
	"time"
)

// A record dated 2026-12-01 stands at the tick labelled 2026-12-01, in any
// time zone; no label appears twice; every labelled tick is a midnight.
func TestTrendDateAxis(t *testing.T) {
	for _, loc := range []*time.Location{time.UTC, time.FixedZone("UTC-5", -5*3600), time.FixedZone("UTC+9", 9*3600)} {
		pts := []TrendPoint{
			{Date: time.Date(2026, 11, 29, 0, 0, 0, 0, loc), Hardware: "epyc", Ratio: 1.1, Valid: true},
			{Date: time.Date(2026, 12, 1, 0, 0, 0, 0, loc), Hardware: "epyc", Ratio: 1.2, Valid: true},
		}
		p, marks, _, err := trend("spec", "decode_tok_s", pts, nil)
		if err != nil {
			t.Fatal(err)
		}
		ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
		var labels []string
		at := map[string]float64{}
		for _, tk := range ticks {
			if tk.Label == "" {
				continue
			}
			if slices.Contains(labels, tk.Label) {
				t.Errorf("%s: label %s appears twice", loc, tk.Label)
			}
			labels = append(labels, tk.Label)
			at[tk.Label] = tk.Value
			if int64(tk.Value)%86400 != 0 {
				t.Errorf("%s: tick %s at %v, not a midnight", loc, tk.Label, tk.Value)
			}
		}
		for _, m := range marks.pts {
			want := m.Date.Format("2006-01-02")
			if x, ok := at[want]; !ok || x != m.x {
				t.Errorf("%s: the point dated %s stands at %v, its tick at %v (%v)", loc, want, m.x, x, ok)
			}
		}
	}
}

// A long span labels at most about eight days, each once.
func TestTrendDayTicksSparse(t *testing.T) {
	min := float64(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	ticks := dayTicks{}.Ticks(min, min+400*86400)
	n := 0
	for _, tk := range ticks {
		if tk.Label != "" {
			n++
		}
	}
	if n < 2 || n > 9 {
		t.Errorf("%d labelled ticks over 400 days", n)
	}
}

// One wide interval does not squash the axis: it is clipped (and said so
// in the legend), and the other points keep their room. A VALID and an
// INCONCLUSIVE record are told apart in the legend.
func TestTrendClipsAWideInterval(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	pts := []TrendPoint{
		{Date: d(1), Hardware: "epyc", Ratio: 1.10, Lo: 1.08, Hi: 1.12, Valid: true},
		{Date: d(2), Hardware: "epyc", Ratio: 1.12, Lo: 1.10, Hi: 1.14, Valid: true},
		{Date: d(3), Hardware: "epyc", Ratio: 1.11, Lo: 0.2, Hi: 9.5},
	}
	p, _, entries, err := trend("spec", "decode_tok_s", pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min < 0.5 || p.Y.Max > 1.6 {
		t.Errorf("y axis %v..%v: the wide interval squashes it", p.Y.Min, p.Y.Max)
	}
	if p.Y.Min > 1 || p.Y.Max < 1.12 {
		t.Errorf("y axis %v..%v leaves out a ratio or the line of no change", p.Y.Min, p.Y.Max)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.name)
	}
	for _, want := range []string{"epyc", TrendValidLabel, TrendNotPubLabel, TrendClippedLabel} {
		if !slices.Contains(names, want) {
			t.Errorf("legend %q lacks %q", names, want)
		}
	}
	if _, err := PNG(p); err != nil {
		t.Fatal(err)
	}
}

// Records of one date stand apart, in the order of their names' -N
// suffix, within their day: the first at its tick, the last before the
// next day's (they shared one x, one hiding the other); a day's only
// record stays at its tick, and a step stands at its first record.
func TestTrendSameDayRecordsStandApart(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	pts := []TrendPoint{
		{Date: d(29), Seq: 3, Hardware: "epyc", Ratio: 1.3},
		{Date: d(29), Seq: 1, Hardware: "epyc", Ratio: 1.1},
		{Date: d(29), Seq: 2, Hardware: "epyc", Ratio: 1.2},
		{Date: d(29), Seq: 4, Hardware: "xeon", Ratio: 1.4},
		{Date: d(30), Hardware: "epyc", Ratio: 1.5},
	}
	_, marks, _, err := trend("spec", "decode_tok_s", pts, []TrendStep{{Date: d(29), Seq: 3, Hardware: "epyc"}})
	if err != nil {
		t.Fatal(err)
	}
	x := map[float64]float64{} // ratio → x
	for _, m := range marks.pts {
		x[m.Ratio] = m.x
	}
	tick := float64(d(29).Unix())
	if x[1.1] != tick || !(x[1.1] < x[1.2] && x[1.2] < x[1.3] && x[1.3] < x[1.4]) || x[1.4] >= tick+86400 || x[1.5] != tick+86400 {
		t.Errorf("x positions: %v (the 29th's tick at %v)", x, tick)
	}
	if got := xPlaces(pts, nil)(d(29), 3); got != x[1.3] {
		t.Errorf("a step after the third record of the day stands at %v, the record at %v", got, x[1.3])
	}
}
