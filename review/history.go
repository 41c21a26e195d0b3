package review

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// LoadHistory reads the data block of every record in dir (as index
// finds them: *.md but the index and temporary files), on every CPU at
// once. A file that is not a readable record with a valid name is
// returned as an error beside the records; nothing is checked.
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
	forEach(len(names), func(i int) {
		stem := strings.TrimSuffix(filepath.Base(names[i]), ".md")
		rec, err := recorder.ParseFile(names[i])
		if err == nil {
			if cerr := recorder.CheckName(rec.Feature, rec.Hardware, rec.Date); cerr != nil {
				err = fmt.Errorf("%s: not a valid record name: %w", names[i], cerr)
			}
		}
		if err != nil {
			errs[i] = err
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
