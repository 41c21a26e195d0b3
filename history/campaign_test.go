package history

import (
	"maps"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// A campaign is known by its runs' measured values bit for bit: a copy
// whose every time moved and whose runs.jsonl and logs are other files is
// the same campaign; a run of another campaign, or one whose values are
// whole numbers only (counts two campaigns can share), is not a mark.
func TestCampaignKnownByItsRunsValues(t *testing.T) {
	at := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	run := func(v, secs float64, when time.Time) schema.Run {
		return schema.Run{Start: when, Seconds: secs, Metrics: map[string]float64{schema.DecodeTokS: v, "tokens": 256}}
	}
	rec := func(runs ...schema.Run) *schema.Record {
		r := &schema.Record{Runs: runs}
		r.Method.Started = runs[0].Start
		return r
	}
	orig := rec(run(101.25, 4.5, at), run(99.5, 4.25, at.Add(time.Minute)))
	moved := rec(run(101.25, 4.5, at.Add(time.Hour)), run(99.5, 4.25, at.Add(time.Hour+time.Minute)))
	if !CampaignOf(orig).Same(CampaignOf(moved)) {
		t.Error("a copy whose times moved by an hour is another campaign")
	}
	other := rec(run(101.25, 4.5000001, at.Add(2*time.Hour)), run(99.5, 4.2500001, at.Add(2*time.Hour+time.Minute)))
	if CampaignOf(orig).Same(CampaignOf(other)) {
		t.Error("runs whose wall times differ are one campaign")
	}
	whole := func(when time.Time) *schema.Record {
		r := rec(run(100, 4, when))
		r.Runs[0].Metrics = maps.Clone(r.Runs[0].Metrics)
		return r
	}
	if CampaignOf(whole(at)).Same(CampaignOf(whole(at.Add(time.Hour)))) {
		t.Error("runs of whole numbers only make two campaigns one")
	}
	failed := rec(run(101.25, 4.5, at.Add(3*time.Hour)))
	failed.Runs[0].Error = "engine exited"
	if CampaignOf(orig).Same(CampaignOf(failed)) {
		t.Error("a failed run's values are a mark")
	}
}
