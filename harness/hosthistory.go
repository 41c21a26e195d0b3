package harness

import (
	"fmt"
	"path/filepath"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/termsafe"
)

// hostHistory finds the campaign's host history (Method.History) as it
// ends: the newest analysis.HistoryMaxRecords earlier records of this
// feature, hardware and scenario in the record's folder that pass check
// (history.Earlier), when there are at least analysis.HistoryMinRecords.
// What it finds is stored, and the analysis compares the baseline with
// it; nothing is looked up again when the record is checked.
func (c *campaign) hostHistory() {
	c.rec.Method.History = nil
	if c.opt.Records == nil {
		return
	}
	dir := filepath.Dir(c.recPath)
	recs, _, err := c.opt.Records(dir)
	if err != nil {
		fmt.Fprintf(c.opt.Progress, "host history: %s: not compared\n", termsafe.String(err.Error()))
		return
	}
	var chosen []history.Record
	for _, r := range history.Earlier(recs, c.rec) {
		if len(chosen) == analysis.HistoryMaxRecords {
			break
		}
		if c.opt.Checked != nil && !c.opt.Checked(filepath.Join(dir, r.Stem+".md")) {
			continue // Checked says why
		}
		chosen = append(chosen, r)
	}
	if len(chosen) >= analysis.HistoryMinRecords {
		c.rec.Method.History = history.HostHistory(c.rec, chosen)
	}
}
