package history

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Campaign is what identifies one campaign's measurements, whatever file
// holds them: when it started (method.started), when each of its runs
// started, its runs.jsonl, and the log each finished run wrote. A record
// copied under another name or date, or whose runs.jsonl was rewritten
// without changing a run (re-spaced, reordered), or whose every time was
// shifted (its logs byte for byte the original's), is the same campaign:
// two campaigns never start a run at the same instant, and never write
// one log byte for byte (its marker lines carry their times to the
// nanosecond, the engine's lines its own timings). The runs' outputs are
// not marks: a greedy engine writes the same text in every campaign of a
// scenario (twelve committed spec-draft campaigns share one set of
// output hashes). A run's measured values are: a copy whose every time
// was shifted and every log rewritten still carries its runs' metrics and
// wall times to the last bit, which no other campaign's run does
// (RunValues).
type Campaign struct {
	Started   time.Time
	RunStarts []time.Time
	// RunValues are the finished runs' metric values, each run's as one
	// digest (runValues).
	RunValues []string
	RunsSHA   string // runs.jsonl's sha256, as the record names it
	// LogSHAs are the sha256s the record names for its finished runs'
	// logs (AddRun gathers their names, Name their sums).
	LogSHAs []string
	logs    []string
}

// CampaignOf is the campaign of a record loaded with its runs.
func CampaignOf(rec *schema.Record) Campaign {
	var c Campaign
	for _, r := range rec.Runs {
		c.AddRun(r)
	}
	c.Name(rec)
	return c
}

// AddRun adds a run's start (none for a run without one), and the name of
// a finished run's log.
func (c *Campaign) AddRun(r schema.Run) {
	if !r.Start.IsZero() {
		c.RunStarts = append(c.RunStarts, r.Start)
	}
	if r.OK() && r.Log != "" {
		c.logs = append(c.logs, r.Log)
	}
	if v := runValues(r); r.OK() && v != "" {
		c.RunValues = append(c.RunValues, v)
	}
}

// runValues is a digest of a run's measured values, bit for bit: its
// metrics by name and its wall time; "" for a run none of whose values
// has a fraction (counts and whole numbers two campaigns can share).
func runValues(r schema.Run) string {
	values := maps.Clone(r.Metrics)
	if values == nil {
		values = map[string]float64{}
	}
	values["\x00seconds"] = r.Seconds
	names := make([]string, 0, len(values))
	measured := false
	for n, v := range values {
		names = append(names, n)
		if v != math.Trunc(v) && !math.IsNaN(v) {
			measured = true
		}
	}
	if !measured {
		return ""
	}
	slices.Sort(names)
	h := sha256.New()
	var b [8]byte
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(values[n]))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Name sets what the record's data block names of the campaign: its
// start, the sha256 of its runs.jsonl and of the logs of the runs added.
func (c *Campaign) Name(rec *schema.Record) {
	c.Started, c.RunsSHA = rec.Method.Started, rec.FileSum("runs.jsonl")
	c.LogSHAs = c.LogSHAs[:0]
	for _, l := range c.logs {
		if sum := rec.FileSum(l); sum != "" && sum != emptySHA256 {
			c.LogSHAs = append(c.LogSHAs, sum)
		}
	}
}

// emptySHA256 is the sha256 of no bytes: an empty file is nobody's mark.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// Same reports whether a and b are one campaign: the same start, a run
// start in common, the same runs.jsonl, or a finished run's log in
// common.
func (c Campaign) Same(o Campaign) bool {
	mine := map[string]bool{}
	for _, k := range c.keys() {
		mine[k] = true
	}
	return slices.ContainsFunc(o.keys(), func(k string) bool { return mine[k] })
}

// keys are the campaign's marks: any one in common makes two campaigns
// one.
func (c Campaign) keys() []string {
	var out []string
	if !c.Started.IsZero() {
		out = append(out, "started "+strconv.FormatInt(c.Started.UnixNano(), 10))
	}
	if c.RunsSHA != "" {
		out = append(out, "runs.jsonl "+c.RunsSHA)
	}
	for _, t := range c.RunStarts {
		out = append(out, "run "+strconv.FormatInt(t.UnixNano(), 10))
	}
	for _, sum := range c.LogSHAs {
		out = append(out, "log "+sum)
	}
	for _, v := range c.RunValues {
		out = append(out, "values "+v)
	}
	return out
}

// Duplicate is a record left out of a history because another record
// holds the same campaign: counted twice, one campaign would weigh as two
// (copies re-dated around a real record make a step no one measured).
type Duplicate struct {
	Stem string `json:"record"`
	Date string `json:"date"`
	Of   string `json:"same_campaign_as"`
}

// Once keeps one record of each campaign (ids[i] is recs[i]'s): of records
// holding the same campaign, the one dated the day the campaign started
// (UTC), else the oldest. The others are returned as duplicates, oldest
// first.
func Once(recs []Record, ids []Campaign) ([]Record, []Duplicate) {
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	onDay := func(i int) int {
		if s := ids[i].Started; !s.IsZero() && s.UTC().Format(time.DateOnly) == recs[i].Rec.Date {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(onDay(a), onDay(b)), cmp.Compare(recs[a].Rec.Date, recs[b].Rec.Date),
			cmp.Compare(recs[a].Seq, recs[b].Seq), cmp.Compare(recs[a].Stem, recs[b].Stem))
	})
	keep := make([]bool, len(recs))
	of := make([]string, len(recs))
	seen := map[string]int{} // a kept campaign's mark: its record
	for _, i := range order {
		ks := ids[i].keys()
		j, dup := -1, false
		for _, k := range ks {
			if j, dup = seen[k]; dup {
				break
			}
		}
		if dup {
			of[i] = recs[j].Stem
			continue
		}
		keep[i] = true
		for _, k := range ks {
			seen[k] = i
		}
	}
	var out []Record
	var dups []Duplicate
	for i, r := range recs {
		if keep[i] {
			out = append(out, r)
		} else {
			dups = append(dups, Duplicate{Stem: r.Stem, Date: r.Rec.Date, Of: of[i]})
		}
	}
	slices.SortStableFunc(dups, func(a, b Duplicate) int { return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Stem, b.Stem)) })
	return out, dups
}
