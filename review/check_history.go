package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// checkHistory holds a record's host history (method.history, from which
// the analysis derives its warning that the host ran outside its own
// history) to the records it names that lie beside it: each must be an
// earlier record of the same feature, hardware and scenario that counts
// in a history, its baseline's median, date and engine as the history
// states them. A named record that is not there (a record gathered
// without its neighbours), or whose name a later campaign holds now, is
// not compared: the history is stored so
// that a record's warning does not change when its folder does. The
// history's shape is held whatever lies beside it: the baseline and
// primary metric, the number of records, names of records of this
// feature, each once and none the record's own.
func checkHistory(recordPath string, rec *schema.Record) []Problem {
	h := rec.Method.History
	if h == nil {
		return nil
	}
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Host history", fmt.Sprintf(format, args...)})
	}
	if h.Arm != rec.Scenario.Baseline || h.Metric != rec.Scenario.Primary {
		add("compares arm %s's %s, but the baseline is %s and the primary metric %s", termsafe.String(h.Arm), termsafe.String(h.Metric), termsafe.String(rec.Scenario.Baseline), termsafe.String(rec.Scenario.Primary))
	}
	if n := len(h.Records); n < analysis.HistoryMinRecords || n > analysis.HistoryMaxRecords {
		add("names %d records; a campaign stores its history over %d to %d", n, analysis.HistoryMinRecords, analysis.HistoryMaxRecords)
	}
	own := recordStem(recordPath)
	engine := rec.EngineOf(rec.Scenario.Baseline).SHA256
	seen := map[string]bool{}
	for _, v := range h.Records {
		name := termsafe.String(v.Record)
		if _, err := recorder.ParseStem(v.Record, rec.Feature); err != nil || v.Record == own || seen[v.Record] {
			add("names %s, which is not another record of feature %s, or is named twice", name, termsafe.String(rec.Feature))
			continue
		}
		seen[v.Record] = true
		o, ok := besideRecord(filepath.Join(filepath.Dir(recordPath), v.Record+".md"))
		if !ok {
			continue
		}
		if !o.started.Before(rec.Method.Started) {
			// A later campaign holds the name: the record named was
			// removed and its name given again (a campaign takes the
			// lowest free name). Not the record the history names.
			continue
		}
		switch {
		case o.feature != rec.Feature || o.hardware != rec.Hardware || o.scenario != rec.Scenario.Hash || !o.counts:
			add("names %s, which lies beside it but is not an earlier record of this feature, hardware and scenario that counts in a history", name)
		case !o.hasMedian || o.median != v.Value:
			add("states %s's baseline median as %v; that record's is %v", name, v.Value, o.median)
		case o.date != v.Date:
			add("dates %s %s; that record is of %s", name, termsafe.String(v.Date), termsafe.String(o.date))
		case v.OtherEngine != (o.engine != engine):
			add("says %s's baseline ran %s engine; that record's baseline engine is %s", name, sameWord(!v.OtherEngine), sameWord(o.engine == engine))
		}
	}
	return probs
}

func sameWord(same bool) string {
	if same {
		return "the same"
	}
	return "another"
}

// recordStem is a record's file name without .md.
func recordStem(recordPath string) string {
	return strings.TrimSuffix(filepath.Base(recordPath), ".md")
}

// besideSummary is what a host history states of a record.
type besideSummary struct {
	feature, hardware, scenario, date, engine string
	counts, hasMedian                         bool
	started                                   time.Time
	median                                    float64
}

// besideKey is a file as a stat sees it: a record rewritten is read again.
type besideKey struct {
	path  string
	size  int64
	mtime int64
	mode  os.FileMode
}

// besideMemo keeps the records read for the histories of others: a
// folder's records name each other over and over.
var besideMemo sync.Map // besideKey → besideSummary

// besideRecord reads the record at path for a history's comparison;
// false when there is no regular file there or it does not parse.
func besideRecord(path string) (besideSummary, bool) {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return besideSummary{}, false
	}
	k := besideKey{path, st.Size(), st.ModTime().UnixNano(), st.Mode()}
	if s, ok := besideMemo.Load(k); ok {
		return s.(besideSummary), true
	}
	o, err := recorder.ParseFile(path)
	if err != nil {
		return besideSummary{}, false
	}
	s := besideSummary{feature: o.Feature, hardware: o.Hardware, scenario: o.Scenario.Hash, date: o.Date,
		engine: o.EngineOf(o.Scenario.Baseline).SHA256, counts: history.Counts(o.Verdict), started: o.Method.Started}
	s.median, s.hasMedian = history.BaselineMedian(o)
	besideMemo.Store(k, s)
	return s, true
}

// besideStamp is what a record's check reads of the records its history
// names, for the check cache's key: each one's size, time and mode, or
// that it is not there.
func besideStamp(recordPath string, stems []string) string {
	var b []byte
	for _, s := range stems {
		st, err := os.Lstat(filepath.Join(filepath.Dir(recordPath), filepath.Base(s)+".md"))
		if err != nil {
			b = fmt.Appendf(b, "%s\x00-\x00", s)
			continue
		}
		b = fmt.Appendf(b, "%s\x00%d\x00%d\x00%v\x00", s, st.Size(), st.ModTime().UnixNano(), st.Mode())
	}
	return string(b)
}

// historyStems are the records a record's host history names.
func historyStems(rec *schema.Record) []string {
	if rec.Method.History == nil {
		return nil
	}
	var out []string
	for _, v := range rec.Method.History.Records {
		out = append(out, v.Record)
	}
	return out
}
