package main

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/changepoint"
)

// The history command's help states the thresholds history uses,
// changepoint.Defaults, whatever they are.
func TestHistoryHelpSaysTheDefaults(t *testing.T) {
	saved := changepoint.Defaults
	defer func() { changepoint.Defaults = saved }()
	changepoint.Defaults = changepoint.Options{Alpha: 0.01, MinStep: 0.05, MinSegment: 6}
	want := "two-sided p < 0.01, a change of at least 5%, at least 6\nrecords on either side"
	if got := historyDescription(); !strings.Contains(got, want) {
		t.Errorf("history's help does not say %q:\n%s", want, got)
	}
}
