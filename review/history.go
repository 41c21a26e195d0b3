package review

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/recorder"
)

// LoadHistory reads the data block of every record in dir (as index
// finds them: *.md but the index and temporary files), on every CPU at
// once. A file that is not a readable record with a valid name is
// returned as an error beside the records (a *history.Unreadable); nothing
// is checked.
func LoadHistory(dir string) ([]history.Record, []error, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool {
		base := filepath.Base(n)
		return base == IndexFile || safefs.IsTemp(base)
	})
	recs := make([]history.Record, len(names))
	errs := make([]error, len(names))
	workers.ForEach(len(names), func(i int) {
		stem := strings.TrimSuffix(filepath.Base(names[i]), ".md")
		rec, err := recorder.ParseFile(names[i])
		if err == nil {
			if cerr := recorder.CheckName(rec.Feature, rec.Hardware, rec.Date); cerr != nil {
				err = fmt.Errorf("%s: not a valid record name: %w", names[i], cerr)
			}
		}
		if err != nil {
			errs[i] = &history.Unreadable{Path: names[i], Err: err}
			return
		}
		recs[i] = history.Record{Stem: stem, Seq: suffix(stem, rec), Rec: rec}
	})
	var out []history.Record
	var bad []error
	for i := range names {
		if errs[i] != nil {
			bad = append(bad, errs[i])
		} else {
			out = append(out, recs[i])
		}
	}
	return out, bad, nil
}

// historyStep is a step as --json writes it: with its bisect command.
type historyStep struct {
	history.Step
	Bisect string `json:"bisect,omitempty"`
}

type historyMetric struct {
	history.Metric
	Steps []historyStep `json:"steps"`
}

type historySeries struct {
	history.Series
	Metrics []historyMetric `json:"metrics"`
}

// WriteHistoryJSON writes series as `decodebench history --json` does:
// the changepoint method and thresholds, then each series with every
// step's bisect command (BisectCommand). The site embeds the same bytes.
func WriteHistoryJSON(w io.Writer, series []history.Series, left []history.LeftOut) error {
	out := struct {
		Method     string            `json:"method"`
		Alpha      float64           `json:"alpha"`
		MinStep    float64           `json:"min_step"`
		MinSegment int               `json:"min_segment"`
		Series     []historySeries   `json:"series"`
		LeftOut    []history.LeftOut `json:"left_out"`
	}{changepoint.Method, changepoint.Defaults.Alpha, changepoint.Defaults.MinStep, changepoint.Defaults.MinSegment, []historySeries{}, left}
	if out.LeftOut == nil {
		out.LeftOut = []history.LeftOut{}
	}
	for _, s := range series {
		hs := historySeries{Series: s}
		for _, m := range s.Metrics {
			hm := historyMetric{Metric: m, Steps: []historyStep{}}
			for _, st := range m.Steps {
				hm.Steps = append(hm.Steps, historyStep{Step: st, Bisect: BisectCommand(st)})
			}
			hs.Metrics = append(hs.Metrics, hm)
		}
		out.Series = append(out.Series, hs)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
