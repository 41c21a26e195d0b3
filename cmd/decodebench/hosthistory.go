package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// withHostHistory lets a campaign compare its baseline with this host's
// earlier records of the scenario in its records folder, read as index
// reads them and each checked first (through the user's check cache,
// where one can be had).
func withHostHistory(opt harness.Options, errw io.Writer) harness.Options {
	cache := userCheckCache()
	opt.Records = review.LoadHistory
	opt.Checked = func(path string) bool {
		r := review.CheckAll([]string{path}, cache())[0]
		if len(r.Problems) > 0 {
			fmt.Fprintf(errw, "host history: %s left out: it fails check: %s\n", termsafe.String(path), termsafe.String(r.Problems[0].String()))
		}
		return len(r.Problems) == 0
	}
	return opt
}

// printHistoryWarnings prints the warning that the host ran outside its
// own history, where the record has one.
func printHistoryWarnings(w io.Writer, rec *schema.Record) {
	for _, r := range rec.Analysis.Warnings {
		if _, ok := r.(schema.HostOffHistory); ok {
			fmt.Fprintln(w, "  warning: "+recorder.ReasonText(rec, r))
		}
	}
}

// userCheckCache opens the user's check cache once, when first asked
// (nil where none can be had: then each record is checked afresh).
func userCheckCache() func() *review.CheckCache {
	return sync.OnceValue(func() *review.CheckCache {
		c, err := review.OpenCheckCache("")
		if err != nil {
			return nil
		}
		return c
	})
}

// checkedLoad reads a record whole for plan and estimate, which read
// earlier records' numbers: one that fails check is refused
// (review.LoadChecked), and passed over, the refusal its reason.
func checkedLoad() func(string) (*schema.Record, error) {
	cache := userCheckCache()
	return func(path string) (*schema.Record, error) { return review.LoadChecked(path, cache()) }
}
