package recorder

import (
	"bytes"
	"slices"
	"testing"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/schema"
)

// A record read with its runs' figures only (check --headline reads it so)
// has the headline of the record read whole, the busy processes its
// remedies name included: from the page alone the headline counted no
// runs, and without the runs' culprits it said no process was caught.
func TestFiguresHeadlineAsTheRecord(t *testing.T) {
	for _, path := range committed.Records(t) {
		full, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		// A run its window caught another process in.
		if len(full.Runs) > 0 {
			c := schema.ContentionSample{Busy: 0.9, Others: 0.5, Culprit: &schema.HostProcess{PID: 42, Name: "cc1plus", Cores: 0.5}}
			full.Runs[0].Contention = &c
		}
		figures := *full
		figures.Runs = nil
		for _, r := range full.Runs {
			figures.Runs = append(figures.Runs, Figures(full, r))
		}
		var a, b bytes.Buffer
		if err := Headline(&a, full, path); err != nil {
			t.Fatal(err)
		}
		if err := Headline(&b, &figures, path); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: the headline of its figures differs:\n%s\nthe record's:\n%s", path, b.String(), a.String())
		}
		fs, _ := recordStyle(&figures, true)
		ws, _ := recordStyle(full, true)
		if len(full.Runs) > 0 && (len(ws.busy) == 0 || !slices.Equal(fs.busy, ws.busy)) {
			t.Errorf("%s: its figures name the busy processes %q, the record %q", path, fs.busy, ws.busy)
		}
	}
}
