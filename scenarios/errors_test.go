package scenarios

import (
	"errors"
	"strings"
	"testing"
)

// Withheld keeps each error's file, position, key and flags, never its
// message: a file that a received data folder names may be any file of
// this machine, and a message quotes the line it could not read or the
// value it refuses.
func TestWithheldQuotesNothing(t *testing.T) {
	for _, src := range []string{
		"DB_PASSWORD=hunter2 OTHER=Zq2vLm3nXw7pRt2k\n",
		"schedule: {rounds: Zq2vLm3nXw7pRt2k}\n",
		"feature: t\nengine: {command: [x], request: {endpoint: Zq2vLm3nXw7pRt2k}}\n",
	} {
		_, _, err := Parse("f", ".", []byte(src), Options{})
		var errs Errors
		if !errors.As(err, &errs) || !strings.Contains(errs.Error(), "Zq2vLm3nXw7pRt2k") {
			t.Fatalf("%q: %v; the test's premise is a message that quotes the file", src, err)
		}
		w := errs.Withheld()
		if strings.Contains(w.Error(), "Zq2vLm3nXw7pRt2k") || len(w) != len(errs) {
			t.Errorf("%q: withheld, yet:\n%v", src, w)
		}
		for i, e := range w {
			if e.File != errs[i].File || e.Pos != errs[i].Pos || e.Key != errs[i].Key || e.Warning != errs[i].Warning || e.Rule != errs[i].Rule || e.Msg != WithheldMsg {
				t.Errorf("%q: %+v, withheld from %+v", src, e, errs[i])
			}
		}
		if errs[0].Msg == WithheldMsg {
			t.Errorf("%q: Withheld changed the errors it was given", src)
		}
	}
}
